// Package shellparse analyses a shell command as bash would run it: it parses
// the text with a real bash parser (mvdan.cc/sh), collects every simple
// command ("leaf") wherever it appears — lists, pipelines, subshells,
// functions, loops, substitutions, the inner scripts of bash -c and eval,
// the commands behind wrappers such as env, timeout, sudo and xargs — with
// its arguments resolved statically or marked dynamic, and records every
// redirection. Anything it cannot resolve is reported, never guessed.
// It is pure: it runs nothing and reads no files.
package shellparse

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Options tune an analysis.
type Options struct {
	// Home expands ~ and ~/x.
	Home string
	// Interactive is set for text typed into an interactive shell, where
	// history expansion (!) and aliases are live.
	Interactive bool
	// MaxDepth bounds nested inner scripts (bash -c 'bash -c …'); 0 means 4.
	MaxDepth int
	// Cwd is the directory the command starts in; cd, pushd and popd
	// are followed from it (see Dirs).
	Cwd string
	// CwdUnknown says the command starts in a directory nobody can tell
	// (Cwd is then only a guess): every leaf's directory is Unknown, as
	// after cd "$d".
	CwdUnknown bool
	// Programs tells shells and network tools apart; nil knows none
	// (inner scripts of bash -c are then not analysed).
	Programs Programs
}

// Dialect is the shell language a text is written in. Package
// shellparse parses bash; package winshell parses cmd.exe and PowerShell
// into the same model (Analysis, Leaf, Word, Redir), so one policy judges
// them all.
type Dialect uint8

const (
	Bash Dialect = iota
	Cmd
	PowerShell
)

// String names the dialect as its users do.
func (d Dialect) String() string {
	switch d {
	case Cmd:
		return "cmd.exe"
	case PowerShell:
		return "PowerShell"
	}
	return "bash"
}

// Analysis is the result of analysing one command text.
type Analysis struct {
	Source string
	// Dialect is the language the text was parsed as; every leaf has it.
	Dialect Dialect
	// Err is the parse error, if any; then Leaves may be empty.
	Err error
	// Leaves are all simple commands, in source order of discovery. Inner
	// commands of wrappers and inner scripts appear as their own leaves.
	Leaves []*Leaf
	// Redirs are all redirections, including those on compound commands.
	Redirs []*Redir
	// Unknown lists reasons the text cannot be fully analysed.
	Unknown []string
	// Functions are names of shell functions the text defines.
	Functions []string
	// Recursive lists defined functions that call themselves (fork bombs).
	Recursive []string
	// Stmts is the number of top-level statements.
	Stmts int
	// SingleCall is the leaf when the whole text is exactly one simple
	// command (no lists, pipelines, substitutions or inner commands).
	SingleCall *Leaf
	// Expands are the variables the text (inner scripts included)
	// expands anywhere: words, assignments, redirections, here-strings,
	// here-documents, arithmetic; IndirectExpansion is set when it
	// expands one chosen at run time (${!name}).
	Expands           []string
	IndirectExpansion bool
	// DirAfter is where the shell is once the text has run, when that is
	// certain before it runs.
	DirAfter DirAfter
}

// Leaf is one simple command.
type Leaf struct {
	// Dialect is the language of the shell that runs it: bash, or, for a
	// leaf package winshell made, cmd.exe or PowerShell (whose names
	// and switches ignore case, and whose Dir paths are Windows paths).
	Dialect Dialect
	// Words are the command name and its arguments.
	Words []Word
	// Redirs are the redirections written on this command.
	Redirs []*Redir
	// EnvAssigns are NAME=value prefixes (or env NAME=value) applied to the
	// command.
	EnvAssigns []string
	// EnvCleared is set when the leaf runs its inner command without the
	// environment it was given (env -i, exec -c), nb's own settings for
	// commands included.
	EnvCleared bool
	// Via says how the leaf is reached: "" at top level, "$(…)", "<(…)",
	// "bash -c", "eval", "trap", "alias", "xargs", "find -exec", or the
	// name of a wrapper such as "timeout".
	Via string
	// Wrapper is the leaf whose argv contains this one (timeout 5 rm x →
	// the timeout leaf), or the shell leaf of bash -c.
	Wrapper *Leaf
	// Inner are leaves run by this one (wrapped command, inner script).
	Inner []*Leaf
	// ArgsAppended is set when more arguments are appended at run time
	// (xargs, find -exec … +).
	ArgsAppended bool
	// StdinFromNetwork is set when an earlier stage of a pipeline feeding
	// this command runs a network tool.
	StdinFromNetwork bool
	// StdinFromPipe is set when the command reads an earlier pipeline
	// stage.
	StdinFromPipe bool
	// StdinFrom is the earlier pipeline stage feeding the command's
	// standard input, when that stage is one simple command.
	StdinFrom *Leaf
	// StdoutToPipe is set when the command writes into a later pipeline
	// stage (which may stop reading early: cat /dev/urandom | head -c 8).
	StdoutToPipe bool
	// Unknown lists reasons this leaf cannot be analysed statically.
	Unknown []string
	// Decl is set for declare/export/local/readonly/typeset.
	Decl bool
	// Test is set for [[ … ]].
	Test bool
	// Line is the 1-based line of the leaf in the top-level text.
	Line int
	// Dir is where the leaf may run.
	Dir Dirs
}

// Name is the command name as written (after quote removal), or "" when
// it is dynamic.
func (l *Leaf) Name() string {
	if len(l.Words) == 0 || !l.Words[0].Static() {
		return ""
	}
	return l.Words[0].Text
}

// Base is the command name without a directory.
func (l *Leaf) Base() string {
	n := l.Name()
	if strings.Contains(n, "/") {
		return path.Base(n)
	}
	return n
}

