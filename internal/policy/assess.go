package policy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/nb-cli/nb/internal/shellparse"
)

type leafInfo struct {
	safe            bool
	why             string // why not safe
	danger          string
	sensitive       string
	harmlessWrapper bool
	// noRule: no rule may pre-approve the leaf (network data fed to an
	// interpreter, a risky environment variable).
	noRule string
	// exactOnly: only a rule without a trailing * may pre-approve it (it
	// reads a file chosen at run time).
	exactOnly bool
}

type assessment struct {
	safety  Safety
	reasons []string
	warn    bool
	display string
	info    map[*shellparse.Leaf]*leafInfo
	// needRule are the leaves a rule must cover (not safe, not harmless
	// wrappers).
	needRule       []*shellparse.Leaf
	writes         bool
	network        bool
	redirSensitive bool
	maybeDenied    []string
}

// secretVar finds expansions of variables named like secrets.
var secretVar = regexp.MustCompile(`\$\{?[A-Za-z0-9_]*(?i:key|token|secret|pass|cred|auth|session|cookie|private|signature)[A-Za-z0-9_]*`)

var harmlessWrappers = map[string]bool{
	"timeout": true, "nice": true, "nohup": true, "command": true, "builtin": true, "exec": true,
	"stdbuf": true, "ionice": true, "setsid": true, "xargs": true, "env": true, "time": true, "watch": true,
}

func (e *Engine) assess(a *shellparse.Analysis, cc CommandContext) *assessment {
	as := &assessment{info: map[*shellparse.Leaf]*leafInfo{}}
	addReason := func(r string) {
		if !contains(as.reasons, r) {
			as.reasons = append(as.reasons, r)
		}
	}
	if a.Err != nil {
		as.safety = Unknown
		as.display = e.displayRun(a.Source, false)
		addReason("cannot parse the command: " + a.Err.Error())
		return as
	}
	dangerous, unsafe, deleteOrMove := false, false, false
	for _, r := range a.Unknown {
		addReason("cannot analyse: " + r)
		unsafe = true
	}
	for _, name := range a.Recursive {
		addReason("function " + name + " calls itself (fork bomb)")
		dangerous = true
	}
	for _, l := range a.Leaves {
		info := e.leafInfo(l, cc)
		as.info[l] = info
		if info.danger != "" {
			dangerous = true
			addReason("dangerous: " + info.danger)
		}
		if info.sensitive != "" {
			addReason("sensitive: " + info.sensitive)
		}
		if !info.safe {
			unsafe = true
			if info.why != "" && info.danger == "" && info.sensitive == "" {
				addReason(info.why)
			}
		}
		if !info.harmlessWrapper && !(info.safe && e.opts.Approval.AutoApproveSafe) {
			as.needRule = append(as.needRule, l)
		}
		switch l.Base() {
		case "rm", "mv", "unlink", "shred", "rmdir", "srm", "trash", "trash-put":
			deleteOrMove = true
		}
		for _, p := range e.deny {
			if !p.denies(l) && p.Match(l, matchMaybe) {
				as.maybeDenied = append(as.maybeDenied, p.Src)
				addReason(fmt.Sprintf("might match deny rule %q", p.Src))
			}
		}
	}
	for _, r := range a.Redirs {
		t := r.Target
		abs := absPath(t.Text, cc.Cwd)
		switch {
		case r.Heredoc || r.Dup:
		case r.Write:
			switch {
			case t.Static() && harmlessDevices[abs]:
			case t.Static() && networkDevice(abs):
				as.network, dangerous = true, true
				addReason("dangerous: opens a network connection through " + t.Text)
			case t.Static() && systemPath(abs, cc.Home):
				as.writes, dangerous = true, true
				addReason("dangerous: writes into a system path or startup file: " + t.Raw)
			case !t.Static():
				as.writes, unsafe = true, true
				addReason("writes to a file chosen at run time: " + t.Raw)
			default:
				as.writes, unsafe = true, true
				addReason("writes " + t.Raw)
			}
		case r.Read:
			switch {
			case t.Static() && networkDevice(abs):
				as.network, unsafe = true, true
				addReason("reads from the network through " + t.Text)
			case !t.Static():
				unsafe = true
				addReason("reads a file chosen at run time: " + t.Raw)
			case e.sensitivePath(t.Text, cc.Cwd, false):
				as.redirSensitive, unsafe = true, true
				addReason("sensitive: reads " + t.Raw)
			}
		}
	}
	for _, f := range e.danger {
		if what, ok := f.matchAnalysis(a, cc); ok {
			dangerous = true
			addReason(fmt.Sprintf("dangerous: %q matches dangerousCommands %q", what, f.src))
		}
	}
	warnHit := false
	for _, f := range e.warn {
		if what, ok := f.matchAnalysis(a, cc); ok {
			warnHit = true
			if !dangerous {
				addReason(fmt.Sprintf("warning: %q matches warnPatterns %q", what, f.src))
			}
		}
	}
	switch {
	case dangerous:
		as.safety = Dangerous
	case unsafe:
		as.safety = Unknown
	default:
		as.safety = Safe
	}
	cat, subject := e.category(a)
	as.warn = dangerous || warnHit || as.writes || deleteOrMove || cat == "write" || cat == "append" || cat == "delete" || cat == "move"
	if cat != "" {
		head := cat
		if as.warn {
			head += " ⚠️"
		}
		as.display = head + ": " + sanitize(subject, false)
	} else {
		as.display = e.displayRun(a.Source, as.warn)
	}
	return as
}

