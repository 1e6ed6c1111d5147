package policy

import (
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/winshell"
)

// How each shell's command lines are compared with rules: bash by its
// words as written; cmd.exe and PowerShell without case, under every
// name the shell knows a command by (rd and rmdir, Remove-Item and ri),
// their switches (/S, /s:x) and parameters (-r for -Recurse) as the shell
// reads them, and rules read in the shell's own language.

// rulesKey names the rules compiled for one home and one shell.
type rulesKey struct {
	home    string
	dialect shellparse.Dialect
}

// compiledRules are the engine's rules as one shell reads them, with ~
// meaning one home directory.
type compiledRules struct {
	deny  []*Pattern
	allow []ruleEntry
}

type ruleEntry struct {
	p      *Pattern
	source Decider
}

// maxCompiled bounds the rule sets kept.
const maxCompiled = 24

// compile returns the rules for home and the shell d, compiled once
// (until the grants change): deny rules, and every allow rule with its
// source in priority order (--approve, approval.allow, project grants,
// session grants).
func (e *Engine) compile(home string, d shellparse.Dialect) *compiledRules {
	e.mu.Lock()
	defer e.mu.Unlock()
	k := rulesKey{home, d}
	if c, ok := e.compiled[k]; ok {
		return c
	}
	c := &compiledRules{}
	for _, p := range e.deny {
		c.deny = append(c.deny, denyForms(p, home, d)...)
	}
	add := func(p *Pattern, src Decider) { c.allow = append(c.allow, ruleEntry{allowForm(p, home, d), src}) }
	for _, p := range e.approve {
		add(p, ByFlag)
	}
	for _, p := range e.allow {
		add(p, ByRule)
	}
	for _, list := range [][]string{e.project, e.session} {
		for _, g := range list {
			if p := e.grantRules[g]; p != nil {
				add(p, ByGrant)
			}
		}
	}
	if e.compiled == nil || len(e.compiled) >= maxCompiled {
		e.compiled = map[rulesKey]*compiledRules{}
	}
	e.compiled[k] = c
	return c
}

// withExtra is the allow rules with the rules a remedy proposes first
// (checked as if given by --approve).
func (e *Engine) withExtra(extra []*Pattern, s *script) []ruleEntry {
	compiled := e.compile(s.cc.Home, s.Dialect).allow
	out := make([]ruleEntry, 0, len(extra)+len(compiled))
	for _, p := range extra {
		out = append(out, ruleEntry{allowForm(p, s.cc.Home, s.Dialect), ByFlag})
	}
	return append(out, compiled...)
}

// allowForm is the allow rule p as a command of shell d reads it: for
// bash its words with ~ meaning home; for cmd.exe and PowerShell the rule
// read in that shell's language when it is one plain command there
// (else bash's reading), lower-cased.
func allowForm(p *Pattern, home string, d shellparse.Dialect) *Pattern {
	if d == shellparse.Bash {
		return p.forHome(home)
	}
	if w := parseIn(p.Src, home, d); w != nil {
		return w
	}
	return lowerPattern(p.forHome(home))
}

// denyForms are the forms a deny rule denies in: for cmd.exe and
// PowerShell, every reading of its text (bash's, as written and
// lower-cased, for the Linux commands wsl runs and the programs that
// behave as on Unix; the shell's own).
func denyForms(p *Pattern, home string, d shellparse.Dialect) []*Pattern {
	h := p.forHome(home)
	if d == shellparse.Bash {
		return []*Pattern{h}
	}
	out := []*Pattern{h, lowerPattern(h)}
	if w := parseIn(p.Src, home, d); w != nil {
		out = append(out, w)
	}
	return out
}

// parseIn reads a rule in the language of cmd.exe or PowerShell: one
// plain command whose words are all literal (a final bare * matches the
// rest), lower-cased, the name as the base looks it up; nil when the
// rule is not that there.
func parseIn(src, home string, d shellparse.Dialect) *Pattern {
	a := winshell.Analyse(src, d, winshell.Options{Home: home})
	if len(a.Unknown) > 0 || len(a.Leaves) != 1 || len(a.Redirs) > 0 || len(a.Leaves[0].Words) == 0 {
		return nil
	}
	p := &Pattern{Src: src}
	for i, w := range a.Leaves[0].Words {
		if w.Dynamic {
			return nil
		}
		w.Text = strings.ToLower(w.Text)
		if i == 0 {
			w.Text = winshell.BaseName(w.Text)
		}
		p.Words = append(p.Words, w)
	}
	if n := len(p.Words); n > 1 && p.Words[n-1].Raw == "*" {
		p.Words, p.Rest = p.Words[:n-1], true
	}
	return p
}

