package shellparse

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// DirAfter is where the shell is once a text has run, when that is
// certain before it runs: the text changes no directory at all, or it is
// exactly one cd to a static target (taken as succeeding; a failed cd is
// seen once it has run). Anything else that may change the directory (a
// cd among other commands, a dynamic target, cd -, an option, a bare
// relative name that CDPATH may redirect, pushd, popd, source, eval, a
// dynamic command name, a text that cannot be fully analysed) leaves it
// unknown.
type DirAfter struct {
	// Known is set when the directory after the text is certain.
	Known bool
	// Moved is set when the text moves the shell elsewhere than
	// Options.Cwd; Dir is then where (absolute).
	Moved bool
	Dir   string
}

// cwdChangers are the commands that can change the directory of the shell
// that runs them (or run text that can).
var cwdChangers = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "source": true, ".": true,
	"eval": true, "builtin": true, "command": true, "exec": true,
}

// dirAfter is the Analysis's DirAfter: with no error, nothing unknown and
// no leaf that may change the directory, the shell stays; with exactly
// one, the whole text being one plain cd, it is where chdir found that cd
// certainly leads.
func (a *analyser) dirAfter() DirAfter {
	res := a.res
	if res.Err != nil || len(res.Unknown) > 0 {
		return DirAfter{}
	}
	var changer *Leaf
	for _, l := range res.Leaves {
		if len(l.Words) == 0 {
			continue
		}
		name := l.Name()
		if name == "" {
			return DirAfter{}
		}
		if cwdChangers[path.Base(name)] {
			if changer != nil {
				return DirAfter{}
			}
			changer = l
		}
	}
	if changer == nil {
		return DirAfter{Known: true}
	}
	l := res.SingleCall
	if l != changer || l.Name() != "cd" || len(l.EnvAssigns) > 0 || len(l.Redirs) > 0 || a.cdSure == nil {
		return DirAfter{}
	}
	dir, ok := a.cdSure[l]
	if !ok {
		return DirAfter{}
	}
	if dir == a.opts.Cwd {
		return DirAfter{Known: true}
	}
	return DirAfter{Known: true, Moved: true, Dir: dir}
}

// sureTarget is where a cd with the operands rest (options already
// taken) certainly leads if it succeeds, from the one directory the shell
// is certainly in: an absolute target, or one starting with . or .. from
// an absolute directory, or home for no operand. A bare relative name
// may be redirected by CDPATH.
func (a *analyser) sureTarget(rest []Word) (string, bool) {
	cur := a.dir.cur
	if cur.Unknown || len(cur.Paths) != 1 || len(rest) > 1 {
		return "", false
	}
	target := a.opts.Home
	if len(rest) == 1 {
		if !rest[0].Static() {
			return "", false
		}
		target = rest[0].Text
	}
	base := cur.Paths[0]
	switch {
	case target == "" || strings.HasPrefix(target, "-"):
		return "", false
	case strings.HasPrefix(target, "/"):
		return path.Clean(target), true
	case target == "." || target == ".." || strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../"):
		if !strings.HasPrefix(base, "/") {
			return "", false
		}
		return path.Join(base, target), true
	}
	return "", false
}

// Dirs is where a leaf (or a redirection) may run: the directories the
// shell may be in at that point, following cd, pushd and popd.
//
// The model is conservative: a cd may fail, so after `cd X` the shell is in
// X or where it was before (both are kept); a subshell, pipeline stage,
// substitution, background job or inner script (bash -c, sudo, xargs…)
// starts from its parent's directories and its cd does not leak out; a cd
// whose target is known only at run time (cd "$d", cd -, popd past what
// the text pushed, cd inside a loop, cd through a trap) makes the
// directory unknown, and unknown is never safe.
type Dirs struct {
	// Paths are the possible directories, each absolute when
	// Options.Cwd is (the call's own directory is Options.Cwd itself).
	Paths []string
	// Unknown is set when the directory cannot be known statically.
	Unknown bool
}