// leafInfo judges one simple command.
func (e *Engine) leafInfo(l *shellparse.Leaf, cc CommandContext) *leafInfo {
	info := &leafInfo{}
	if d := e.builtinDanger(l, cc); d != "" {
		info.danger = d
	} else if d := e.hiddenDanger(l, cc); d != "" {
		info.danger = d
	} else if d := e.braceDanger(l, cc); d != "" {
		info.danger = d
	}
	for _, f := range e.danger {
		if f.matchLeaf(l) && info.danger == "" {
			info.danger = fmt.Sprintf("matches dangerousCommands %q", f.src)
		}
	}
	if strings.HasPrefix(info.danger, "network data piped") || strings.HasSuffix(info.danger, "fetched from the network") {
		info.noRule = info.danger
	}
	info.safe, info.why = e.leafSafe(l, cc, info)
	if info.danger != "" {
		info.safe = false
	}
	return info
}

func (e *Engine) leafSafe(l *shellparse.Leaf, cc CommandContext, info *leafInfo) (bool, string) {
	if len(l.Unknown) > 0 {
		return false, "cannot analyse: " + l.Unknown[0]
	}
	name := l.Name()
	if name == "" {
		return false, "the command name is not static"
	}
	for _, env := range l.EnvAssigns {
		if shellparse.IsRiskyEnvName(env) {
			info.noRule = "sets " + env + " for the command"
			return false, info.noRule
		}
	}
	base := l.Base()
	if strings.Contains(name, "/") && !systemBinDirs[pathDir(name)] {
		return false, name + " is not a system command"
	}
	if e.removedSafe[base] {
		return false, base + " is removed from the safe list"
	}
	for _, w := range l.Words {
		if w.Dynamic {
			if m := secretVar.FindString(w.Raw); m != "" {
				info.sensitive = "expands " + m + ", which may hold a secret"
				return false, info.sensitive
			}
		}
	}
	if l.Test {
		return true, ""
	}
	if l.Decl {
		if base == "local" {
			return true, ""
		}
		dump := true
		for _, w := range l.Args() {
			if !strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "+") {
				dump = false
			}
		}
		if dump {
			info.sensitive = base + " lists variables, which may hold secrets"
			return false, info.sensitive
		}
		return true, ""
	}
	if harmlessWrappers[base] && len(l.Inner) > 0 {
		if base == "time" && (shortFlags(l.Args(), "f")['o'] || hasLong(l.Args(), "output")) {
			return false, "time -o writes a file"
		}
		info.harmlessWrapper = true
		return true, ""
	}
	switch base {
	case "env", "printenv", "export", "set", "declare", "typeset", "compgen":
		if base == "set" && len(l.Args()) > 0 && strings.HasPrefix(l.Args()[0].Text, "-") || base == "set" && len(l.Args()) > 0 && strings.HasPrefix(l.Args()[0].Text, "+") {
			return true, ""
		}
		info.sensitive = base + " shows environment variables, which may hold secrets"
		return false, info.sensitive
	}
	if shellparse.IsNetworkTool(base) {
		return false, base + " uses the network"
	}
	if e.safeNames[name] || e.safeNames[base] {
		return allStatic(l, true)
	}
	for _, p := range e.safePatterns {
		if p.Match(l, matchAllow) {
			return allStatic(l, true)
		}
	}
	spec, ok := builtinSafe[base]
	if !ok {
		return false, base + " is not on the safe list"
	}
	args := l.Args()
	if !spec.dynOK {
		if ok, why := allStatic(l, false); !ok {
			return false, why
		}
		if l.ArgsAppended {
			return false, base + " gets arguments at run time"
		}
	}
	if spec.check != nil {
		if why := spec.check(args); why != "" {
			return false, why
		}
	}
	if !spec.reads {
		for _, w := range args {
			if w.Static() && e.sensitivePath(w.Text, cc.Cwd, false) || w.Glob && e.sensitivePath(w.Text, cc.Cwd, true) && base != "ls" {
				info.sensitive = base + " names " + w.Raw
				return false, info.sensitive
			}
		}
	}
	if spec.reads {
		pos := positionals(args, spec.valueShort)
		if spec.pattern && len(pos) > 0 {
			hasPatFlag := false
			sf := shortFlags(args, spec.valueShort)
			for i := 0; i < len(spec.patternFlags); i++ {
				if sf[spec.patternFlags[i]] {
					hasPatFlag = true
				}
			}
			if hasLong(args, "regexp", "file", "expression", "from-file") {
				hasPatFlag = true
			}
			if !hasPatFlag {
				pos = pos[1:]
			}
		}
		if l.ArgsAppended {
			info.exactOnly = true
			return false, base + " reads files named at run time"
		}
		for _, w := range args {
			// option values such as --file=x or -fX may name files too
			if strings.HasPrefix(w.Text, "-") && w.Static() {
				if _, v, ok := strings.Cut(w.Text, "="); ok && e.sensitivePath(v, cc.Cwd, false) {
					info.sensitive = base + " reads " + w.Raw
					return false, info.sensitive
				}
				if len(w.Text) > 2 && w.Text[1] != '-' && e.sensitivePath(w.Text[2:], cc.Cwd, false) {
					info.sensitive = base + " reads " + w.Raw
					return false, info.sensitive
				}
			}
		}
		skip := -1
		if len(pos) > 0 && len(pos) < len(positionals(args, spec.valueShort))+1 && spec.pattern {
			// the pattern word is not a file
			all := positionals(args, spec.valueShort)
			if len(all) > len(pos) {
				skip = indexOfWord(args, all[0])
			}
		}
		for i, w := range args {
			if i == skip {
				continue
			}
			if w.Dynamic {
				info.exactOnly = true
				return false, base + " reads a file chosen at run time: " + w.Raw
			}
			if e.sensitivePath(w.Text, cc.Cwd, w.Glob) {
				info.sensitive = base + " reads " + w.Raw
				return false, info.sensitive
			}
		}
		if spec.recursive != nil && spec.recursive(args) {
			dirs := pos
			if len(dirs) == 0 {
				dirs = []word{{Text: "."}}
			}
			for _, d := range dirs {
				if broadDir(absPath(d.Text, cc.Cwd), cc.Home) {
					info.sensitive = base + " searches " + d.Text + " recursively, which holds secrets"
					return false, info.sensitive
				}
			}
		}
	}
	return true, ""
}