// Args are the words after the command name.
func (l *Leaf) Args() []Word {
	if len(l.Words) == 0 {
		return nil
	}
	return l.Words[1:]
}

// Text is the leaf's argv joined by spaces, with Raw for dynamic words.
func (l *Leaf) Text() string {
	parts := make([]string, len(l.Words))
	for i, w := range l.Words {
		if w.Static() {
			parts[i] = w.Text
		} else {
			parts[i] = w.Raw
		}
	}
	return strings.Join(parts, " ")
}

// RawText is the leaf's words as written, joined by spaces.
func (l *Leaf) RawText() string {
	parts := make([]string, len(l.Words))
	for i, w := range l.Words {
		parts[i] = w.Raw
		if parts[i] == "" {
			parts[i] = w.Text
		}
	}
	return strings.Join(parts, " ")
}

// Redir is one redirection.
type Redir struct {
	// Op is the operator as written: > >> < <> >& <& >| &> &>> << <<- <<<.
	Op string
	// Fd is the explicit file descriptor ("2" in 2>x), if any.
	Fd string
	// Target is the file word (for here-strings, the string).
	Target Word
	// Write and Append are set for output redirections to a file.
	Write, Append bool
	// Read is set for input from a file (<, <>).
	Read bool
	// Dup is set for fd duplication (2>&1, <&0, >&-).
	Dup bool
	// Heredoc is set for << and <<- and <<<; Body holds the text.
	Heredoc bool
	Body    string
	// Leaf is the command the redirection is written on (nil for compound
	// commands).
	Leaf *Leaf
	// Dir is where the redirection's file is opened.
	Dir Dirs
}

type walkCtx struct {
	via     string
	depth   int
	line    int
	wrapper *Leaf
	netIn   bool
	pipeIn  bool
	// pipeFrom is the earlier pipeline stage, when it is one simple
	// command.
	pipeFrom *Leaf
	// pipeText is what an earlier "echo WORDS" stage of the pipeline
	// writes, when it is static.
	pipeText string
}

func (c *walkCtx) child(via string) *walkCtx {
	n := *c
	n.via = via
	return &n
}

type analyser struct {
	opts    Options
	src     string
	res     *Analysis
	visited map[syntax.Node]bool
	funcs   map[string]*syntax.FuncDecl
	parser  *syntax.Parser
	dir     *dirState
	// readOnly memoises onlyRead of the source, by variable name.
	readOnly map[string]bool
	// static holds the value of each use of a variable given a literal
	// value once before it (assigned.go); substituted the names of the
	// uses replaced, assigns how often each name is assigned.
	static      map[*syntax.ParamExp]string
	substituted map[string]bool
	assigns     map[string]int
	// physicalCd: a set -P earlier in the text makes cd physical
	physicalCd bool
	// cdSure holds the cd leaves whose target is certain if they
	// succeed, with that target (see DirAfter).
	cdSure map[*Leaf]string
}

// defaultPrograms answers for Options without Programs.
var defaultPrograms Programs = noPrograms{}

// Analyse parses src as bash and collects its leaves and redirections.
func Analyse(src string, opts Options) *Analysis {
	if opts.MaxDepth == 0 {
		opts.MaxDepth = 4
	}
	if opts.Programs == nil {
		opts.Programs = defaultPrograms
	}
	res := &Analysis{Source: src}
	a := &analyser{opts: opts, res: res, funcs: map[string]*syntax.FuncDecl{}}
	a.dir = &dirState{cur: Dirs{Paths: []string{opts.Cwd}, Unknown: opts.CwdUnknown}}
	if strings.ContainsRune(src, '\r') {
		res.Unknown = append(res.Unknown, "carriage return in the command (bash and the parser may disagree)")
	}
	for _, r := range src {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			res.Unknown = append(res.Unknown, fmt.Sprintf("control character %U in the command", r))
			break
		}
	}
	if opts.Interactive && hasHistoryExpansion(src) {
		// readline expands history on the whole line before bash parses
		// it: in assignments, here-strings, [[ ]], for and case words too.
		res.Unknown = append(res.Unknown, "history expansion (!) in an interactive shell")
	}
	f, err := a.parse(src)
	if err != nil {
		res.Err = err
		return res
	}
	res.Stmts = len(f.Stmts)
	ctx := &walkCtx{}
	if !opts.Interactive {
		// a session's shell keeps what earlier input set (readonly or
		// integer variables, a DEBUG trap, IFS): only a fresh shell runs
		// the assignments as written
		a.static = staticUses(f)
	}
	a.file(f, src, ctx)
	a.checkStatic()
	if len(f.Stmts) == 1 && len(res.Leaves) == 1 {
		if _, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && !f.Stmts[0].Background && !f.Stmts[0].Negated {
			res.SingleCall = res.Leaves[0]
		}
	}
	for name, fd := range a.funcs {
		res.Functions = append(res.Functions, name)
		if callsName(fd.Body, name) {
			res.Recursive = append(res.Recursive, name)
		}
	}
	for _, l := range res.Leaves {
		if _, ok := a.funcs[l.Name()]; ok && l.Name() != "" {
			l.Unknown = append(l.Unknown, "calls the shell function "+l.Name())
		}
	}
	res.DirAfter = a.dirAfter()
	return res
}