// Moved reports whether the leaf may run somewhere other than the call's
// directory cwd.
func (d Dirs) Moved(cwd string) bool {
	if d.Unknown {
		return true
	}
	for _, p := range d.Paths {
		if p != cwd {
			return true
		}
	}
	return false
}

func (d Dirs) clone() Dirs {
	return Dirs{Paths: append([]string(nil), d.Paths...), Unknown: d.Unknown}
}

// maxDirs bounds the directories a command is followed into: every cd
// keeps the directory before it (the cd may fail), so a chain of cds
// multiplies where each later command may run, and each is judged in
// every one. Beyond the bound the directory is unknown.
const maxDirs = 16

func (d *Dirs) add(p string) {
	for _, q := range d.Paths {
		if q == p {
			return
		}
	}
	if len(d.Paths) >= maxDirs {
		d.Unknown = true
		return
	}
	d.Paths = append(d.Paths, p)
}

// dirState is the shell's directory during the walk, with the pushd stack
// the text itself built.
type dirState struct {
	cur   Dirs
	stack []Dirs
	// cdUnsure is set once cd's operand may name a variable
	// (shopt -s cdable_vars).
	cdUnsure bool
	// resolved is set after a cd -P: the shell's directory is the
	// resolved path, so a later .. is the parent of where links led.
	resolved bool
}

func (s *dirState) clone() *dirState {
	n := &dirState{cur: s.cur.clone(), cdUnsure: s.cdUnsure, resolved: s.resolved}
	for _, d := range s.stack {
		n.stack = append(n.stack, d.clone())
	}
	return n
}

// saveDir returns a function restoring the directory state: for code that
// runs in another process (subshells, substitutions, inner scripts).
func (a *analyser) saveDir() func() {
	saved := a.dir.clone()
	return func() { a.dir = saved }
}

// isDirChange reports the builtins that change the shell's directory.
func isDirChange(name string) bool {
	return name == "cd" || name == "pushd" || name == "popd"
}

// chdir applies the effect of a cd, pushd or popd leaf to the shell's
// directory.
func (a *analyser) chdir(l *Leaf) {
	if a.dir.cdUnsure || slices.Contains(l.EnvAssigns, "CDPATH") {
		// cdable_vars and CDPATH pick other directories
		a.dir.cur.Unknown = true
		return
	}
	rest, physical, options, ok := cdOptions(l, a.physicalCd)
	if !ok {
		a.dir.cur.Unknown = true // pushd -n, popd -n, ±N: the stack, not a directory
		return
	}
	if l.Base() == "cd" && !options && !physical {
		if dir, ok := a.sureTarget(rest); ok {
			if a.cdSure == nil {
				a.cdSure = map[*Leaf]string{}
			}
			a.cdSure[l] = dir
		}
	}
	if a.stack(l.Base(), rest) {
		return
	}
	target, ok := a.cdTarget(rest)
	if !ok {
		a.dir.cur.Unknown = true
		return
	}
	a.moveTo(target, physical)
}

// cdOptions reads the options of cd (-L -P -e -@): the operands after
// them, whether it follows links first (physical, starting from the
// shell's default), whether there were any; false: pushd's or popd's
// options, which work on the stack.
func cdOptions(l *Leaf, physical bool) (rest []Word, phys, options, ok bool) {
	args := l.Args()
	i := 0
	for i < len(args) && args[i].Static() && len(args[i].Text) > 1 && args[i].Text[0] == '-' {
		if args[i].Text == "--" {
			i++
			break
		}
		options = true
		if l.Base() != "cd" {
			return nil, false, false, false
		}
		for _, c := range args[i].Text[1:] {
			switch c {
			case 'P':
				physical = true
			case 'L':
				physical = false
			}
		}
		i++
	}
	return args[i:], physical, options, true
}

