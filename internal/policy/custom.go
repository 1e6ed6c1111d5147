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
	"github.com/nb-cli/nb/internal/winshell"
)

// feature is a configured pattern from approval.dangerousCommands,
// approval.safeCommands or terminalIntegration.warnPatterns, interpreted
// against the parsed command, never against the raw text:
//
//   - "!name" removes the built-in entry for name;
//   - a regular expression (it contains \s, \b, ^, $, ( or .*) is matched
//     against each simple command's words joined by single spaces, with
//     the command's base name (so "(^|\s)dd\s" sees "dd if=x of=y" however
//     it was quoted or wrapped);
//   - "> PREFIX" or ">> PREFIX" matches a write (append) redirection whose
//     target starts with PREFIX (/dev/null and friends excepted);
//   - "A | B" matches a command named B fed by a pipeline containing A
//     (for network tools A, through any number of stages);
//   - otherwise shell words "NAME [-flags…] [words…] [*]": NAME globs the
//     command's base name; each -xy word requires every letter x, y among
//     the command's short options (any clustering or order); each --long
//     word requires that long option; other words must appear among the
//     arguments; a trailing * is ignored.
//
// A cmd.exe or PowerShell command is matched in its own language: NAME
// under any name the shell knows the command by, without case
// (Remove-Item, ri, rm, del are one command); an option word as the shell
// reads its options (-Recurse is -r or -rec in PowerShell, /S is /s or
// /s:x in cmd.exe), so "Remove-Item -Recurse" and "rd /s" are the
// Windows shells' "rm -r".
type feature struct {
	src     string
	remove  string
	re      *regexp.Regexp
	redirOp string
	prefix  string
	pipeL   string
	pipeR   string
	name    string
	literal bool // name holds no glob character: it matches itself only
	shorts  string
	longs   []string
	words   []string
	// opts are the option words as written, lower-cased (for the
	// Windows shells).
	opts []string
}