func (a *analyser) parse(src string) (*syntax.File, error) {
	if a.parser == nil {
		a.parser = syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	}
	f, err := a.parser.Parse(strings.NewReader(src), "")
	// bash ends a comment at the newline; the parser takes a backslash
	// before it as a line continuation and joins the next line to the
	// command before the comment (ls #\ NL rm x). Parse what bash sees:
	// the same text with those backslashes blanked (offsets unchanged).
	for range 4 {
		if err != nil {
			return f, err
		}
		b := []byte(src)
		syntax.Walk(f, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Comment); ok {
				start, text := int(c.Hash.Offset())+1, c.Text
				for i := strings.Index(text, "\\\n"); i >= 0; i = strings.Index(text, "\\\n") {
					if start+i < len(b) && b[start+i] == '\\' {
						b[start+i] = ' '
					}
					text = text[:i] + " " + text[i+1:]
				}
			}
			return true
		})
		if string(b) == src {
			return f, nil
		}
		a.unknown(nil, "a comment ends in a backslash (bash and the parser disagree on the next line)")
		src = string(b)
		f, err = a.parser.Parse(strings.NewReader(src), "")
	}
	return f, err
}

// file analyses one parsed script (top level or inner) and checks that
// every command node in it was reached.
func (a *analyser) file(f *syntax.File, src string, ctx *walkCtx) {
	saveSrc, saveVisited := a.src, a.visited
	a.src, a.visited = src, map[syntax.Node]bool{}
	a.expands(f)
	a.stmts(f.Stmts, ctx)
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CallExpr, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.DeclClause:
			if !a.visited[n] {
				a.unknown(ctx, fmt.Sprintf("a command at %s was not analysed", n.Pos()))
			}
		}
		return true
	})
	a.src, a.visited = saveSrc, saveVisited
}

func (a *analyser) unknown(ctx *walkCtx, reason string) {
	for _, r := range a.res.Unknown {
		if r == reason {
			return
		}
	}
	a.res.Unknown = append(a.res.Unknown, reason)
}

func (a *analyser) raw(n syntax.Node) string {
	if n == nil {
		return ""
	}
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(a.src) || s > e {
		return ""
	}
	return a.src[s:e]
}

func (a *analyser) stmts(list []*syntax.Stmt, ctx *walkCtx) {
	for _, s := range list {
		a.stmt(s, ctx)
	}
}

func (a *analyser) lineOf(n syntax.Node, ctx *walkCtx) int {
	if ctx.depth > 0 {
		return ctx.line
	}
	return int(n.Pos().Line())
}

func (a *analyser) stmt(s *syntax.Stmt, ctx *walkCtx) {
	if s == nil {
		return
	}
	if s.Background {
		// a background job runs in a subshell
		defer a.saveDir()()
	}
	redirs := a.redirs(s.Redirs, ctx)
	switch c := s.Cmd.(type) {
	case nil:
		// redirections only: > file
	case *syntax.CallExpr:
		a.call(c, redirs, ctx, a.lineOf(s, ctx))
		return
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			a.pipeline(c, ctx)
		} else {
			a.stmt(c.X, ctx)
			a.stmt(c.Y, ctx)
		}
	case *syntax.Subshell:
		restore := a.saveDir()
		a.stmts(c.Stmts, ctx)
		restore()
	case *syntax.Block:
		a.stmts(c.Stmts, ctx)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			a.stmts(ic.Cond, ctx)
			a.stmts(ic.Then, ctx)
		}
	case *syntax.WhileClause:
		a.loop(c, ctx)
		a.stmts(c.Cond, ctx)
		a.stmts(c.Do, ctx)
	case *syntax.ForClause:
		a.loop(c, ctx)
		a.forLoop(c, ctx)
	case *syntax.CaseClause:
		a.word(c.Word, ctx)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				a.word(p, ctx)
			}
			a.stmts(it.Stmts, ctx)
		}
	case *syntax.FuncDecl:
		a.funcDecl(c, ctx)
	case *syntax.ArithmCmd:
		a.arith(c.X, ctx)
	case *syntax.TestClause:
		l := &Leaf{Words: []Word{{Text: "[[", Raw: "[["}}, Test: true, Via: ctx.via, Wrapper: ctx.wrapper, Line: a.lineOf(s, ctx), StdinFromNetwork: ctx.netIn, Dir: a.dir.cur.clone()}
		a.test(c.X, ctx, l)
		l.Words = append(l.Words, Word{Text: "]]", Raw: "]]"})
		a.addLeaf(l, redirs)
		return
	case *syntax.DeclClause:
		a.visited[c] = true
		a.decl(c, redirs, ctx, a.lineOf(s, ctx))
		return
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			a.arith(x, ctx)
		}
	case *syntax.TimeClause:
		if call := leftmostCall(c.Stmt); call != nil && len(call.Args) > 0 && call.Args[0].Lit() == "--" {
			// bash takes time -- and time -p -- as the keyword's own end
			// of options: time -- rm x runs rm x
			call.Args = call.Args[1:]
		}
		a.stmt(c.Stmt, ctx)
	case *syntax.CoprocClause:
		a.coproc(c, ctx)
	default:
		a.unknown(ctx, "unsupported command "+nodeName(s.Cmd))
	}
	a.res.Redirs = append(a.res.Redirs, redirs...)
}

// loop notes what a while or for loop does to later commands: a cd in
// it leaves the directory unknown; background jobs in it are unbounded.
func (a *analyser) loop(c syntax.Node, ctx *walkCtx) {
	if changesDir(c) {
		a.dir.cur.Unknown = true
	}
	if backgroundIn(c) {
		a.unknown(ctx, "a loop starts background jobs (without bound)")
	}
}

// forLoop reads a for loop: its variable, its words or arithmetic, its
// body.
func (a *analyser) forLoop(c *syntax.ForClause, ctx *walkCtx) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if l.Name != nil {
			a.noteAssign(l.Name.Value)
		}
		if l.Name != nil && IsRiskyEnvName(l.Name.Value) {
			a.unknown(ctx, "for "+l.Name.Value+" changes how later commands run")
		}
		for _, w := range l.Items {
			a.word(w, ctx)
		}
	case *syntax.CStyleLoop:
		a.arith(l.Init, ctx)
		a.arith(l.Cond, ctx)
		a.arith(l.Post, ctx)
	}
	a.stmts(c.Do, ctx)
}