// stack applies pushd's and popd's work on the directory stack; true:
// nothing more is to be done (popd, or a directory left unknown).
func (a *analyser) stack(base string, rest []Word) bool {
	switch base {
	case "popd":
		if len(rest) > 0 || len(a.dir.stack) == 0 {
			a.dir.cur.Unknown = true // pops what an earlier call pushed
			return true
		}
		top := a.dir.stack[len(a.dir.stack)-1]
		a.dir.stack = a.dir.stack[:len(a.dir.stack)-1]
		// popd may fail; keep both
		for _, p := range top.Paths {
			a.dir.cur.add(p)
		}
		a.dir.cur.Unknown = a.dir.cur.Unknown || top.Unknown
		return true
	case "pushd":
		if len(rest) == 0 {
			a.dir.cur.Unknown = true // swaps with an entry of the stack
			return true
		}
		a.dir.stack = append(a.dir.stack, a.dir.cur.clone())
	}
	return false
}

// cdTarget is the directory cd is given (home without one); false: it
// cannot be told.
func (a *analyser) cdTarget(rest []Word) (string, bool) {
	var target string
	switch {
	case len(rest) == 0:
		target = a.opts.Home
	case len(rest) > 1 || !rest[0].Static() || rest[0].Text == "-":
		return "", false
	default:
		target = rest[0].Text
	}
	if target == "" {
		return "", false
	}
	if a.opts.Interactive && !strings.HasPrefix(target, "/") && !strings.HasPrefix(target, ".") {
		// an interactive shell's CDPATH (from its startup files) may
		// pick another directory
		return "", false
	}
	return target, true
}

// moveTo makes target, from each directory the shell may be in, the
// directory it may be in.
func (a *analyser) moveTo(target string, physical bool) {
	next := a.dir.cur.clone()
	for _, base := range a.dir.cur.Paths {
		if physical {
			// cd -P follows links before "..": the path is kept as
			// written for the policy to resolve as the kernel does
			next.add(joinPhysical(base, target))
			continue
		}
		next.add(joinDir(base, target))
		if strings.Contains(target, "..") && (strings.Trim(target, "./") != "" || a.dir.resolved) {
			// when the lexical path does not exist, bash's cd tries the
			// path as written, with ".." after the links (a path of
			// ".." alone names an ancestor, which exists)
			next.add(joinPhysical(base, target))
		}
	}
	a.dir.cur = next
	a.dir.resolved = a.dir.resolved || physical
}

// joinPhysical joins target to base without removing "..": after cd -P,
// x/.. is the parent of where the link x leads.
func joinPhysical(base, target string) string {
	switch {
	case !strings.Contains(target, ".."):
		return joinDir(base, target)
	case strings.HasPrefix(target, "/") || base == "":
		return target
	}
	return strings.TrimSuffix(base, "/") + "/" + target
}

// cdOptions notes shopt -s cdable_vars, after which cd's operand may name
// a variable holding the directory.
func (a *analyser) cdOptions(l *Leaf) {
	for _, w := range l.Args() {
		if !w.Static() || w.Text == "cdable_vars" {
			a.dir.cdUnsure = true
		}
	}
}

// joinDir resolves target against base as cd does (logically: .. removes
// the previous component).
func joinDir(base, target string) string {
	if strings.HasPrefix(target, "/") || base == "" {
		return path.Clean(target)
	}
	return path.Clean(base + "/" + target)
}

// changesDir reports whether a loop may change the directory: any word
// naming cd, pushd or popd, also inside strings for eval.
func changesDir(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *syntax.Lit:
			if strings.Contains(x.Value, "cd") || strings.Contains(x.Value, "pushd") || strings.Contains(x.Value, "popd") {
				found = true
			}
		case *syntax.SglQuoted:
			if strings.Contains(x.Value, "cd") || strings.Contains(x.Value, "pushd") || strings.Contains(x.Value, "popd") {
				found = true
			}
		}
		return !found
	})
	return found
}

// backgroundIn reports a statement run in the background inside n.
func backgroundIn(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Stmt); ok && (s.Background || s.Coprocess) {
			found = true
		}
		return !found
	})
	return found
}
