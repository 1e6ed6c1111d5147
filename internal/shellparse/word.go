package shellparse

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one argument of a simple command, resolved statically as far as
// possible.
type Word struct {
	// Text is the word after quote removal and tilde expansion. For a
	// dynamic word it is the best static approximation (substitutions
	// removed) and must not be trusted.
	Text string
	// Raw is the word as written in the source.
	Raw string
	// Dynamic is set when the word's value is only known at run time:
	// parameter expansion, command or process substitution, arithmetic,
	// brace expansion, ~user.
	Dynamic bool
	// Glob is set when the word contains unquoted pattern characters
	// (* ? [ or an extended glob) and so may expand to other words.
	Glob bool
	// Subs are the leaves of command and process substitutions inside the
	// word.
	Subs []*Leaf
	// Pipe is set when the word is exactly one process substitution, <(…)
	// or >(…): its value is a pipe (/dev/fd/N) to or from the commands in
	// Subs, not a file.
	Pipe bool
	// Quoted is set (by package winshell) for a PowerShell or cmd.exe
	// word that was quoted: PowerShell never reads one as a parameter.
	Quoted bool
	// Computed is set (by package winshell) for a PowerShell value
	// computed at run time from literals and commands judged on their own
	// ((Get-Date).AddDays(-1)): dynamic, but never code or a parameter.
	Computed bool
}

// Static reports whether the word's Text is exactly what bash will pass.
func (w Word) Static() bool { return !w.Dynamic && !w.Glob }

func (a *analyser) word(w *syntax.Word, ctx *walkCtx) Word {
	out := Word{Raw: a.raw(w)}
	var sb strings.Builder
	var unq strings.Builder // unquoted text, quoted parts as 'x', for brace detection
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			unq.WriteString(p.Value)
			sb.WriteString(a.lit(p, i, len(w.Parts), &out))
		case *syntax.SglQuoted:
			unq.WriteString("x")
			sb.WriteString(sglText(p, &out))
		case *syntax.DblQuoted:
			unq.WriteString("x")
			for _, dp := range p.Parts {
				if v, ok := a.knownParam(dp); ok {
					sb.WriteString(v)
					continue
				}
				switch q := dp.(type) {
				case *syntax.Lit:
					sb.WriteString(unescapeDbl(q.Value))
				default:
					out.Dynamic = true
					a.wordPart(dp, ctx, &out)
				}
			}
		case *syntax.ExtGlob:
			unq.WriteString("x")
			out.Glob = true
			sb.WriteString(p.Op.String() + p.Pattern.Value + ")")
		default:
			unq.WriteString("x")
			if v, ok := a.knownParam(part); ok && v != "" && !strings.ContainsAny(v, " \t\n*?[\\(") {
				// unquoted, the value is split and globbed: only a
				// value that stays one word as it is
				sb.WriteString(v)
				continue
			}
			out.Dynamic = true
			a.wordPart(part, ctx, &out)
		}
	}
	if hasBraceExpansion(unq.String()) {
		out.Dynamic = true
	}
	out.Text = sb.String()
	if len(w.Parts) == 1 {
		_, out.Pipe = w.Parts[0].(*syntax.ProcSubst)
	}
	return out
}

// lit is the text of the unquoted literal part i of a word of n parts,
// its tildes expanded as bash does.
func (a *analyser) lit(p *syntax.Lit, i, n int, out *Word) string {
	v := p.Value
	if i == 0 && strings.HasPrefix(v, "~") {
		name, rest, slash := strings.Cut(v[1:], "/")
		switch {
		case strings.ContainsAny(name, ":="):
			// bash may end the user name at ":" (~:x is $HOME:x)
			// or, in a word holding "=~", at "=" (~=~ is $HOME=~)
			out.Dynamic = true
		case !slash && i < n-1:
			// the tilde-prefix runs into quoted or expanded text
			// (~$X, ~""): bash leaves the ~ as it is
		case name == "" && a.opts.Home != "":
			if slash {
				v = a.opts.Home + "/" + rest
			} else {
				v = a.opts.Home
			}
		default:
			out.Dynamic = true
		}
	}
	if i == 0 && !strings.HasPrefix(v, "~") {
		var dyn bool
		v, dyn = tildeAfterAssign(v, a.opts.Home, i == n-1)
		if dyn {
			out.Dynamic = true
		}
	}
	if hasGlobChars(p.Value) {
		out.Glob = true
	}
	return unescapeLit(v)
}