// lowerPattern is p with every word lower-cased: Windows names,
// switches and paths ignore case.
func lowerPattern(p *Pattern) *Pattern {
	c := *p
	c.Words = make([]shellparse.Word, len(p.Words))
	for i, w := range p.Words {
		w.Text = strings.ToLower(w.Text)
		if i == 0 {
			w.Text = winshell.BaseName(w.Text)
		}
		c.Words[i] = w
	}
	return &c
}

// named is the view of a Windows leaf with the name n.
func named(w *winInfo, n string) *shellparse.Leaf {
	if v, ok := w.views[n]; ok {
		return v
	}
	if w.views == nil {
		w.views = make(map[string]*shellparse.Leaf, len(w.names)+1)
	}
	v := nameView(w, n)
	w.views[n] = v
	return v
}

// nameView makes the view of named.
func nameView(w *winInfo, n string) *shellparse.Leaf {
	l := *w.view
	rest := w.view.Words
	if len(rest) > 0 {
		rest = rest[1:]
	}
	l.Words = append([]shellparse.Word{{Text: n, Raw: n}}, rest...)
	return &l
}

// denies reports whether deny rule p matches the leaf (Pattern.denies),
// for cmd.exe and PowerShell under each of its names, with switches and
// parameters as the shell reads them, and on the Linux command wsl runs.
func denies(p *Pattern, l *shellparse.Leaf, info *leafInfo) bool {
	if info == nil || info.win == nil {
		return p.denies(l)
	}
	w := info.win
	if w.linux != nil && p.denies(w.linux) {
		return true
	}
	for _, n := range w.names {
		if v := named(w, n); p.denies(v) || p.deniesSwitches(v, l.Dialect) {
			return true
		}
	}
	return false
}

// mightDeny reports a deny rule that the leaf's dynamic words might make
// match.
func mightDeny(p *Pattern, l *shellparse.Leaf, info *leafInfo) bool {
	if info == nil || info.win == nil {
		return !p.denies(l) && p.Match(l, matchMaybe)
	}
	for _, n := range info.win.names {
		if p.Match(named(info.win, n), matchMaybe) {
			return true
		}
	}
	return false
}

// allows reports whether allow rule p matches the leaf: for cmd.exe and
// PowerShell as written or by its canonical name.
func allows(p *Pattern, l *shellparse.Leaf, info *leafInfo) bool {
	if info == nil || info.win == nil {
		return p.Match(l, matchAllow)
	}
	w := info.win
	for _, n := range w.names[:min(2, len(w.names))] {
		if p.Match(named(w, n), matchAllow) {
			return true
		}
	}
	return false
}

// deniesSwitches reports whether a deny rule, read as cmd.exe or
// PowerShell reads options, matches the leaf v (lower-cased, under one
// of its names): the name, each of its other words among the leaf's
// arguments, an option as the shell matches it (/s also /s:x; -Recurse
// also -r, -rec, -recurse:$true).
func (p *Pattern) deniesSwitches(v *shellparse.Leaf, d shellparse.Dialect) bool {
	if len(v.Words) == 0 || !nameMatch(p.Words[0], v.Words[0], matchDeny) {
		return false
	}
	for _, pw := range p.Words[1:] {
		found := false
		for _, a := range v.Args() {
			if sameOption(pw.Text, a, d) || wordMatch(pw, a, matchDeny) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameOption reports whether the option opt (lower case) names the
// option the argument a gives, as the shell reads it.
func sameOption(opt string, a shellparse.Word, d shellparse.Dialect) bool {
	t := strings.ToLower(a.Text)
	switch {
	case d == shellparse.PowerShell && !a.Quoted && len(opt) > 1 && opt[0] == '-' && len(t) > 1 && t[0] == '-':
		if i := strings.IndexByte(t, ':'); i > 0 {
			t = t[:i]
		}
		return strings.HasPrefix(opt, t) || strings.HasPrefix(t, opt)
	case len(opt) > 1 && opt[0] == '/' && len(t) > 1 && t[0] == '/':
		return t == opt || strings.HasPrefix(t, opt+":")
	}
	return false
}
