package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// Pattern is one approval rule in --approve syntax (SPEC §6.1): shell words;
// a final unquoted * word matches any remaining arguments (including none);
// * ? [ inside a word glob within that word and never match "/". A dynamic
// word of a command (such as $x) is matched only by a bare * word.
type Pattern struct {
	Src   string
	Words []shellparse.Word
	// Rest is set when the pattern ends with a bare * word.
	Rest bool
	// home is set when a word starts with ~ (homeMark stands for the home
	// directory until forHome replaces it).
	home bool
}

// homeMark stands for ~ in a parsed rule; it contains a NUL, so it never
// matches a real argument.
const homeMark = "\x00~"

// forHome returns the pattern with ~ meaning home ("" leaves it
// unmatchable).
func (p *Pattern) forHome(home string) *Pattern {
	if !p.home || home == "" {
		return p
	}
	c := *p
	c.Words = make([]shellparse.Word, len(p.Words))
	for i, w := range p.Words {
		w.Text = strings.ReplaceAll(w.Text, homeMark, home)
		c.Words[i] = w
	}
	return &c
}

// ParsePattern parses a rule. A word may start with ~ (rm -rf ~/build);
// it is matched against the home directory of each command.
func ParsePattern(src string) (*Pattern, error) {
	a := analyse(ruleSource(src), shellparse.Options{Home: homeMark})
	if a.Err != nil {
		return nil, fmt.Errorf("rule %q: %w", src, a.Err)
	}
	single := len(a.Leaves) > 0 && a.Stmts == 1 && len(a.Redirs) == 0 && len(a.Unknown) == 0 && a.Leaves[0].Via == ""
	for _, l := range a.Leaves[min(1, len(a.Leaves)):] {
		if l.Wrapper == nil {
			single = false
		}
	}
	if !single {
		return nil, fmt.Errorf("rule %q: must be one simple command (words only)", src)
	}
	l := a.Leaves[0]
	p := &Pattern{Src: src}
	for _, w := range l.Words {
		if w.Dynamic {
			return nil, fmt.Errorf("rule %q: %s is not a literal word", src, w.Raw)
		}
		if strings.Contains(w.Text, homeMark) {
			p.home = true
		}
		p.Words = append(p.Words, w)
	}
	if n := len(p.Words); n > 1 && p.Words[n-1].Raw == "*" {
		p.Words = p.Words[:n-1]
		p.Rest = true
	}
	if len(p.Words) == 0 || p.Words[0].Raw == "*" {
		return nil, fmt.Errorf("rule %q: must start with a command name", src)
	}
	return p, nil
}

// Exact reports whether the pattern has no trailing * (it spells out a
// whole command).
func (p *Pattern) Exact() bool { return !p.Rest }

type matchMode int

const (
	// matchAllow: a rule approving a leaf. /usr/bin/git matches git, ./git
	// does not; dynamic words match only a bare *.
	matchAllow matchMode = iota
	// matchDeny: any directory matches (/tmp/x/rm matches rm).
	matchDeny
	// matchMaybe: like matchDeny, and dynamic words match anything: the
	// leaf might turn out to be the denied command.
	matchMaybe
)

// Match reports whether the leaf's words match the pattern.
func (p *Pattern) Match(l *shellparse.Leaf, mode matchMode) bool {
	words := l.Words
	if mode == matchMaybe {
		for i, w := range words {
			if !w.Static() {
				if i == 0 {
					return true
				}
				cut := *l
				cut.Words = words[:i]
				return p.prefixMatch(&cut, mode)
			}
		}
	}
	if len(words) < len(p.Words) {
		return false
	}
	if !p.Rest && (len(words) != len(p.Words) || l.ArgsAppended) {
		return false
	}
	for i, pw := range p.Words {
		lw := words[i]
		if mode == matchAllow && lw.Static() && !pw.Glob && strings.HasPrefix(pw.Text, "/") && (relativePathWord(lw.Text, i == 0) || i > 0 && operandWord(lw.Text)) {
			// An approved absolute path matches the same file named
			// relative to the directory the leaf runs in (and only there).
			dir := leafDir(l)
			if dir == "" {
				return false
			}
			lw.Text = path.Join(dir, lw.Text)
		}
		if i == 0 {
			if !nameMatch(pw, lw, mode) {
				return false
			}
			continue
		}
		if !wordMatch(pw, lw, mode) {
			return false
		}
	}
	return true
}

var systemBinDirs = map[string]bool{
	"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true, "/usr/local/sbin": true,
}