// sglText is the text of a single-quoted part ('…' or $'…').
func sglText(p *syntax.SglQuoted, out *Word) string {
	if !p.Dollar {
		return p.Value
	}
	s, ok := decodeANSIC(p.Value)
	if !ok {
		out.Dynamic = true
	}
	// bash ends the decoded string at a NUL: $'a\x00b'c is "ac"
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s
}

// knownParam returns the value of a variable given a literal value once
// before the use (assigned.go), or of a plain $HOME or $PWD (or ${HOME},
// ${PWD}) that the command cannot have changed: HOME is the home
// directory the decision is made for, PWD the one directory the shell is
// known to be in at this point. Neither may be named anywhere in the
// command except to be read (no HOME=…, for HOME, read PWD, ${HOME:=…}).
func (a *analyser) knownParam(part syntax.WordPart) (string, bool) {
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.Exp != nil || p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		return "", false
	}
	if v, ok := a.static[p]; ok {
		if a.substituted == nil {
			a.substituted = map[string]bool{}
		}
		a.substituted[p.Param.Value] = true
		return v, true
	}
	switch name := p.Param.Value; {
	case name == "HOME" && a.opts.Home != "" && a.onlyRead(name):
		return a.opts.Home, true
	case name == "PWD" && !a.dir.cur.Unknown && len(a.dir.cur.Paths) == 1 && strings.HasPrefix(a.dir.cur.Paths[0], "/") &&
		a.onlyRead(name):
		return a.dir.cur.Paths[0], true
	}
	return "", false
}

// onlyRead is onlyRead of the whole command, asked once per name.
func (a *analyser) onlyRead(name string) bool {
	v, ok := a.readOnly[name]
	if !ok {
		if a.readOnly == nil {
			a.readOnly = map[string]bool{}
		}
		v = onlyRead(a.res.Source, name)
		a.readOnly[name] = v
	}
	return v
}

// onlyRead reports whether every mention of the variable name in src is
// a plain expansion of it ($NAME not followed by a name character, or
// ${NAME}).
func onlyRead(src, name string) bool {
	for i := strings.Index(src, name); i >= 0; {
		end := i + len(name)
		switch {
		case i >= 2 && src[i-2:i] == "${" && strings.HasPrefix(src[end:], "}"):
		case i >= 1 && src[i-1] == '$' && (end == len(src) || !isNameChar(src[end])):
		default:
			return false
		}
		j := strings.Index(src[end:], name)
		if j < 0 {
			break
		}
		i = end + j
	}
	return true
}

func isNameChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// wordPart analyses a dynamic word part: substitutions are walked for
// leaves, expansions that can run code are marked unknown.
func (a *analyser) wordPart(part syntax.WordPart, ctx *walkCtx, out *Word) {
	switch p := part.(type) {
	case *syntax.CmdSubst:
		a.visited[p] = true
		sub := ctx.child("$(…)")
		start := len(a.res.Leaves)
		restore := a.saveDir()
		a.stmts(p.Stmts, sub)
		restore()
		out.Subs = append(out.Subs, a.res.Leaves[start:]...)
	case *syntax.ProcSubst:
		a.visited[p] = true
		sub := ctx.child("<(…)")
		start := len(a.res.Leaves)
		restore := a.saveDir()
		a.stmts(p.Stmts, sub)
		restore()
		out.Subs = append(out.Subs, a.res.Leaves[start:]...)
	case *syntax.ArithmExp:
		a.arith(p.X, ctx)
	case *syntax.ParamExp:
		a.param(p, ctx, out)
	case *syntax.ExtGlob:
		out.Glob = true
	default:
		a.unknown(ctx, "unsupported word part "+nodeName(part))
	}
}

