package policy

import (
	"path"
	"strconv"
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// isInterpreter reports whether the program runs code it is given: a
// shell or an interpreter (the command base knows).
func isInterpreter(base string) bool { return cmdbase.Unix(base).RunsCode() }

// hazard is why a leaf is dangerous ("": it is not); fetched says what
// runs is code from the network, which no rule may approve.
type hazard struct {
	why     string
	fetched bool
}

// builtinDanger says why the leaf is dangerous whatever rule or grant
// covers it.
func (e *Engine) builtinDanger(l *shellparse.Leaf, cc CommandContext) hazard {
	base := l.Base()
	if base == "" || e.removedDanger[base] {
		return hazard{}
	}
	ws := l.Args()
	p := cmdbase.Unix(base)
	if p != nil && p.Danger != "" {
		return hazard{why: base + ": " + p.Danger}
	}
	var args []string // the words' texts, for the base's dangerous subcommands and forms
	if p != nil && len(p.Subs)+len(p.Forms) > 0 {
		args = cmdbase.Texts(ws)
	}
	if why := p.SubDanger(args); why != "" {
		return hazard{why: why}
	}
	if l.StdinFromNetwork && isInterpreter(base) {
		return hazard{why: "network data piped into " + base, fetched: true}
	}
	if isInterpreter(base) && fedByNetwork(l) {
		return hazard{why: base + " runs code fetched from the network", fetched: true}
	}
	if why := p.FormDanger(args); why != "" {
		return hazard{why: why}
	}
	if why := p.ArgsDanger(ws); why != "" {
		return hazard{why: why}
	}
	return hazard{why: e.argsDanger(base, ws, cc)}
}

// argsDanger says why a copying, killing or mode-changing command is
// dangerous by its arguments, or "".
func (e *Engine) argsDanger(base string, ws []word, cc CommandContext) string {
	switch base {
	case "chmod":
		if pos := cmdbase.Positionals(ws, ""); len(pos) > 0 && worldWritableMode(pos[0].Text) {
			return "chmod " + pos[0].Text + ": world-writable or setuid permissions"
		}
		for _, w := range ws {
			if strings.HasPrefix(w.Text, "-") && worldWritableMode(w.Text) {
				return "chmod " + w.Text + ": world-writable permissions"
			}
		}
	case "kill":
		for _, w := range ws {
			if w.Text == "-1" && len(cmdbase.Positionals(ws, "sn")) == 0 || w.Text == "1" {
				return "kill: targets every process or init"
			}
		}
		if cmdbase.AnyWord(ws, "--", "-9", "-KILL", "-s") {
			for _, p := range cmdbase.Positionals(ws, "sn") {
				if p.Text == "-1" || p.Text == "1" {
					return "kill: targets every process or init"
				}
			}
		}
	case "truncate":
		for _, p := range cmdbase.Positionals(ws, "sr") {
			if systemTarget(cc, p.Text) {
				return "truncate in a system path"
			}
		}
	case "cp", "mv", "install", "ln", "tee", "rsync":
		if t := copyTarget(base, ws, cc); t != "" {
			return base + " into a system path or startup file: " + t
		}
		pos := cmdbase.Positionals(ws, cmdbase.Unix(base).ValueLetters(), "target-directory", "suffix", "mode", "owner", "group")
		if base == "mv" && len(pos) > 0 && cmdbase.AnyWord(pos[len(pos)-1:], "/dev/null") {
			return "mv to /dev/null destroys the file"
		}
	}
	return ""
}

// fedByNetwork reports a leaf whose arguments or redirections substitute
// the output of a network tool: bash <(curl …), sh -c "$(curl …)".
func fedByNetwork(l *shellparse.Leaf) bool {
	check := func(w shellparse.Word) bool {
		for _, s := range w.Subs {
			if isNetworkTool(s.Base()) || fedByNetwork(s) {
				return true
			}
		}
		return false
	}
	for _, w := range l.Words {
		if check(w) {
			return true
		}
	}
	for _, r := range l.Redirs {
		if check(r.Target) {
			return true
		}
	}
	return false
}

func worldWritableMode(m string) bool {
	m = strings.TrimPrefix(m, "-")
	if m == "" {
		return false
	}
	if n, err := strconv.ParseUint(m, 8, 32); err == nil {
		return n&0o002 != 0 || n&0o4000 != 0 || n&0o2000 != 0
	}
	for _, clause := range strings.Split(m, ",") {
		i := strings.IndexAny(clause, "+=")
		if i < 0 {
			continue
		}
		whoPart, perms := clause[:i], clause[i+1:]
		if strings.ContainsAny(perms, "s") && !strings.Contains(clause, "-") {
			return true
		}
		if (whoPart == "" || strings.ContainsAny(whoPart, "ao")) && strings.Contains(perms, "w") {
			if whoPart == "" {
				continue // umask applies
			}
			return true
		}
	}
	return false
}

// hiddenDanger looks for a dangerous command run by a program nb does not
// unwrap: taskset 1 rm -rf x, ssh host 'sudo reboot'. It only adds
// warnings; such programs are never safe anyway.
func (e *Engine) hiddenDanger(l *shellparse.Leaf, cc CommandContext) hazard {
	if len(l.Inner) > 0 || l.Name() == "" {
		return hazard{}
	}
	base := l.Base()
	args := l.Args()
	if spec, ok := cmdbase.Safe(base); ok && (spec.Check(args) == "") {
		return hazard{}
	}
	sub := subcommandAt(cmdbase.Unix(base), args)
	for i, w := range args {
		if !w.Static() || i == sub {
			continue // a subcommand (git fsck) names no program
		}
		name := w.Text
		if j := strings.LastIndexByte(name, '/'); j >= 0 {
			name = name[j+1:]
		}
		if p := cmdbase.Unix(name); i+1 < len(args) && p != nil && (p.Danger != "" || p.Has(cmdbase.Checked) || len(p.Subs) > 0) {
			pseudo := &shellparse.Leaf{Words: args[i:], StdinFromNetwork: l.StdinFromNetwork}
			if h := e.builtinDanger(pseudo, cc); h.why != "" {
				h.why += " (run by " + base + ")"
				return h
			}
		}
		if cmdbase.Unix(base).Has(cmdbase.RunsArgs) && strings.ContainsAny(w.Text, " ;|&\n") {
			a := analyse(w.Text, shellparse.Options{Home: cc.Home})
			for _, in := range a.Leaves {
				if h := e.builtinDanger(in, cc); h.why != "" {
					h.why += " (run by " + base + ")"
					return h
				}
			}
			for _, r := range a.Redirs {
				if r.Write && r.Target.Static() && systemTarget(cc, r.Target.Text) {
					return hazard{why: "writes into a system path (run by " + base + ")"}
				}
			}
		}
	}
	return hazard{}
}

// subcommandAt is the index in args of the subcommand of a program that
// has subcommands (the first operand after its global options), or -1.
func subcommandAt(p *cmdbase.Prog, args []word) int {
	if !p.Has(cmdbase.Subcommands) {
		return -1
	}
	if _, at := p.Subcommand(args); at < len(args) {
		return at
	}
	return -1
}

// expandBraces expands unquoted {a,b} forms of a literal word (bash brace
// expansion), bounded to 64 results.
func expandBraces(s string, depth int) []string {
	if depth > 8 {
		return []string{s}
	}
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return []string{s}
	}
	level, commas := 0, []int{}
	end := -1
	for i := start; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '{':
			level++
		case '}':
			level--
			if level == 0 {
				end = i
			}
		case ',':
			if level == 1 {
				commas = append(commas, i)
			}
		}
	}
	if end < 0 || len(commas) == 0 {
		rest := expandBraces(s[start+1:], depth+1)
		out := make([]string, 0, len(rest))
		for _, r := range rest {
			out = append(out, s[:start+1]+r)
		}
		return out
	}
	var alts []string
	prev := start + 1
	for _, c := range append(commas, end) {
		alts = append(alts, s[prev:c])
		prev = c + 1
	}
	var out []string
	for _, alt := range alts {
		for _, x := range expandBraces(s[:start]+alt+s[end+1:], depth+1) {
			if len(out) >= 64 {
				return out
			}
			out = append(out, x)
		}
	}
	return out
}