// funcDecl records a function (called later by name) and reads its body
// in a directory of its own.
func (a *analyser) funcDecl(c *syntax.FuncDecl, ctx *walkCtx) {
	names := c.Names
	if c.Name != nil {
		names = append([]*syntax.Lit{c.Name}, names...)
	}
	for _, n := range names {
		a.funcs[n.Value] = c
	}
	restore := a.saveDir()
	a.stmt(c.Body, ctx)
	restore()
}

// coproc reads a coprocess as bash runs it, where the parser's reading
// differs: the name, and assignments before the command.
func (a *analyser) coproc(c *syntax.CoprocClause, ctx *walkCtx) {
	if c.Name != nil && c.Stmt != nil && c.Stmt.Cmd == nil {
		// coproc NAME >file: the parser takes the command for the
		// coprocess's name and leaves a statement of redirections;
		// bash runs NAME
		c.Stmt.Cmd = &syntax.CallExpr{}
	}
	if call := leftmostCall(c.Stmt); call != nil && c.Name != nil {
		// bash takes no NAME before a simple command: "coproc curl x"
		// runs curl, and what the parser read as assignments after
		// the name are its arguments ("coproc cat X=1" reads X=1)
		words := []*syntax.Word{c.Name}
		for _, as := range call.Assigns {
			w := wordOfAssign(as)
			if w == nil {
				a.unknown(ctx, "coproc "+c.Name.Lit()+" is given an array assignment as an argument")
				break
			}
			words = append(words, w)
		}
		call.Assigns = nil
		call.Args = append(words, call.Args...)
		c.Name = nil
	} else if c.Name != nil {
		w := a.word(c.Name, ctx)
		a.noteAssign(w.Text)
		// coproc NAME { …; } sets the array NAME and NAME_PID
		if !w.Static() || IsRiskyEnvName(w.Text) || IsRiskyEnvName(w.Text+"_PID") {
			a.unknown(ctx, "coproc "+w.Raw+" changes how later commands run")
		}
	}
	if call := leftmostCall(c.Stmt); call != nil && lateAssigns(call) && len(call.Assigns) == 0 {
		// the parser reads "coproc a=1 curl" as the command a=1; bash
		// assigns a and runs curl
		for len(call.Args) > 1 {
			as := assignWord(call.Args[0])
			if as == nil {
				break
			}
			call.Assigns = append(call.Assigns, as)
			call.Args = call.Args[1:]
		}
	}
	restore := a.saveDir()
	a.stmt(c.Stmt, ctx)
	restore()
}

func (a *analyser) addLeaf(l *Leaf, redirs []*Redir) {
	for _, r := range redirs {
		r.Leaf = l
		a.res.Redirs = append(a.res.Redirs, r)
	}
	l.Redirs = redirs
	a.res.Leaves = append(a.res.Leaves, l)
	if l.Wrapper != nil {
		l.Wrapper.Inner = append(l.Wrapper.Inner, l)
	}
}

func (a *analyser) test(x syntax.TestExpr, ctx *walkCtx, l *Leaf) {
	switch e := x.(type) {
	case nil:
	case *syntax.BinaryTest:
		a.test(e.X, ctx, l)
		l.Words = append(l.Words, Word{Text: e.Op.String(), Raw: e.Op.String()})
		a.test(e.Y, ctx, l)
		switch e.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, side := range []syntax.TestExpr{e.X, e.Y} {
				if w, ok := side.(*syntax.Word); ok && isNumber(w.Lit()) {
					continue
				}
				a.unknown(ctx, "arithmetic comparison in [[ ]] evaluates its operands as code")
			}
		}
	case *syntax.UnaryTest:
		l.Words = append(l.Words, Word{Text: e.Op.String(), Raw: e.Op.String()})
		a.test(e.X, ctx, l)
		if e.Op == syntax.TsVarSet || e.Op == syntax.TsRefVar {
			if w, ok := e.X.(*syntax.Word); ok && (w.Lit() == "" || strings.Contains(w.Lit(), "[")) {
				a.unknown(ctx, "[[ -v ]] with a subscript evaluates it as code")
			}
		}
	case *syntax.ParenTest:
		a.test(e.X, ctx, l)
	case *syntax.Word:
		l.Words = append(l.Words, a.word(e, ctx))
	default:
		a.unknown(ctx, "unsupported test expression "+nodeName(x))
	}
}

func (a *analyser) redirs(list []*syntax.Redirect, ctx *walkCtx) []*Redir {
	var out []*Redir
	for _, r := range list {
		rd := &Redir{Op: r.Op.String(), Dir: a.dir.cur.clone()}
		if r.N != nil {
			rd.Fd = r.N.Value
			if strings.HasPrefix(rd.Fd, "{") {
				a.unknown(ctx, "redirection to a named file descriptor variable")
			}
		}
		if r.Word != nil {
			rd.Target = a.word(r.Word, ctx)
		}
		switch r.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob:
			rd.Write = true
		case syntax.AppOut, syntax.AppAll, syntax.AppClob, syntax.AppAllClob:
			rd.Write, rd.Append = true, true
		case syntax.RdrIn:
			rd.Read = true
		case syntax.RdrInOut:
			rd.Read, rd.Write = true, true
		case syntax.DplIn, syntax.DplOut:
			if lit, ok := r.Word.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(lit.Value, "-") && rd.Target.Raw != "-" {
				// bash reads an unquoted - after >& or <& as a token of its
				// own: 2>&-rm x closes fd 2 and runs rm x
				a.unknown(ctx, "text after "+r.Op.String()+"- is a word of its own in bash")
			}
			t := rd.Target.Text
			if rd.Target.Static() && (t == "-" || Digits(strings.TrimSuffix(t, "-"))) {
				rd.Dup = true
			} else if r.Op == syntax.DplOut {
				rd.Write = true
			} else {
				rd.Read = true
			}
		case syntax.Hdoc, syntax.DashHdoc:
			rd.Heredoc = true
			if r.Hdoc != nil {
				w := a.word(r.Hdoc, ctx)
				rd.Body = w.Text
				if w.Dynamic {
					rd.Body = a.raw(r.Hdoc)
				}
			}
		case syntax.WordHdoc:
			rd.Heredoc = true
			rd.Body = rd.Target.Text
		default:
			a.unknown(ctx, "unsupported redirection "+r.Op.String())
		}
		out = append(out, rd)
	}
	return out
}