func nameMatch(pw, lw shellparse.Word, mode matchMode) bool {
	if !lw.Static() {
		return mode == matchMaybe
	}
	name, want := lw.Text, pw.Text
	if mode != matchAllow {
		// A deny rule matches however the same file is spelled.
		name, want = slashPath(name), slashPath(want)
	}
	if strings.Contains(name, "/") && !strings.Contains(want, "/") {
		dir, base := path.Split(name)
		if mode == matchAllow && !systemBinDirs[path.Clean(dir)] {
			return false
		}
		name = base
	}
	if pw.Glob {
		ok, _ := path.Match(want, name)
		return ok
	}
	return want == name
}

func wordMatch(pw, lw shellparse.Word, mode matchMode) bool {
	if !lw.Static() {
		return mode == matchMaybe || pw.Raw == "*"
	}
	want, got := pw.Text, lw.Text
	if mode != matchAllow {
		// A deny rule matches however the same file is spelled (C:\x,
		// c:/X and /c/x are one file on Windows).
		want, got = slashPath(want), slashPath(got)
	}
	if pw.Glob {
		ok, err := path.Match(want, got)
		return ok && err == nil
	}
	return want == got
}

// quoteWord quotes s so that the rule parser reads it back as the same
// literal word.
func quoteWord(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteIn quotes s so that the shell d's rule reader reads it back as
// the same literal word: quoteWord for bash; for cmd.exe double quotes
// (none can hold a double quote, % or ^: ""), for PowerShell single
// quotes with a quote doubled.
func quoteIn(s string, d shellparse.Dialect) string {
	if d == shellparse.Bash {
		return quoteWord(s)
	}
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(`-_./:=+,\`, r)) {
			plain = false
			break
		}
	}
	switch {
	case plain:
		return s
	case d == shellparse.PowerShell:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case strings.ContainsAny(s, `"%^`):
		return ""
	}
	return `"` + s + `"`
}

// exactRule is a rule matching exactly the leaf's words, or "" when a word
// is not static.
//
// A relative path in the leaf is written resolved against the one
// directory the leaf runs in (cat ssh/key in /etc gives cat
// /etc/ssh/key), so the rule approves that file and not a file of that
// name in every directory; when the directory is not known, no rule.
func exactRule(l *shellparse.Leaf) string {
	var parts []string
	for i, w := range l.Words {
		if !w.Static() {
			return ""
		}
		t := w.Text
		if relativePathWord(t, i == 0) || i > 0 && cmdbase.Unix(l.Base()).Has(cmdbase.FileOperands) && operandWord(t) {
			dir := leafDir(l)
			if dir == "" {
				return ""
			}
			t = path.Join(dir, t)
		}
		parts = append(parts, quoteWord(t))
	}
	if l.ArgsAppended {
		parts = append(parts, "*")
	}
	return strings.Join(parts, " ")
}

// relativePathWord reports whether a word of a command may name a file
// relative to the directory the command runs in: a relative word with a
// slash or a dot in it, or a secret's name. A command name is one only
// with a slash (else PATH finds it).
func relativePathWord(t string, name bool) bool {
	if t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "-") || strings.ContainsAny(t, "=:@\x00") {
		return false
	}
	if name {
		return strings.Contains(t, "/")
	}
	return strings.ContainsAny(t, "/.") || sensitiveSegment(t)
}

// operandWord reports whether a word may be a relative file operand
// (not an option, a number or an assignment).
func operandWord(t string) bool {
	if t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") || strings.ContainsAny(t, "=:@\x00") {
		return false
	}
	return strings.Trim(t, "0123456789") != ""
}

// leafDir is the one directory the leaf runs in, or "" when it may run in
// several or in one known only at run time.
func leafDir(l *shellparse.Leaf) string {
	if l.Dir.Unknown || len(l.Dir.Paths) != 1 || !strings.HasPrefix(l.Dir.Paths[0], "/") {
		return ""
	}
	return l.Dir.Paths[0]
}

