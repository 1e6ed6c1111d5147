package policy

import (
	"fmt"
	"path"
	"strings"

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
}

// ParsePattern parses a rule.
func ParsePattern(src string) (*Pattern, error) {
	a := shellparse.Analyse(src, shellparse.Options{})
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
	name := lw.Text
	if strings.Contains(name, "/") && !strings.Contains(pw.Text, "/") {
		dir, base := path.Split(name)
		if mode == matchAllow && !systemBinDirs[path.Clean(dir)] {
			return false
		}
		name = base
	}
	if pw.Glob {
		ok, _ := path.Match(pw.Text, name)
		return ok
	}
	return pw.Text == name
}

func wordMatch(pw, lw shellparse.Word, mode matchMode) bool {
	if !lw.Static() {
		return mode == matchMaybe || pw.Raw == "*"
	}
	if pw.Glob {
		ok, err := path.Match(pw.Text, lw.Text)
		return ok && err == nil
	}
	return pw.Text == lw.Text
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

// exactRule is a rule matching exactly the leaf's words, or "" when a word
// is not static.
func exactRule(l *shellparse.Leaf) string {
	var parts []string
	for _, w := range l.Words {
		if !w.Static() {
			return ""
		}
		parts = append(parts, quoteWord(w.Text))
	}
	if l.ArgsAppended {
		parts = append(parts, "*")
	}
	return strings.Join(parts, " ")
}

// subcommandTools have subcommands; "always" saves command + subcommand.
var subcommandTools = map[string]bool{
	"git": true, "docker": true, "podman": true, "kubectl": true, "npm": true, "yarn": true, "pnpm": true,
	"bun": true, "go": true, "cargo": true, "systemctl": true, "apt": true, "apt-get": true, "brew": true,
	"pip": true, "pip3": true, "helm": true, "terraform": true, "dotnet": true, "aws": true, "gcloud": true,
	"az": true, "gh": true, "journalctl": false, "rustup": true, "nix": true, "conda": true, "poetry": true,
	"uv": true, "mvn": true, "gradle": true, "deno": true, "composer": true, "gem": true, "bundle": true,
	"snap": true, "flatpak": true, "dnf": true, "yum": true, "zypper": true, "pacman": false, "make": false,
	"service": true, "ip": true, "firewall-cmd": false, "ufw": true, "virsh": true, "vagrant": true,
}

// runTools take a script name after "run".
var runTools = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "bun": true}

// noAlways are commands for which no narrow rule exists: shells,
// interpreters, wrappers that run any other command.
var noAlways = map[string]bool{
	"sudo": true, "doas": true, "su": true, "pkexec": true, "runuser": true, "env": true, "xargs": true,
	"eval": true, "exec": true, "source": true, ".": true, "command": true, "builtin": true,
	"timeout": true, "nice": true, "nohup": true, "time": true, "stdbuf": true, "ionice": true,
	"setsid": true, "watch": true, "busybox": true, "trap": true, "alias": true, "parallel": true,
	"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true,
	"php": true, "lua": true, "tclsh": true, "Rscript": true, "osascript": true, "awk": true,
	"gawk": true, "mawk": true, "nawk": true, "find": true, "ssh": true, "flock": true, "chroot": true,
	"nsenter": true, "unshare": true, "strace": true, "ltrace": true, "gdb": true, "script": true,
	"expect": true, "tmux": true, "screen": true, "npx": true, "bunx": true, "pnpx": true, "uvx": true,
	"deno": false, "jshell": true, "irb": true, "ghci": true, "powershell": true, "pwsh": true,
}

// exfilTools can send data anywhere; a "cmd *" rule would let any data
// leave the machine, so Always is not offered for them.
var exfilTools = map[string]bool{
	"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "scp": true,
	"sftp": true, "rsync": true, "ftp": true, "tftp": true, "telnet": true, "lftp": true, "http": true,
	"https": true, "xh": true, "aria2c": true, "openssl": true,
}

// narrowRule is the narrowest rule covering the leaf that "Always" may
// save, or "" when none may be offered.
func narrowRule(l *shellparse.Leaf) string {
	name := l.Name()
	if name == "" || len(l.Unknown) > 0 {
		return ""
	}
	base := l.Base()
	if noAlways[base] || shellparse.IsShell(base) || strings.HasPrefix(base, "python") || exfilTools[base] {
		return ""
	}
	parts := []string{quoteWord(name)}
	args := l.Args()
	if subcommandTools[base] {
		i := 0
		for i < len(args) && strings.HasPrefix(args[i].Text, "-") {
			if !args[i].Static() {
				return ""
			}
			parts = append(parts, quoteWord(args[i].Text))
			if base == "git" && (args[i].Text == "-C" || args[i].Text == "-c") && i+1 < len(args) {
				i++
				if !args[i].Static() {
					return ""
				}
				parts = append(parts, quoteWord(args[i].Text))
			}
			i++
		}
		if i < len(args) {
			if !args[i].Static() {
				return ""
			}
			parts = append(parts, quoteWord(args[i].Text))
			if runTools[base] && args[i].Text == "run" && i+1 < len(args) {
				if !args[i+1].Static() {
					return ""
				}
				parts = append(parts, quoteWord(args[i+1].Text))
			}
		}
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
	sf := shortFlags(args, "")
	for _, pw := range p.Words[1:] {
		t := pw.Text
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			if !hasLong(args, strings.TrimPrefix(strings.SplitN(t, "=", 2)[0], "--")) {
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