func (a *analyser) call(c *syntax.CallExpr, redirs []*Redir, ctx *walkCtx, line int) {
	a.visited[c] = true
	if !lateAssigns(c) {
		a.unknown(ctx, "an array assignment after the command name")
	}
	var env []string
	for _, as := range c.Assigns {
		name := a.assign(as, ctx)
		if len(c.Args) == 0 {
			if IsRiskyEnvName(name) {
				a.unknown(ctx, "sets "+name+", which changes how later commands run")
			}
			continue
		}
		env = append(env, name)
	}
	if len(c.Args) == 0 {
		a.res.Redirs = append(a.res.Redirs, redirs...)
		return
	}
	words := make([]Word, len(c.Args))
	for i, w := range c.Args {
		words[i] = a.word(w, ctx)
	}
	a.leaf(words, env, redirs, ctx, line)
}

// assign analyses NAME=value and returns NAME.
func (a *analyser) assign(as *syntax.Assign, ctx *walkCtx) string {
	name := ""
	if as.Name != nil {
		name = as.Name.Value
	}
	a.noteAssign(name)
	if as.Index != nil {
		a.arith(as.Index, ctx)
	}
	if as.Value != nil {
		w := a.word(as.Value, ctx)
		a.hook(name, w, ctx)
	}
	if as.Array != nil {
		for _, el := range as.Array.Elems {
			if el.Index != nil {
				a.arith(el.Index, ctx)
			}
			if el.Value != nil {
				a.word(el.Value, ctx)
			}
		}
	}
	return name
}

func (a *analyser) decl(c *syntax.DeclClause, redirs []*Redir, ctx *walkCtx, line int) {
	variant := c.Variant.Value
	l := &Leaf{Words: []Word{{Text: variant, Raw: variant}}, Decl: true, Via: ctx.via, Wrapper: ctx.wrapper, Line: line, StdinFromNetwork: ctx.netIn, Dir: a.dir.cur.clone()}
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			w := a.word(as.Value, ctx)
			l.Words = append(l.Words, w)
			if !w.Static() {
				l.Unknown = append(l.Unknown, "dynamic argument to "+variant)
			} else if !strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "+") {
				// a quoted 'NAME[…]=v' is still an assignment to declare
				a.setsVar(l, w.Text, variant, false, ctx)
			}
			continue
		}
		name := a.assign(as, ctx)
		text := name
		if as.Value != nil || as.Array != nil {
			text += "=…"
		}
		l.Words = append(l.Words, Word{Text: text, Raw: a.raw(as)})
		if IsRiskyEnvName(name) {
			a.unknown(ctx, variant+" "+name+" changes how later commands run")
		}
	}
	for _, w := range l.Words[1:] {
		if strings.HasPrefix(w.Text, "-") && strings.ContainsAny(w.Text, "i") && !strings.HasPrefix(w.Text, "--") {
			a.unknown(ctx, variant+" -i evaluates assigned values as arithmetic")
		}
		if strings.HasPrefix(w.Text, "-") && strings.ContainsAny(w.Text, "n") && !strings.HasPrefix(w.Text, "--") {
			a.unknown(ctx, variant+" -n makes a name reference, which can evaluate subscripts as code")
		}
	}
	a.addLeaf(l, redirs)
}

// leaf adds a simple command with resolved words, looking through
// wrappers and into inner scripts.
func (a *analyser) leaf(words []Word, env []string, redirs []*Redir, ctx *walkCtx, line int) *Leaf {
	l := &Leaf{Words: words, EnvAssigns: env, Via: ctx.via, Wrapper: ctx.wrapper, Line: line, StdinFromNetwork: ctx.netIn, StdinFromPipe: ctx.pipeIn, StdinFrom: ctx.pipeFrom, Dir: a.dir.cur.clone()}
	if !words[0].Static() {
		l.Unknown = append(l.Unknown, "the command name is not static")
		// a command chosen at run time may be cd
		a.dir.cur.Unknown = true
	}
	a.addLeaf(l, redirs)
	if l.Name() == "" {
		return l
	}
	a.builtinVars(l, ctx)
	a.unwrap(l, ctx)
	if isDirChange(l.Base()) && !strings.Contains(l.Name(), "/") {
		a.chdir(l)
	}
	if l.Base() == "set" && setsPhysical(l.Args()) {
		a.physicalCd = true
	}
	if l.Base() == "set" {
		if why := readingMode(l.Args(), "set"); why != "" {
			l.Unknown = append(l.Unknown, why)
		}
	}
	if a.opts.Interactive {
		// an earlier input may have turned set -k on in this shell
		for _, w := range l.Args() {
			if name, _, ok := strings.Cut(w.Text, "="); ok && IsRiskyEnvName(name) && isName(name) {
				l.Unknown = append(l.Unknown, w.Raw+" sets "+name+" for the command where set -k is on")
			}
		}
	}
	if l.Base() == "shopt" && !strings.Contains(l.Name(), "/") {
		a.cdOptions(l)
	}
	return l
}

