package policy

import (
	"path"
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
	if why := inlineCodeDanger(base, p, ws); why != "" {
		return hazard{why: why}
	}
	if why := p.ArgsDanger(ws); why != "" {
		return hazard{why: why}
	}
	return hazard{why: e.argsDanger(base, ws, cc)}
}

// argsDanger says why a copying or writing command writes into a system
// path or startup file (cp x /etc/passwd, tee ~/.bashrc), or "".
func (e *Engine) argsDanger(base string, ws []word, cc CommandContext) string {
	t, ok := cmdbase.Unix(base).TargetsOf(ws)
	if !ok {
		return ""
	}
	if dest := copyTarget(t, cc); dest != "" {
		return base + " into a system path or startup file: " + dest
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

// copyTarget returns a path a copying or writing tool writes (as the
// base reads its operands: Prog.Targets) that is a system path or startup
// file, or "": the destination and each -t directory, and inside a
// destination directory the source's base name (cp evil/.bashrc ~ writes
// ~/.bashrc); with -T or a recursive copy into the home directory, its
// startup files.
func copyTarget(t cmdbase.Targets, cc CommandContext) string {
	check := func(p string) bool { return systemTarget(cc, p) }
	if t.Whole {
		for _, p := range t.Dests {
			if p.Static() && check(p.Text) {
				return p.Text
			}
		}
		return ""
	}
	var dirs []string
	for _, d := range t.Dirs {
		dirs = append(dirs, d.Text)
	}
	if len(t.Dests) == 1 {
		last := t.Dests[0]
		if !last.Static() {
			return ""
		}
		dest := absPath(last.Text, cc.Cwd)
		if check(dest) {
			return last.Text
		}
		if (t.NoTarget || t.Recursive && strings.HasSuffix(last.Text, "/")) && cc.Home != "" && (dest == cc.Home || strings.HasPrefix(cc.Home, dest+"/")) {
			return last.Text + " (the home directory and its startup files)"
		}
		if t.NoTarget {
			return ""
		}
		dirs = append(dirs, dest)
	}
	for _, d := range dirs {
		if check(d) {
			return d
		}
		for _, s := range t.Sources {
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

// inlineCodeDanger says why code given to an interpreter on its command
// line is dangerous, read as the same code typed into its REPL is
// (codeWarnings: python3 -c 'import os; os.system(…)'), or "": the value
// of each of its code options (cmdbase.InlineCodeOptions), attached,
// separate or in a cluster (-Ic CODE).
func inlineCodeDanger(base string, p *cmdbase.Prog, ws []word) string {
	if p == nil || !p.Has(cmdbase.Interpreter) {
		return ""
	}
	opts := cmdbase.InlineCodeOptions(p.Lang)
	var letters []byte
	for _, o := range opts {
		letters = append(letters, o.Letter)
	}
	for _, o := range opts {
		for _, code := range cmdbase.OptionValues(ws, o.Letter, string(letters), o.Long) {
			if why := codeWarnings(p.Lang, code); len(why) > 0 {
				return base + " runs code that " + why[0]
			}
		}
	}
	return ""
}