var regexHint = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\[sbdwSW]|^\^|\$$|\(|\.\*|\[\^`) })

func parseFeature(src string) (*feature, error) {
	s := strings.TrimSpace(src)
	f := &feature{src: src}
	switch {
	case s == "":
		return nil, fmt.Errorf("empty pattern")
	case strings.HasPrefix(s, "!"):
		f.remove = strings.TrimSpace(s[1:])
		return f, nil
	case regexHint().MatchString(s):
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", src, err)
		}
		f.re = re
		return f, nil
	case strings.HasPrefix(s, ">>"):
		f.redirOp, f.prefix = ">>", strings.TrimSpace(s[2:])
		return f, nil
	case strings.HasPrefix(s, ">"):
		f.redirOp, f.prefix = ">", strings.TrimSpace(s[1:])
		return f, nil
	}
	if l, r, ok := strings.Cut(s, "|"); ok {
		f.pipeL, f.pipeR = firstWord(l), firstWord(r)
		if f.pipeL == "" || f.pipeR == "" {
			return nil, fmt.Errorf("pattern %q: a pipe pattern needs a command on each side", src)
		}
		return f, nil
	}
	a := analyse(s, shellparse.Options{})
	if a.Err != nil || len(a.Leaves) != 1 {
		return nil, fmt.Errorf("pattern %q: must be one command", src)
	}
	for i, w := range a.Leaves[0].Words {
		t := w.Text
		switch {
		case i == 0:
			f.name, f.literal = t, !strings.ContainsAny(t, `*?[\`)
		case t == "*":
		case strings.HasPrefix(t, "--"):
			f.longs = append(f.longs, strings.TrimPrefix(t, "--"))
			f.opts = append(f.opts, strings.ToLower(t))
		case strings.HasPrefix(t, "-") && len(t) > 1:
			f.shorts += t[1:]
			f.opts = append(f.opts, strings.ToLower(t))
		case strings.HasPrefix(t, "/") && len(t) == 2:
			f.opts = append(f.opts, strings.ToLower(t))
		default:
			f.words = append(f.words, t)
		}
	}
	return f, nil
}

func firstWord(s string) string {
	fs := strings.Fields(s)
	if len(fs) == 0 {
		return ""
	}
	return fs[0]
}

// nameMatches says whether a word pattern's NAME matches a command's
// name (its base name, or the name as written).
func (f *feature) nameMatches(name, base string) bool {
	if f.literal {
		return f.name == base || f.name == name
	}
	ok, _ := path.Match(f.name, base)
	return ok || f.name == name
}

// matchLeaf reports whether a word pattern or regex matches the leaf.
func (f *feature) matchLeaf(l *shellparse.Leaf) bool {
	if l.Name() == "" {
		return false
	}
	if f.re != nil {
		text := l.Base()
		for _, w := range l.Args() {
			text += " " + w.Text
		}
		return f.re.MatchString(text)
	}
	if f.name == "" {
		return false
	}
	if !f.nameMatches(l.Name(), l.Base()) {
		return false
	}
	args := l.Args()
	sf := cmdbase.ShortFlags(args, "")
	for i := 0; i < len(f.shorts); i++ {
		if !sf[f.shorts[i]] {
			return false
		}
	}
	for _, lo := range f.longs {
		if !cmdbase.HasLong(args, lo) {
			return false
		}
	}
	for _, w := range f.words {
		found := false
		for _, a := range args {
			if ok, _ := path.Match(w, a.Text); ok || a.Text == w {
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

// matchAnalysis matches redirection and pipe patterns, and leaf patterns
// against every leaf; it returns the matching leaf's text or target.
func (f *feature) matchAnalysis(a *shellparse.Analysis, cc CommandContext) (string, bool) {
	switch {
	case f.redirOp != "":
		for _, r := range a.Redirs {
			if !r.Write || (f.redirOp == ">>") != r.Append {
				continue
			}
			abs := absPath(r.Target.Text, cc.Cwd)
			if harmlessDevices[abs] {
				continue
			}
			if strings.HasPrefix(r.Target.Text, f.prefix) {
				return r.Op + " " + r.Target.Raw, true
			}
		}
		return "", false
	case f.pipeR != "":
		hasLeft := false
		for _, l := range a.Leaves {
			if l.Base() == f.pipeL {
				hasLeft = true
			}
		}
		for _, l := range a.Leaves {
			if l.Base() != f.pipeR {
				continue
			}
			if hasLeft && (l.StdinFromNetwork || !isNetworkTool(f.pipeL) && l.StdinFromPipe) {
				return l.RawText(), true
			}
		}
		return "", false
	}
	for _, l := range a.Leaves {
		if f.matchLeaf(l) {
			return l.RawText(), true
		}
	}
	return "", false
}

// matchScript matches the feature against the command, each leaf in its
// shell's language; it returns the matching command or target as
// written.
func (f *feature) matchScript(s *script, as *assessment) (string, bool) {
	if s.Dialect == shellparse.Bash {
		return f.matchAnalysis(s.Analysis, s.cc)
	}
	switch {
	case f.redirOp != "":
		return f.winRedirHit(s)
	case f.pipeR != "":
		return f.winPipeHit(s, as)
	}
	for _, l := range s.Leaves {
		if f.matchWinLeaf(l, as.info.of(l)) {
			return l.RawText(), true
		}
	}
	return "", false
}

// spellings are the names a cmd.exe or PowerShell leaf goes by, without
// directory and .exe: as written, its canonical name and its aliases.
func spellings(l *shellparse.Leaf, info *leafInfo) []string {
	n := 1
	if info != nil && info.win != nil {
		n += len(info.win.names)
	}
	out := make([]string, 0, n)
	add := func(n string) {
		if b := winshell.BaseName(n); b != "" && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	if len(l.Words) > 0 {
		add(l.Words[0].Text)
	}
	if info != nil && info.win != nil {
		for _, n := range info.win.names {
			add(n)
		}
	}
	return out
}

// spelledOf is spellings, made once for a leaf whose facts are known.
func spelledOf(l *shellparse.Leaf, info *leafInfo) []string {
	if info == nil || info.win == nil {
		return spellings(l, info)
	}
	if info.win.spelled == nil {
		info.win.spelled = spellings(l, info)
	}
	return info.win.spelled
}

// matchWinLeaf matches a word pattern or a regular expression against a
// cmd.exe or PowerShell leaf under each of its names; a program that
// behaves as on Unix is matched as bash's leaves are.
func (f *feature) matchWinLeaf(l *shellparse.Leaf, info *leafInfo) bool {
	if l.Name() == "" || info == nil || info.win == nil {
		return false
	}
	w := info.win
	portable := w.portable || w.linux != nil
	for _, n := range spelledOf(l, info) {
		switch {
		case f.re != nil || portable:
			if f.matchLeaf(named(w, n)) || w.linux != nil && f.matchLeaf(w.linux) {
				return true
			}
		case f.nameIn(n):
			if f.winArgs(named(w, n), l.Dialect) {
				return true
			}
		}
	}
	return false
}

// nameIn reports whether the pattern's NAME matches a Windows name
// (lower case) without case.
func (f *feature) nameIn(n string) bool {
	if f.name == "" {
		return false
	}
	if f.literal {
		return strings.EqualFold(f.name, n)
	}
	ok, _ := path.Match(strings.ToLower(f.name), n)
	return ok
}

// winArgs reports a leaf whose arguments hold every option and word of
// the pattern, options as the shell reads them.
func (f *feature) winArgs(v *shellparse.Leaf, d shellparse.Dialect) bool {
	for _, o := range f.opts {
		if !slices.ContainsFunc(v.Args(), func(a shellparse.Word) bool { return sameOption(o, a, d) }) {
			return false
		}
	}
	for _, w := range f.words {
		lw := strings.ToLower(w)
		if !slices.ContainsFunc(v.Args(), func(a shellparse.Word) bool {
			ok, _ := path.Match(lw, a.Text)
			return ok || a.Text == lw
		}) {
			return false
		}
	}
	return true
}

// winPipeHit matches "A | B" against the pipelines of a cmd.exe or
// PowerShell script: a leaf named B (any spelling, any case) that reads
// the output of a pipeline holding one named A.
func (f *feature) winPipeHit(s *script, as *assessment) (string, bool) {
	hasLeft := false
	for _, l := range s.Leaves {
		if slices.ContainsFunc(spelledOf(l, as.info.of(l)), func(n string) bool { return strings.EqualFold(n, f.pipeL) }) {
			hasLeft = true
		}
	}
	if !hasLeft {
		return "", false
	}
	for _, l := range s.Leaves {
		fed := l.StdinFromNetwork || !isNetworkTool(f.pipeL) && l.StdinFromPipe
		if fed && slices.ContainsFunc(spelledOf(l, as.info.of(l)), func(n string) bool { return strings.EqualFold(n, f.pipeR) }) {
			return l.RawText(), true
		}
	}
	return "", false
}

// winRedirHit finds a redirection that writes (">", or appends for ">>")
// to a file starting with the feature's prefix, compared as Windows
// compares names; NUL and $null write no file.
func (f *feature) winRedirHit(s *script) (string, bool) {
	for _, r := range s.Redirs {
		t := strings.ToLower(r.Target.Text)
		if !r.Write || (f.redirOp == ">>") != r.Append || harmlessTarget(t) {
			continue
		}
		if strings.HasPrefix(t, strings.ToLower(f.prefix)) {
			return r.Op + " " + r.Target.Raw, true
		}
	}
	return "", false
}