// setsPhysical reports set -P or set -o physical: every later cd takes
// ".." after the links.
func setsPhysical(args []Word) bool {
	for i, w := range args {
		t := w.Text
		if !w.Static() {
			return true
		}
		if len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsRune(t[1:], 'P') {
			return true
		}
		if (t == "-o" || t == "+o") && i+1 < len(args) && args[i+1].Text == "physical" && t == "-o" {
			return true
		}
	}
	return false
}

func (a *analyser) inner(l *Leaf, words []Word, via string, ctx *walkCtx, appended bool) {
	if len(words) == 0 {
		return
	}
	sub := ctx.child(via)
	sub.wrapper = l
	sub.depth = ctx.depth + 1
	sub.line = l.Line
	if sub.depth > a.opts.MaxDepth*4 {
		l.Unknown = append(l.Unknown, "wrappers nested too deeply")
		return
	}
	if via != "builtin" && via != "command" {
		// other wrappers run the command as a program of its own
		defer a.saveDir()()
	}
	if strings.HasPrefix(via, "find -execdir") || strings.HasPrefix(via, "find -okdir") {
		// runs in the directory of each file found
		a.dir.cur.Unknown = true
	}
	in := a.leaf(words, nil, nil, sub, l.Line)
	in.ArgsAppended = appended
}

// script analyses an inner script (bash -c, eval, trap, alias) run by l.
func (a *analyser) script(l *Leaf, w Word, via string, ctx *walkCtx) {
	if via != "eval" {
		// another process, or code run at another time
		restore := a.saveDir()
		start := len(a.res.Leaves)
		defer func() {
			restore()
			if via == "trap" || via == "alias" {
				for _, in := range a.res.Leaves[start:] {
					if isDirChange(in.Base()) {
						a.dir.cur.Unknown = true
					}
				}
			}
		}()
	}
	if !w.Static() {
		l.Unknown = append(l.Unknown, via+" with a dynamic script")
		if text, ok := echoed(w); ok {
			a.seen(l, text, via+" of echo output", ctx)
			return
		}
		if w.Text == "" || ctx.depth >= a.opts.MaxDepth {
			return
		}
		// Judge what can be seen of it (xargs -I{} sh -c 'rm -rf {}'):
		// the leaves found stay unknown through l.
		if f, err := a.parse(w.Text); err == nil {
			sub := ctx.child(via)
			sub.wrapper = l
			sub.depth = ctx.depth + 1
			sub.line = l.Line
			sub.netIn = l.StdinFromNetwork
			start := len(a.res.Leaves)
			a.file(f, w.Text, sub)
			for _, in := range a.res.Leaves[start:] {
				in.Unknown = append(in.Unknown, "part of "+via+" with a dynamic script")
			}
		}
		return
	}
	if ctx.depth >= a.opts.MaxDepth {
		l.Unknown = append(l.Unknown, via+" nested too deeply")
		return
	}
	if strings.ContainsRune(w.Text, '\r') || strings.ContainsRune(w.Text, 0) {
		l.Unknown = append(l.Unknown, via+" script contains a carriage return or NUL")
	}
	f, err := a.parse(w.Text)
	if err != nil {
		l.Unknown = append(l.Unknown, via+" script does not parse: "+err.Error())
		return
	}
	sub := ctx.child(via)
	sub.wrapper = l
	sub.depth = ctx.depth + 1
	sub.line = l.Line
	sub.netIn = l.StdinFromNetwork
	a.file(f, w.Text, sub)
}

// hasHistoryExpansion reports a ! that interactive bash may expand from
// history: anywhere outside single quotes (double quotes do not protect
// it) unless escaped or followed by a blank, newline, = or (. A line
// starting with ^ is a quick substitution of the previous command.
func hasHistoryExpansion(src string) bool {
	for line := range strings.SplitSeq(src, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "^") {
			return true
		}
	}
	inSingle, inDouble := false, false
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			if !inSingle {
				i++
			}
		case '\'':
			if !inDouble {
				inSingle = !inSingle
			}
		case '"':
			if !inSingle {
				inDouble = !inDouble
			}
		case '!':
			if inSingle {
				continue
			}
			if i+1 < len(src) && !strings.ContainsRune(" \t\n\r=(", rune(src[i+1])) {
				if inDouble && src[i+1] == '"' {
					continue
				}
				return true
			}
		}
	}
	return false
}

func callsName(s *syntax.Stmt, name string) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}

func nodeName(n any) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
}

// leftmostCall is the first simple command of a statement made of simple
// commands and pipelines or lists.
func leftmostCall(s *syntax.Stmt) *syntax.CallExpr {
	for s != nil {
		switch c := s.Cmd.(type) {
		case *syntax.CallExpr:
			return c
		case *syntax.BinaryCmd:
			s = c.X
		default:
			return nil
		}
	}
	return nil
}

// hook analyses the value of a variable bash runs as code later:
// PROMPT_COMMAND is a command, prompt strings expand $(…) each time they
// are shown, BASH_FUNC_f%% is an exported function. What it runs is
// reported as leaves that are never safe.
func (a *analyser) hook(name string, w Word, ctx *walkCtx) {
	text := w.Text
	switch {
	case name == "PROMPT_COMMAND":
	case name == "PS0" || name == "PS1" || name == "PS2" || name == "PS4":
		text = ": " + text
	case strings.HasPrefix(name, "BASH_FUNC_"):
		rest, ok := strings.CutPrefix(text, "()")
		if !ok {
			return
		}
		text = rest
	default:
		return
	}
	if text == "" || ctx.depth >= a.opts.MaxDepth {
		return
	}
	f, err := a.parse(text)
	if err != nil {
		a.unknown(ctx, name+" does not parse: "+err.Error())
		return
	}
	sub := ctx.child(name)
	sub.depth = ctx.depth + 1
	start := len(a.res.Leaves)
	restore := a.saveDir()
	a.file(f, text, sub)
	restore()
	for _, in := range a.res.Leaves[start:] {
		in.Unknown = append(in.Unknown, "run later through "+name)
	}
}