func (a *analyser) param(p *syntax.ParamExp, ctx *walkCtx, out *Word) {
	if p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) && p.Param != nil {
		a.noteAssign(p.Param.Value)
	}
	if p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		a.unknown(ctx, "unsupported parameter expansion")
	}
	if p.Excl && p.Names == 0 && !isAllIndex(p.Index) {
		a.unknown(ctx, "indirect expansion ${!…} can run code through array subscripts")
	}
	if p.Index != nil && !isAllIndex(p.Index) {
		a.arith(p.Index, ctx)
	}
	if p.Slice != nil {
		if p.Slice.Offset != nil {
			a.arith(p.Slice.Offset, ctx)
		}
		if p.Slice.Length != nil {
			a.arith(p.Slice.Length, ctx)
		}
	}
	if p.Repl != nil {
		if p.Repl.Orig != nil {
			a.word(p.Repl.Orig, ctx)
		}
		if p.Repl.With != nil {
			a.word(p.Repl.With, ctx)
		}
	}
	if p.Exp != nil {
		if p.Exp.Op == syntax.OtherParamOps {
			op := ""
			if p.Exp.Word != nil {
				op = p.Exp.Word.Lit()
			}
			switch op {
			case "Q", "E", "A", "a", "U", "u", "L", "K", "k":
			default:
				a.unknown(ctx, "${…@"+op+"} prompt or unknown expansion can run code")
			}
		} else if p.Exp.Word != nil {
			w := a.word(p.Exp.Word, ctx)
			out.Subs = append(out.Subs, w.Subs...)
			if p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull {
				a.expansionAssigns(p, w, ctx)
			}
		}
	}
}

// expansionAssigns judges ${NAME=value} and ${NAME:=value}, which assign
// NAME when it is unset (or empty) as NAME=value does: a variable in
// the environment (nb's own LESSOPEN= and CDPATH= are empty) then
// reaches every later command with the new value.
func (a *analyser) expansionAssigns(p *syntax.ParamExp, w Word, ctx *walkCtx) {
	if p.Param == nil {
		return
	}
	name := p.Param.Value
	if IsRiskyEnvName(name) {
		a.unknown(ctx, "${"+name+":=…} sets "+name+", which changes how later commands run")
	}
	a.hook(name, w, ctx)
}

func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	l := w.Lit()
	return l == "@" || l == "*"
}

// arith checks an arithmetic expression. bash evaluates the value of every
// variable named in arithmetic as an expression itself, and array
// subscripts in those values can run command substitutions, so any
// operand other than a number literal makes the command unknown.
func (a *analyser) arith(x syntax.ArithmExpr, ctx *walkCtx) {
	switch e := x.(type) {
	case nil:
	case *syntax.BinaryArithm:
		a.arith(e.X, ctx)
		a.arith(e.Y, ctx)
	case *syntax.UnaryArithm:
		a.arith(e.X, ctx)
	case *syntax.ParenArithm:
		a.arith(e.X, ctx)
	case *syntax.Word:
		lit := e.Lit()
		if lit != "" && isNumber(lit) {
			return
		}
		var w Word
		a.wordPartsOnly(e, ctx, &w)
		if !a.numericSubst(e) {
			a.unknown(ctx, "arithmetic on a variable or expansion (its value is evaluated as code)")
		}
	default:
		a.unknown(ctx, "unsupported arithmetic "+nodeName(x))
	}
}

// wordPartsOnly walks the dynamic parts of w for substitutions.
func (a *analyser) wordPartsOnly(w *syntax.Word, ctx *walkCtx, out *Word) {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				if _, ok := dp.(*syntax.Lit); !ok {
					a.wordPart(dp, ctx, out)
				}
			}
		default:
			a.wordPart(part, ctx, out)
		}
	}
}

// Digits reports whether s is decimal digits only: a file descriptor after
// >& or <& as bash reads it (>&0x1 writes a file named 0x1), a count or a
// line number as most programs read one.
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		_, err := strconv.ParseUint(s[2:], 16, 64)
		return err == nil
	}
	if i := strings.IndexByte(s, '#'); i > 0 {
		base, err := strconv.Atoi(s[:i])
		if err != nil || base < 2 || base > 64 {
			return false
		}
		for _, r := range s[i+1:] {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '@' || r == '_') {
				return false
			}
		}
		return len(s) > i+1
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func hasGlobChars(lit string) bool {
	esc := false
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if esc {
			esc = false
			continue
		}
		switch c {
		case '\\':
			esc = true
		case '*', '?':
			return true
		case '[':
			if strings.Contains(lit[i+1:], "]") {
				return true
			}
		}
	}
	return false
}

// hasBraceExpansion reports unquoted text that bash may brace-expand: a
// "{" with a "," or ".." after it and a "}" after those. It reads more
// than bash expands, never less: which "}" closes a brace bash decides by
// rules of its own ({}{},} expands to {}} and {}: a "}" right after "{"
// is a character of the list), and a word it may expand is not static.
func hasBraceExpansion(s string) bool {
	open, sep := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
		case c == '{':
			open = true
		case open && (c == ',' || c == '.' && i+1 < len(s) && s[i+1] == '.'):
			sep = true
		case sep && c == '}':
			return true
		}
	}
	return false
}

