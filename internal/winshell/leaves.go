package winshell

import (
	"path"
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
)

// Analyse parses src as cmd.exe (dialect Cmd) or PowerShell reads it
// into the leaf model of package shellparse, the one the policy judges
// for every shell: each command a leaf with its words, redirections,
// the directory it runs in (after the cd, Set-Location, pushd or drive
// change before it) and how it is reached (the commands cmd /c,
// powershell -Command, if, for, call and start run are leaves with the
// running command as their Wrapper); a pipeline's stages say what feeds
// them; what is outside the plain subset is in Unknown; DirAfter says
// whether the shell stays where it is. A leaf's Dir paths are Windows
// paths as written (C:\Users\me\proj).
func Analyse(src string, dialect shellparse.Dialect, opts Options) *shellparse.Analysis {
	var s *Script
	if dialect == shellparse.PowerShell {
		s = ParsePowerShell(src, opts)
	} else {
		dialect, s = shellparse.Cmd, ParseCmd(src, opts)
	}
	a := &shellparse.Analysis{Source: src, Dialect: dialect, Unknown: s.Unknown, Stmts: s.Lines}
	slab := make([]shellparse.Leaf, len(s.Commands))
	of := make(map[*Command]*shellparse.Leaf, len(s.Commands))
	here := place{dir: opts.Cwd, unknown: opts.Cwd == "" || opts.CwdUnknown, home: opts.Home}
	var prev *shellparse.Leaf
	top := 0
	for i, c := range s.Commands {
		l := &slab[i]
		of[c] = l
		fill(l, c)
		l.Dir = here.dirs()
		if c.PipeIn && prev != nil && prev.StdoutToPipe {
			l.StdinFrom = prev
		}
		a.Leaves = append(a.Leaves, l)
		a.Redirs = append(a.Redirs, l.Redirs...)
		here = here.after(c)
		prev = l
		if c.Via == "" {
			top++
		}
	}
	for _, c := range s.Commands {
		for _, in := range c.Inner {
			if il := of[in]; il != nil {
				of[c].Inner = append(of[c].Inner, il)
				il.Wrapper = of[c]
			}
		}
	}
	if top == 1 && len(a.Leaves) == 1 && len(s.Unknown) == 0 && s.Lines <= 1 {
		a.SingleCall = a.Leaves[0]
	}
	a.DirAfter = dirAfter(s)
	return a
}

// fill makes l the leaf of the command c (a command of either shell:
// cmd /c in PowerShell runs cmd.exe's).
func fill(l *shellparse.Leaf, c *Command) {
	if c.PowerShell {
		l.Dialect = shellparse.PowerShell
	} else {
		l.Dialect = shellparse.Cmd
	}
	l.Via, l.Line = c.Via, c.Line
	l.StdinFromPipe, l.StdoutToPipe = c.PipeIn, c.PipeOut
	if len(c.Words) > 0 {
		l.Words = make([]shellparse.Word, len(c.Words))
	}
	for i, w := range c.Words {
		l.Words[i] = shellparse.Word{Text: w.Text, Raw: w.Raw, Dynamic: w.Dynamic, Glob: w.Glob, Quoted: w.Quoted, Computed: w.Computed}
	}
	for _, r := range c.Redirs {
		t := r.Target
		l.Redirs = append(l.Redirs, &shellparse.Redir{Op: r.Op, Leaf: l, Write: r.Write, Read: r.Read,
			Append: r.Write && strings.HasSuffix(r.Op, ">>"), Dup: !r.Write && !r.Read,
			Target: shellparse.Word{Text: t.Text, Raw: t.Raw, Dynamic: t.Dynamic, Glob: t.Glob, Quoted: t.Quoted}})
	}
}

// dirChangers are the names (as BaseName gives them, module prefix
// removed) of the commands that move the shell: cmd.exe's and
// PowerShell's, aliases included.
var dirChangers = map[string]bool{
	"cd": true, "chdir": true, "pushd": true, "popd": true,
	"set-location": true, "sl": true, "push-location": true, "pop-location": true,
}

// movesShell says c may move the shell to another directory: a command
// that changes directory, a drive letter alone (D:), or a name known
// only at run time.
func movesShell(c *Command) bool {
	if len(c.Words) == 0 {
		return false
	}
	if c.Words[0].Dynamic || driveAlone(c) {
		return true
	}
	return dirChangers[cmdletName(c.Words[0].Text)]
}