func pathDir(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i <= 0 {
		return "/"
	}
	return name[:i]
}

func allStatic(l *shellparse.Leaf, globOK bool) (bool, string) {
	for _, w := range l.Args() {
		if w.Dynamic || (w.Glob && !globOK) {
			return false, "argument " + w.Raw + " is not static"
		}
	}
	return true, ""
}

// category classifies a single simple command per seed 000's table.
func (e *Engine) category(a *shellparse.Analysis) (string, string) {
	l := a.SingleCall
	if l == nil || len(l.Unknown) > 0 || l.Name() == "" || len(l.Inner) > 0 {
		return "", ""
	}
	for _, w := range l.Words {
		if len(w.Subs) > 0 {
			return "", ""
		}
	}
	args := l.Args()
	var writes []*shellparse.Redir
	reads := 0
	for _, r := range l.Redirs {
		switch {
		case r.Write && !harmlessDevices[r.Target.Text]:
			writes = append(writes, r)
		case r.Read:
			reads++
		}
	}
	raws := func(ws []word) string {
		var s []string
		for _, w := range ws {
			s = append(s, w.Raw)
		}
		return strings.Join(s, " ")
	}
	base := l.Base()
	if len(writes) == 1 && len(writes[0].Target.Subs) == 0 {
		switch {
		case base == "echo" || base == "printf" || (base == "cat" && len(positionals(args, "")) == 0):
			if writes[0].Append {
				return "append", writes[0].Target.Raw
			}
			return "write", writes[0].Target.Raw
		}
		return "", ""
	}
	if len(writes) > 0 || reads > 0 {
		return "", ""
	}
	switch base {
	case "cat", "head", "tail":
		pos := positionals(args, "nc")
		if len(pos) == 1 {
			return "read", pos[0].Raw
		}
	case "cp":
		pos := positionals(args, "tS", "target-directory", "suffix")
		if len(pos) == 2 && !anyWord(args, "-t") {
			return "copy", pos[0].Raw + " → " + pos[1].Raw
		}
	case "mv":
		pos := positionals(args, "tS", "target-directory", "suffix")
		if len(pos) == 2 && !anyWord(args, "-t") {
			return "move", pos[0].Raw + " → " + pos[1].Raw
		}
	case "rm":
		if pos := positionals(args, ""); len(pos) > 0 {
			return "delete", raws(pos)
		}
	case "mkdir":
		if pos := positionals(args, "m", "mode"); len(pos) > 0 {
			return "mkdir", raws(pos)
		}
	}
	return "", ""
}

// displayRun is "run: COMMAND", or "run (N lines):" and every line.
func (e *Engine) displayRun(src string, warn bool) string {
	text := strings.TrimRight(src, "\n")
	head := "run"
	if warn {
		head += " ⚠️"
	}
	lines := strings.Split(text, "\n")
	if len(lines) <= 1 {
		return head + ": " + sanitize(strings.TrimSpace(text), false)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d lines):", head, len(lines))
	for _, ln := range lines {
		b.WriteString("\n  ")
		b.WriteString(sanitize(ln, false))
	}
	return b.String()
}

// sanitize makes control characters, bidirectional overrides and
// invisible characters visible, so the display cannot hide text.
func sanitize(s string, keepNewlines bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines, r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0, r == 0xad, r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e,
			r >= 0x2060 && r <= 0x2069, r == 0xfeff, r == 0x00a0, r == 0x2028, r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		case unicode.IsSpace(r) && r != ' ':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func indexOfWord(ws []word, w word) int {
	for i := range ws {
		if ws[i].Raw == w.Raw && ws[i].Text == w.Text {
			return i
		}
	}
	return -1
}