// unescapeLit removes backslash quoting from an unquoted literal.
func unescapeLit(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDbl removes the backslashes bash removes inside double quotes.
func unescapeDbl(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// decodeANSIC decodes the body of a $'…' string. ok is false for escapes
// it does not know.
func decodeANSIC(s string) (string, bool) {
	var b strings.Builder
	ok := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		if e, known := ansiEscapes[s[i]]; known {
			b.WriteByte(e)
			continue
		}
		switch s[i] {
		case 'x', 'u', 'U':
			var good bool
			i, good = decodeHex(s, i, &b)
			ok = ok && good
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			ok = false
			i++
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String(), ok
}

// ansiEscapes are the one-letter escapes of $'…' and the bytes they stand
// for.
var ansiEscapes = map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': '\n', 'r': '\r', 't': '\t', 'v': 11,
	'\\': '\\', '\'': '\'', '"': '"', '?': '?'}

// decodeHex decodes the escape \xHH, \x{H…}, \uHHHH or \UHHHHHHHH whose
// letter is s[i]; it returns the index of its last byte, and false where
// bash's reading depends on more than the text (the locale) or is not
// known.
func decodeHex(s string, i int, b *strings.Builder) (int, bool) {
	if s[i] == 'x' && i+1 < len(s) && s[i+1] == '{' {
		// \x{HH…}: bash keeps the low byte of the value
		j := i + 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		if j == i+2 || j >= len(s) || s[j] != '}' {
			b.WriteString(s[i-1 : min(j+1, len(s))])
			return min(j, len(s)-1), false
		}
		n, _ := strconv.ParseUint(s[max(i+2, j-2):j], 16, 8)
		b.WriteByte(byte(n))
		return j, true
	}
	most := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
	j := i + 1
	for j < len(s) && j-i-1 < most && isHex(s[j]) {
		j++
	}
	if j == i+1 {
		b.WriteByte('\\')
		b.WriteByte(s[i])
		return i, true
	}
	n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
	switch {
	case s[i] == 'x':
		b.WriteByte(byte(n))
	case utf8.ValidRune(rune(n)):
		b.WriteRune(rune(n))
		if n >= 0x80 {
			// bash encodes it in the locale's character set, and
			// leaves \uXXXX as written where it has none (LC_ALL=C)
			return j - 1, false
		}
	default:
		return j - 1, false
	}
	return j - 1, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// tildeAfterAssign expands ~ after the = of an argument shaped like an
// assignment (dd of=~/x) and after each : that follows, as bash does for
// every such word outside POSIX mode. whole says v is the whole word (a
// final ~ is not followed by quoted text). dynamic is set for ~user forms
// and when the home directory is not known.
func tildeAfterAssign(v, home string, whole bool) (string, bool) {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || !isName(v[:eq]) || !strings.Contains(v[eq:], "~") {
		return v, false
	}
	var b strings.Builder
	b.WriteString(v[:eq+1])
	segs := strings.Split(v[eq+1:], ":")
	dynamic := false
	for i, seg := range segs {
		if i > 0 {
			b.WriteByte(':')
		}
		if strings.HasPrefix(seg, "~") {
			name, _, _ := strings.Cut(seg[1:], "/")
			switch {
			case name != "":
				dynamic = true
			case seg == "~" && i == len(segs)-1 && !whole:
			case home == "":
				dynamic = true
			default:
				seg = home + seg[1:]
			}
		}
		b.WriteString(seg)
	}
	return b.String(), dynamic
}

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// numericSubst reports a word that is exactly one command substitution,
// $(…) or "$(…)", of a command or pipeline whose last command prints one
// number ($(wc -l < a.txt), $(ls | wc -l)): its value in arithmetic is
// that number, never code.
func (a *analyser) numericSubst(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part = dq.Parts[0]
	}
	cs, ok := part.(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	s := cs.Stmts[0]
	for {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe {
			break
		}
		s = b.Y
	}
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || s.Background || s.Negated {
		return false
	}
	for _, r := range s.Redirs {
		if r.Op != syntax.RdrIn {
			return false
		}
	}
	words := make([]string, 0, len(call.Args))
	for _, arg := range call.Args {
		lit := arg.Lit()
		if lit == "" {
			return false
		}
		words = append(words, lit)
	}
	return a.opts.Programs != nil && a.opts.Programs.PrintsNumber(words)
}