// echoText is the text a plain echo prints, when its words are static
// and the first is not an option.
func echoText(l *Leaf) (string, bool) {
	var parts []string
	for i, w := range l.Args() {
		if !w.Static() || i == 0 && strings.HasPrefix(w.Text, "-") {
			return "", false
		}
		parts = append(parts, w.Text)
	}
	return strings.Join(parts, " "), true
}

// printedText is what a command of static words prints, when that is
// plain to see: echo (its -n, -e and -E options skipped), printf with a
// format alone (\n read as a newline, %% as %, no other directive), or
// cat of a here-string or here-document. It feeds the judging of a
// script a shell reads from it, whose leaves stay unknown, so an
// escape left as written can only hide a danger, never allow one.
func printedText(l *Leaf) (string, bool) {
	if len(l.Inner) > 0 {
		return "", false
	}
	args := l.Args()
	switch l.Base() {
	case "echo":
		for len(args) > 0 && len(args[0].Text) > 1 && strings.Trim(args[0].Text, "-neE") == "" && args[0].Text[0] == '-' && args[0].Static() {
			args = args[1:]
		}
		return echoText(&Leaf{Words: append([]Word{{Text: "echo"}}, args...)})
	case "printf":
		if len(args) > 0 && args[0].Text == "--" {
			args = args[1:]
		}
		if len(args) != 1 || !args[0].Static() || strings.HasPrefix(args[0].Text, "-") {
			return "", false
		}
		f := strings.ReplaceAll(args[0].Text, "%%", "\x00")
		if strings.Contains(f, "%") {
			return "", false
		}
		f = strings.ReplaceAll(f, `\n`, "\n")
		return strings.ReplaceAll(f, "\x00", "%"), true
	case "cat":
		if len(args) > 0 {
			return "", false
		}
		for _, r := range l.Redirs {
			if r.Heredoc && (r.Op != "<<<" || r.Target.Static()) {
				return r.Body, true
			}
		}
	}
	return "", false
}

// seen analyses text that may run but is not known for sure (a script
// read from a pipe, a script whose arguments are substituted): the leaves
// found are judged, and all stay unknown.
func (a *analyser) seen(l *Leaf, text, via string, ctx *walkCtx) {
	if text == "" || ctx.depth >= a.opts.MaxDepth {
		return
	}
	f, err := a.parse(text)
	if err != nil {
		return
	}
	sub := ctx.child(via)
	sub.wrapper = l
	sub.depth = ctx.depth + 1
	sub.line = l.Line
	sub.pipeText = ""
	start := len(a.res.Leaves)
	defer a.saveDir()()
	a.file(f, text, sub)
	for _, in := range a.res.Leaves[start:] {
		in.Unknown = append(in.Unknown, "part of "+via+", not known for sure")
	}
}

// substituteArgs replaces $0…$9, ${N}, $@ and $* in a script run by
// bash -c SCRIPT ARGS… with the (quoted) arguments; ok is false when the
// script uses none of them.
func substituteArgs(script string, args []Word) (string, bool) {
	if !strings.Contains(script, "$") {
		return "", false
	}
	q := func(w Word) string { return "'" + strings.ReplaceAll(w.Text, "'", `'\''`) + "'" }
	all := make([]string, 0, len(args))
	for _, w := range args[min(1, len(args)):] {
		all = append(all, q(w))
	}
	repl := []string{`"$@"`, strings.Join(all, " "), `"$*"`, strings.Join(all, " "), "$@", strings.Join(all, " "), "$*", strings.Join(all, " ")}
	for n := 9; n >= 0; n-- {
		v := ""
		if n < len(args) {
			v = q(args[n])
		}
		d := string(rune('0' + n))
		repl = append(repl, `"${`+d+`}"`, v, `"$`+d+`"`, v, "${"+d+"}", v, "$"+d, v)
	}
	out := strings.NewReplacer(repl...).Replace(script)
	return out, out != script
}

// pipeline analyses a | b | c, which the parser nests to the left
// ((a | b) | c), one stage after the other, each once: every stage runs in
// a subshell, writes to the pipe but the last, and reads from the network
// when a stage before it is a network tool. Only the second stage knows
// the command writing its input: the first, when it is one simple command
// (the input of xargs, or the text echo feeds a shell).
func (a *analyser) pipeline(c *syntax.BinaryCmd, ctx *walkCtx) {
	stages := []*syntax.Stmt{c.Y}
	for x := c.X; ; {
		b, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll || len(x.Redirs) > 0 || x.Negated || x.Background || x.Coprocess {
			stages = append(stages, x)
			break
		}
		stages = append(stages, b.Y)
		x = b.X
	}
	slices.Reverse(stages)
	defer a.saveDir()()
	net := ctx.netIn
	stage := ctx
	for i, st := range stages {
		if i > 0 {
			timeProgram(st)
		}
		restore := a.saveDir()
		start := len(a.res.Leaves)
		a.stmt(st, stage)
		restore()
		added := a.res.Leaves[start:]
		if i == len(stages)-1 {
			break
		}
		for _, l := range added {
			if l.Via == ctx.via {
				l.StdoutToPipe = true
			}
			if a.opts.Programs.IsNetworkTool(l.Base()) {
				net = true
			}
		}
		next := *ctx
		next.netIn = net
		next.pipeIn = true
		next.pipeText = ""
		next.pipeFrom = nil
		if i == 0 && len(added) == 1 && added[0].Via == ctx.via {
			next.pipeFrom = added[0]
		}
		if i == 0 && len(added) == 1 {
			if t, ok := printedText(added[0]); ok {
				next.pipeText = t
			}
		}
		stage = &next
	}
}