// narrowRule is the narrowest rule covering the leaf that "Always" may
// save, or "" when none may be offered (SPEC §6.3). For a tool with
// subcommands it is command + subcommand + * (git -C dir and git -c k=v
// are kept in the rule, so it matches only with them); options the
// analyser re-checks on every later match (see optionWrite) are why the *
// is acceptable there. When other options precede the subcommand, when
// the subcommand can run programs or write through its options, and for
// every tool without a known subcommand structure (cp, make, tar, sed,
// crontab, mount…), the rule is the exact command. A tool with
// subcommands used without one gets no rule.
func narrowRule(l *shellparse.Leaf) string {
	name := l.Name()
	if name == "" || len(l.Unknown) > 0 {
		return ""
	}
	base := l.Base()
	if r, ok := scriptRule(l); ok {
		return r
	}
	prog := cmdbase.Unix(base)
	if prog.NoAlways() {
		return ""
	}
	if !prog.Has(cmdbase.Subcommands) {
		return exactRule(l)
	}
	parts := []string{quoteWord(name)}
	args := l.Args()
	globals, i := prog.Subcommand(args)
	if i >= len(args) || !args[i].Static() {
		return "" // no subcommand: no narrow rule
	}
	for _, g := range globals {
		// git -C DIR and -c KEY=VALUE stay in the rule, so it matches
		// only with them; any other global option makes it exact
		if !slices.Contains(prog.RuleGlobals, g.Name) || !g.HasValue {
			return exactRule(l)
		}
		if !g.Value.Static() {
			return ""
		}
		parts = append(parts, quoteWord(g.Name), quoteWord(g.Value.Text))
	}
	sub := args[i].Text
	if s := prog.Sub(prog.Operands(cmdbase.Texts(args[i:]))); s != nil && s.Runs || strings.HasPrefix(sub, "-") {
		return exactRule(l)
	}
	parts = append(parts, quoteWord(sub))
	if prog.Has(cmdbase.RunScripts) && sub == "run" && i+1 < len(args) {
		if !args[i+1].Static() {
			return ""
		}
		parts = append(parts, quoteWord(args[i+1].Text))
	}
	parts = append(parts, "*")
	return strings.Join(parts, " ")
}

// prefixMatch reports whether the leaf's words match the pattern's first
// words (the rest of the leaf is dynamic and could be anything).
func (p *Pattern) prefixMatch(l *shellparse.Leaf, mode matchMode) bool {
	for i, lw := range l.Words {
		if i >= len(p.Words) {
			return p.Rest
		}
		if i == 0 && !nameMatch(p.Words[0], lw, mode) || i > 0 && !wordMatch(p.Words[i], lw, mode) {
			return false
		}
	}
	return true
}

// denies reports whether deny rule p matches the leaf. Besides an exact
// pattern match (any directory for the command), a deny rule matches when
// the command has the rule's name and contains each of its words in any
// position, with short options in any clustering (-r and -R alike), and
// extra arguments do not escape it: "git push *" denies git -C . push,
// "rm -rf *" denies rm -f -R x, "curl" denies curl -s URL.
func (p *Pattern) denies(l *shellparse.Leaf) bool {
	if p.Match(l, matchDeny) {
		return true
	}
	if len(l.Words) == 0 || !nameMatch(p.Words[0], l.Words[0], matchDeny) {
		return false
	}
	args := l.Args()
	sf := cmdbase.ShortFlags(args, "")
	for _, pw := range p.Words[1:] {
		t := pw.Text
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			if !cmdbase.HasLong(args, strings.TrimPrefix(strings.SplitN(t, "=", 2)[0], "--")) {
				return false
			}
		case strings.HasPrefix(t, "-") && len(t) > 1 && !pw.Glob:
			for i := 1; i < len(t); i++ {
				c := t[i]
				// -r and -R both mean recursive for rm, cp, chmod, chown, grep
				if !sf[c] && !(c == 'r' && sf['R']) && !(c == 'R' && sf['r']) {
					return false
				}
			}
		default:
			found := false
			for _, a := range args {
				if wordMatch(pw, a, matchDeny) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}

var ruleWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]*$`) })

// scriptRule is the Always rule of an interpreter running a script file
// (ok false when the leaf is not one): interpreter, script (or -m
// MODULE), its subcommand when the next word is one, and *:
// python3 manage.py migrate *, python3 -m pytest *, bash scripts/ci.sh *.
// Code given as text (-c, -e, a script read from standard input) gets no
// rule; the script file itself is trusted as a Makefile is for "make".
func scriptRule(l *shellparse.Leaf) (string, bool) {
	base := l.Base()
	if !cmdbase.Unix(base).Has(cmdbase.ScriptFile) {
		return "", false
	}
	args := l.Args()
	parts := []string{quoteWord(l.Name())}
	i := 0
	switch {
	case len(args) == 0:
		return "", true
	case args[0].Static() && args[0].Text != "" && args[0].Text == cmdbase.Unix(base).Module && len(args) > 1 && args[1].Static() && ruleWord().MatchString(args[1].Text):
		parts = append(parts, args[0].Text, args[1].Text)
		i = 2
	case args[0].Static() && !strings.HasPrefix(args[0].Text, "-") && args[0].Text != "" && !strings.ContainsAny(args[0].Text, "*?[\n\"'$` "):
		parts = append(parts, quoteWord(args[0].Text))
		i = 1
	default:
		return "", true
	}
	if i < len(args) && args[i].Static() && ruleWord().MatchString(args[i].Text) && !strings.Contains(args[i].Text, ".") {
		parts = append(parts, args[i].Text)
	}
	return strings.Join(append(parts, "*"), " "), true
}