// braceDanger expands a leaf made only of plain words with brace
// expansions ({rm,-rf,x}) and judges the result.
func (e *Engine) braceDanger(l *shellparse.Leaf, cc CommandContext) hazard {
	if l.Name() != "" {
		return hazard{} // a brace in the command name makes it dynamic
	}
	var words []shellparse.Word
	expanded := false
	for _, w := range l.Words {
		if strings.ContainsAny(w.Raw, "'\"$`\\*?[") || len(w.Subs) > 0 {
			return hazard{}
		}
		if strings.Contains(w.Raw, "{") {
			expanded = true
		}
		for _, x := range expandBraces(w.Raw, 0) {
			if x != "" {
				words = append(words, shellparse.Word{Text: x, Raw: x})
			}
		}
	}
	if !expanded || len(words) == 0 {
		return hazard{}
	}
	pseudo := &shellparse.Leaf{Words: words, StdinFromNetwork: l.StdinFromNetwork}
	if h := e.builtinDanger(pseudo, cc); h.why != "" {
		h.why += " (after brace expansion)"
		return h
	}
	return e.hiddenDanger(pseudo, cc)
}

// copyTarget returns a path a copying tool (cp, mv, install, ln, tee,
// rsync) writes that is a system path or startup file, or "". Targets are
// the destination and a -t/--target-directory (in any spelling: -t/etc,
// -vt /etc, --target-dir=/etc), and inside a destination directory the
// source's base name (cp evil/.bashrc ~ writes ~/.bashrc); with -T or a
// recursive copy into the home directory, its startup files.
func copyTarget(base string, ws []word, cc CommandContext) string {
	vs := cmdbase.Unix(base).ValueLetters()
	pos := cmdbase.Positionals(ws, vs, "target-directory", "suffix", "mode", "owner", "group", "rsh", "filter", "temp-dir")
	f := cmdbase.ShortFlags(ws, vs)
	check := func(p string) bool {
		return systemTarget(cc, p)
	}
	if base == "tee" {
		for _, p := range pos {
			if p.Static() && check(p.Text) {
				return p.Text
			}
		}
		return ""
	}
	dirs := cmdbase.OptionValues(ws, 't', vs, "target-directory")
	sources := pos
	if len(dirs) == 0 && len(pos) > 0 && (len(pos) > 1 || base == "ln") {
		last := pos[len(pos)-1]
		if len(pos) > 1 {
			sources = pos[:len(pos)-1]
		}
		if !last.Static() {
			return ""
		}
		if len(pos) == 1 {
			last = word{Text: "."}
		}
		dest := absPath(last.Text, cc.Cwd)
		if check(dest) {
			return last.Text
		}
		noTarget := f['T'] || cmdbase.HasLong(ws, "no-target-directory")
		recursive := f['r'] || f['R'] || f['a'] || cmdbase.HasLong(ws, "recursive", "archive")
		if (noTarget || recursive && strings.HasSuffix(last.Text, "/")) && cc.Home != "" && (dest == cc.Home || strings.HasPrefix(cc.Home, dest+"/")) {
			return last.Text + " (the home directory and its startup files)"
		}
		if noTarget {
			return ""
		}
		dirs = append(dirs, dest)
	}
	for _, d := range dirs {
		if check(d) {
			return d
		}
		for _, s := range sources {
			if !s.Static() {
				continue
			}
			name := path.Base(strings.TrimSuffix(s.Text, "/"))
			if name == "." || name == "/" || name == ".." {
				continue
			}
			if p := absPath(d, cc.Cwd) + "/" + name; check(p) {
				return p
			}
		}
	}
	return ""
}