// timeProgram rewrites "time CMD" after a pipe into the simple command it
// is to bash: the time keyword only starts a pipeline, so aaa | time bbb
// runs the program time with bbb as its argument.
func timeProgram(s *syntax.Stmt) {
	tc, ok := s.Cmd.(*syntax.TimeClause)
	if !ok {
		return
	}
	words := []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: "time"}}}}
	if tc.PosixFormat {
		words = append(words, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "-p"}}})
	}
	if tc.Stmt == nil {
		// a bare time after a pipe runs the program time
		s.Cmd = &syntax.CallExpr{Args: words}
		return
	}
	call := leftmostCall(tc.Stmt)
	if call == nil {
		return // time { …; } after a pipe is not valid bash
	}
	call.Args = append(words, call.Args...)
	s.Cmd = tc.Stmt.Cmd
	s.Redirs = append(tc.Stmt.Redirs, s.Redirs...)
}

// assignWord is the assignment a word NAME=value (or NAME+=value) makes
// in front of a simple command, or nil when it is no assignment.
// lateAssigns moves into the arguments what the parser took for
// assignments after the command name (it does so after coproc: "coproc
// 00 A=0" runs 00 with the argument A=0); false when one cannot be a word.
func lateAssigns(c *syntax.CallExpr) bool {
	if len(c.Args) == 0 || len(c.Assigns) == 0 {
		return true
	}
	first := c.Args[0].Pos().Offset()
	keep := c.Assigns[:0:0]
	args := c.Args
	for _, as := range c.Assigns {
		if as.Pos().Offset() < first {
			keep = append(keep, as)
			continue
		}
		w := wordOfAssign(as)
		if w == nil {
			return false
		}
		args = append(args, w)
	}
	if len(args) == len(c.Args) {
		return true
	}
	sort.SliceStable(args, func(i, j int) bool { return args[i].Pos().Offset() < args[j].Pos().Offset() })
	c.Assigns, c.Args = keep, args
	return true
}

// wordOfAssign is the word bash reads where the parser saw an assignment
// (NAME=value as an argument), or nil for an array or indexed one.
func wordOfAssign(as *syntax.Assign) *syntax.Word {
	if as.Name == nil || as.Naked || as.Index != nil || as.Array != nil {
		return nil
	}
	op := "="
	if as.Append {
		op = "+="
	}
	e := as.Name.ValueEnd
	head := &syntax.Lit{ValuePos: as.Name.ValuePos, ValueEnd: syntax.NewPos(e.Offset()+uint(len(op)), e.Line(), e.Col()+uint(len(op))), Value: as.Name.Value + op}
	parts := []syntax.WordPart{head}
	if as.Value != nil {
		if lit, ok := as.Value.Parts[0].(*syntax.Lit); ok {
			head.Value += lit.Value
			head.ValueEnd = lit.ValueEnd
			parts = append(parts, as.Value.Parts[1:]...)
		} else {
			parts = append(parts, as.Value.Parts...)
		}
	}
	return &syntax.Word{Parts: parts}
}

func assignWord(w *syntax.Word) *syntax.Assign {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return nil
	}
	name, rest, ok := strings.Cut(lit.Value, "=")
	appendTo := strings.HasSuffix(name, "+")
	name = strings.TrimSuffix(name, "+")
	if !ok || !isName(name) {
		return nil
	}
	skip := uint(len(lit.Value) - len(rest))
	p := lit.ValuePos
	valuePos := syntax.NewPos(p.Offset()+skip, p.Line(), p.Col()+skip)
	value := &syntax.Word{Parts: append([]syntax.WordPart{&syntax.Lit{ValuePos: valuePos, ValueEnd: lit.ValueEnd, Value: rest}}, w.Parts[1:]...)}
	return &syntax.Assign{Append: appendTo, Name: &syntax.Lit{Value: name}, Value: value}
}

// readingMode says why the options of set (or of a shell started with
// them) make bash read later words otherwise than in its default mode,
// or "": -k (keyword: a NAME=value word after the command name goes into
// its environment), -H and history (history expansion: !! and !x:s/…/
// bring back earlier text, a comment included, as code). Options known
// only at run time may be any.
func readingMode(args []Word, who string) string {
	for i, w := range args {
		t := w.Text
		if !w.Static() {
			return who + " with an option known only at run time may change how bash reads later words"
		}
		if t == "--" {
			return ""
		}
		if len(t) > 1 && t[0] == '-' && t[1] != '-' {
			if strings.ContainsRune(t[1:], 'k') {
				return who + " -k makes a NAME=value word after a command name its environment"
			}
			if strings.ContainsRune(t[1:], 'H') {
				return who + " -H turns on history expansion (!! brings back earlier text as code)"
			}
			if strings.HasSuffix(t, "o") && i+1 < len(args) {
				switch args[i+1].Text {
				case "keyword":
					return who + " -o keyword makes a NAME=value word after a command name its environment"
				case "histexpand", "history":
					return who + " -o " + args[i+1].Text + " turns on history expansion (!! brings back earlier text as code)"
				}
				if !args[i+1].Static() {
					return who + " -o with an option known only at run time may change how bash reads later words"
				}
			}
		}
	}
	return ""
}