// cmdletName is a command's name as the base knows it: BaseName, without
// a module's prefix (Microsoft.PowerShell.Management\Set-Location).
func cmdletName(name string) string {
	if i := strings.LastIndexByte(name, '\\'); i > 0 && !strings.ContainsAny(name[:i], `\/:`) {
		name = name[i+1:]
	}
	return BaseName(name)
}

func driveAlone(c *Command) bool {
	n := c.Name()
	return len(c.Words) == 1 && len(n) == 2 && n[1] == ':' && isDriveLetter(n[0])
}

func isDriveLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// dirAfter is where the shell is once the script has run: it stays when
// nothing may move it; a command that may (or what is outside the
// subset) leaves it to be seen once the script has run.
func dirAfter(s *Script) shellparse.DirAfter {
	if len(s.Unknown) > 0 {
		return shellparse.DirAfter{}
	}
	for _, c := range s.Commands {
		if movesShell(c) {
			return shellparse.DirAfter{}
		}
	}
	return shellparse.DirAfter{Known: true}
}

// place is the directory the commands of a script run in, as the ones
// before them leave it (cd C:\Windows & del win.ini deletes
// C:\Windows\win.ini).
type place struct {
	dir     string
	unknown bool
	home    string
}

func (p place) dirs() shellparse.Dirs {
	if p.unknown {
		return shellparse.Dirs{Paths: []string{p.dir}, Unknown: true}
	}
	return shellparse.Dirs{Paths: []string{p.dir}}
}

// after is where the command c leaves the shell: in the literal target of
// a cd, Set-Location or pushd; anywhere for a drive letter, popd, a
// dynamic target or several operands.
func (p place) after(c *Command) place {
	if len(c.Words) == 0 {
		return p
	}
	if driveAlone(c) || c.Words[0].Dynamic {
		p.unknown = true
		return p
	}
	name := cmdletName(c.Words[0].Text)
	if !dirChangers[name] {
		return p
	}
	ops := dirOperands(c)
	if len(ops) == 0 && !c.PowerShell && !strings.Contains(name, "pop") {
		return p // cmd.exe's cd alone prints the directory
	}
	if len(ops) != 1 || c.Dynamic() || p.unknown || p.dir == "" || strings.Contains(name, "pop") {
		p.unknown = true
		return p
	}
	if t, ok := joinWindows(p.dir, ops[0], p.home); ok {
		p.dir = t
	} else {
		p.unknown = true
	}
	return p
}

// dirOperands are the words of a cd, Set-Location or pushd that name
// where it goes: not cmd.exe's switches (/d), not PowerShell's
// parameters (-Path's value is one).
func dirOperands(c *Command) []string {
	var ops []string
	for _, w := range c.Args() {
		t := w.Text
		switch {
		case !c.PowerShell && strings.HasPrefix(t, "/") && len(t) == 2:
		case c.PowerShell && !w.Quoted && len(t) > 1 && IsDash([]rune(t)[0]):
		default:
			ops = append(ops, t)
		}
	}
	return ops
}

// joinWindows is the directory a cd to p from dir leads to, as a Windows
// path with a drive letter (C:\x\y), or false when it cannot be told (a
// share, a device, a drive-relative path, another PowerShell drive such
// as HKLM:\, whose relative paths name registry keys).
func joinWindows(dir, p, home string) (string, bool) {
	p = strings.Trim(p, `"`)
	if i := strings.IndexByte(p, ':'); i > 1 {
		return "", false // a PowerShell drive or provider: HKLM:\x, Env:, Temp:, FileSystem::\\host
	}
	if p == "~" || strings.HasPrefix(p, `~\`) || strings.HasPrefix(p, "~/") {
		if home == "" {
			return "", false
		}
		p = home + p[1:]
	}
	slashed := strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(slashed, "//"):
		return "", false
	case len(slashed) >= 2 && slashed[1] == ':' && isDriveLetter(slashed[0]):
		if len(slashed) > 2 && slashed[2] != '/' {
			return "", false // C:x: relative to that drive's own directory
		}
	case strings.HasPrefix(slashed, "/"):
		if len(dir) < 2 || dir[1] != ':' {
			return "", false
		}
		slashed = dir[:2] + slashed
	default:
		slashed = strings.ReplaceAll(dir, `\`, "/") + "/" + slashed
	}
	if len(slashed) < 2 || slashed[1] != ':' || !isDriveLetter(slashed[0]) {
		return "", false
	}
	clean := path.Clean("/" + slashed[2:])
	return strings.ToUpper(slashed[:1]) + ":" + strings.ReplaceAll(clean, "/", `\`), true
}
