package policy

import (
	"strings"
)

// safeCmd describes a command that is read-only when its arguments pass
// check.
type safeCmd struct {
	// reads: the arguments name files whose content is shown.
	reads bool
	// pattern: the first positional is a pattern or script, not a file,
	// unless one of patternFlags is given.
	pattern      bool
	patternFlags string
	// dynOK: dynamic or glob arguments cannot turn it into a writer.
	dynOK bool
	// recursive reports reading directories recursively.
	recursive func(ws []word) bool
	// valueShort lists option letters taking a separate value.
	valueShort string
	// check returns why the arguments are not read-only, or "".
	check func(ws []word) string
}

func forbidShort(letters string, valueLetters string, ws []word) string {
	f := shortFlags(ws, valueLetters)
	for i := 0; i < len(letters); i++ {
		if f[letters[i]] {
			return "option -" + string(letters[i]) + " is not read-only"
		}
	}
	return ""
}

func forbidLong(ws []word, names ...string) string {
	if hasLong(ws, names...) {
		return "option --" + strings.Join(names, "/--") + " is not read-only"
	}
	return ""
}

func first(reasons ...string) string {
	for _, r := range reasons {
		if r != "" {
			return r
		}
	}
	return ""
}

var builtinSafe = map[string]safeCmd{}

func init() {
	plain := []string{"ls", "dir", "vdir", "pwd", "echo", "true", "false", ":", "whoami", "id", "groups",
		"uname", "arch", "nproc", "uptime", "free", "tty", "locale", "cal", "seq", "sleep", "basename",
		"dirname", "realpath", "readlink", "which", "type", "whereis", "stat", "du", "df", "pgrep",
		"w", "who", "lsblk", "lscpu", "lsmod", "lspci", "lsusb", "findmnt", "test", "[", "cd", "pushd",
		"popd", "dirs", "wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
		"cksum", "b2sum", "netstat", "lsof", "[[", "getconf", "logname",
		"users", "vmstat", "iostat", "mpstat", "lsns", "lsipc", "lslocks", "pidof", "numfmt", "expr",
		"factor"}
	for _, n := range plain {
		builtinSafe[n] = safeCmd{dynOK: true}
	}
	readers := []string{"cat", "tac", "nl", "head", "tail", "strings", "od", "hexdump", "base64", "base32",
		"cut", "column", "fold", "expand", "unexpand", "paste", "join", "comm", "cmp", "diff", "tr", "rev",
		"fmt", "look", "zcat", "bzcat", "xzcat"}
	for _, n := range readers {
		builtinSafe[n] = safeCmd{reads: true, dynOK: true, valueShort: "nNcCdfsbtwkeSTFLx"}
	}
	grepRec := func(ws []word) bool {
		f := shortFlags(ws, "efmABCdD")
		return f['r'] || f['R'] || hasLong(ws, "recursive", "dereference-recursive") || anyWord(ws, "recurse")
	}
	for _, n := range []string{"grep", "egrep", "fgrep"} {
		builtinSafe[n] = safeCmd{reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", recursive: grepRec}
	}
	builtinSafe["rg"] = safeCmd{reads: true, pattern: true, patternFlags: "ef", valueShort: "efmABCgtTjMrE",
		recursive: func([]word) bool { return true },
		check:     func(ws []word) string { return forbidLong(ws, "pre", "pre-glob", "hostname-bin") }}
	builtinSafe["find"] = safeCmd{recursive: func([]word) bool { return false }, check: func(ws []word) string {
		for _, w := range ws {
			switch w.Text {
			case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return "find " + w.Text + " is not read-only"
			}
		}
		return ""
	}}
	builtinSafe["sed"] = safeCmd{reads: true, pattern: true, patternFlags: "ef", valueShort: "efl", check: func(ws []word) string {
		if r := first(forbidShort("if", "el", ws), forbidLong(ws, "in-place", "file")); r != "" {
			return r
		}
		scripts := []string{}
		for i, w := range ws {
			if w.Text == "-e" && i+1 < len(ws) {
				scripts = append(scripts, ws[i+1].Text)
			} else if strings.HasPrefix(w.Text, "--expression=") {
				scripts = append(scripts, strings.TrimPrefix(w.Text, "--expression="))
			} else if strings.HasPrefix(w.Text, "-e") && len(w.Text) > 2 {
				scripts = append(scripts, w.Text[2:])
			}
		}
		if len(scripts) == 0 {
			pos := positionals(ws, "el", "expression", "line-length")
			if len(pos) == 0 {
				return "sed without a script"
			}
			scripts = append(scripts, pos[0].Text)
		}
		for _, s := range scripts {
			if !sedReadOnly(s) {
				return "sed script may write files or run commands"
			}
		}
		return ""
	}}
	builtinSafe["sort"] = safeCmd{reads: true, valueShort: "kStTo", check: func(ws []word) string {
		return first(forbidShort("o", "kStT", ws), forbidLong(ws, "output", "compress-program"))
	}}
	builtinSafe["uniq"] = safeCmd{reads: true, valueShort: "fsw", check: func(ws []word) string {
		if len(positionals(ws, "fsw", "skip-fields", "skip-chars", "check-chars")) > 1 {
			return "uniq with an output file"
		}
		return ""
	}}
	builtinSafe["jq"] = safeCmd{reads: true, pattern: true, patternFlags: "f", valueShort: "f", check: func(ws []word) string {
		if r := first(forbidShort("f", "", ws), forbidLong(ws, "from-file")); r != "" {
			return r
		}
		pos := positionals(ws, "", "arg", "argjson", "slurpfile", "rawfile", "indent", "tab")
		if len(pos) > 0 && (strings.Contains(pos[0].Text, "env") || strings.Contains(pos[0].Text, "ENV") || strings.Contains(pos[0].Text, "input_filename") || strings.Contains(pos[0].Text, "$__prog")) {
			return "jq filter reads the environment"
		}
		return ""
	}}
	builtinSafe["printf"] = safeCmd{dynOK: true, check: func(ws []word) string {
		for i, w := range ws {
			if !w.Static() && i == 0 {
				return "printf with a dynamic first argument"
			}
			if w.Text == "-v" {
				if i+1 >= len(ws) || !ws[i+1].Static() || !isIdent(ws[i+1].Text) {
					return "printf -v with a subscript or dynamic name"
				}
			}
			if w.Text == "--" || !strings.HasPrefix(w.Text, "-") {
				break
			}
		}
		return ""
	}}
	builtinSafe["date"] = safeCmd{valueShort: "dfr", check: func(ws []word) string {
		if r := first(forbidShort("s", "dfr", ws), forbidLong(ws, "set")); r != "" {
			return r
		}
		for _, p := range positionals(ws, "dfrI", "date", "file", "reference") {
			if !strings.HasPrefix(p.Text, "+") {
				return "date with an argument that sets the clock"
			}
		}
		return ""
	}}
	builtinSafe["hostname"] = safeCmd{check: func(ws []word) string {
		for _, w := range ws {
			switch w.Text {
			case "-s", "-f", "-d", "-i", "-I", "-A", "-a", "-y", "--short", "--fqdn", "--long", "--domain",
				"--ip-address", "--all-ip-addresses", "--all-fqdns", "--alias", "--yp", "--nis":
			default:
				return "hostname with an argument sets the host name"
			}
		}
		return ""
	}}
	builtinSafe["file"] = safeCmd{dynOK: true, check: func(ws []word) string {
		return first(forbidShort("C", "mfFeP", ws), forbidLong(ws, "compile"))
	}}
	builtinSafe["tree"] = safeCmd{valueShort: "oLPIH", check: func(ws []word) string {
		return first(forbidShort("oR", "LPIH", ws), forbidLong(ws, "output"))
	}}
	builtinSafe["journalctl"] = safeCmd{check: func(ws []word) string {
		return forbidLong(ws, "vacuum-size", "vacuum-time", "vacuum-files", "rotate", "flush", "sync",
			"relinquish-var", "smart-relinquish-var", "update-catalog", "setup-keys", "cursor-file", "new-id128")
	}}
	builtinSafe["dmesg"] = safeCmd{check: func(ws []word) string {
		return first(forbidShort("cCDEn", "", ws), forbidLong(ws, "clear", "read-clear", "console-off", "console-on", "console-level"))
	}}
	builtinSafe["systemctl"] = safeCmd{check: func(ws []word) string {
		if r := first(forbidShort("HM", "", ws), forbidLong(ws, "host", "machine")); r != "" {
			return r
		}
		pos := positionals(ws, "tspnPo", "type", "state", "property", "lines", "output")
		if len(pos) == 0 {
			return ""
		}
		switch pos[0].Text {
		case "status", "list-units", "list-unit-files", "list-timers", "list-sockets", "list-dependencies",
			"list-jobs", "list-machines", "list-paths", "is-active", "is-enabled", "is-failed",
			"is-system-running", "show", "cat", "get-default", "help":
			return ""
		}
		return "systemctl " + pos[0].Text + " changes the system"
	}}
	builtinSafe["mount"] = safeCmd{check: func(ws []word) string {
		for _, w := range ws {
			if w.Text != "-l" && w.Text != "--show-labels" {
				return "mount with arguments mounts"
			}
		}
		return ""
	}}
	builtinSafe["getent"] = safeCmd{check: func(ws []word) string {
		if anyWord(ws, "shadow", "gshadow") {
			return "getent shadow reads password hashes"
		}
		return ""
	}}
	builtinSafe["ss"] = safeCmd{check: func(ws []word) string {
		return first(forbidShort("KD", "fAF", ws), forbidLong(ws, "kill", "diag"))
	}}
	builtinSafe["dpkg"] = safeCmd{check: func(ws []word) string {
		query := false
		for _, w := range ws {
			switch w.Text {
			case "-l", "-L", "-s", "-S", "-p", "--list", "--listfiles", "--status", "--search", "--print-avail",
				"--get-selections", "--print-architecture", "--version":
				query = true
			default:
				if strings.HasPrefix(w.Text, "-") {
					return "dpkg " + w.Text + " is not a query"
				}
			}
		}
		if !query {
			return "dpkg without a query option"
		}
		return ""
	}}
	testCheck := func(ws []word) string {
		for i, w := range ws {
			if (w.Text == "-v" || w.Text == "-R") && i+1 < len(ws) && (!ws[i+1].Static() || strings.Contains(ws[i+1].Text, "[")) {
				return "test -v with a subscript evaluates it as code"
			}
		}
		return ""
	}
	builtinSafe["test"] = safeCmd{dynOK: true, check: testCheck}
	builtinSafe["["] = safeCmd{dynOK: true, check: testCheck}
	builtinSafe["git"] = safeCmd{check: gitReadOnly}
	builtinSafe["ps"] = safeCmd{dynOK: false, check: func(ws []word) string {
		for _, w := range ws {
			if !strings.HasPrefix(w.Text, "-") && strings.ContainsRune(w.Text, 'e') {
				return "ps e shows the environment of processes"
			}
			if strings.Contains(w.Text, "environ") || strings.Contains(w.Text, "args") && strings.Contains(w.Text, "=") {
				return "ps format shows process environments or arguments"
			}
		}
		return ""
	}}
	builtinSafe["command"] = safeCmd{check: func(ws []word) string {
		if anyWord(ws, "-v", "-V") {
			return ""
		}
		return "command runs a command"
	}}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// sedReadOnly accepts sed scripts made only of commands that print or
// edit the pattern space: no w/W/r/R/e, no s///w or s///e.
func sedReadOnly(s string) bool {
	i := 0
	n := len(s)
	skipRegex := func(delim byte) bool {
		i++
		for i < n && s[i] != delim {
			if s[i] == '\\' {
				i++
			}
			if i < n && s[i] == '\n' {
				return false
			}
			i++
		}
		if i >= n {
			return false
		}
		i++
		return true
	}
	for i < n {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' || c == '~' || c == '$' || c >= '0' && c <= '9' || c == '+':
			i++
		case c == '/':
			if !skipRegex('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case c == '\\':
			if i+1 >= n {
				return false
			}
			i++
			if !skipRegex(s[i]) {
				return false
			}
		case c == '#':
			for i < n && s[i] != '\n' {
				i++
			}
		case strings.IndexByte("p=lqQdDnNgGhHxzFP", c) >= 0:
			i++
		case c == 'b' || c == 't' || c == 'T' || c == ':':
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case c == 'a' || c == 'i' || c == 'c':
			for i < n && s[i] != '\n' {
				i++
			}
		case c == 's' || c == 'y':
			if i+1 >= n {
				return false
			}
			i++
			delim := s[i]
			if delim == '\\' || delim == '\n' {
				return false
			}
			if !skipRegex(delim) {
				return false
			}
			i--
			if !skipRegex(delim) {
				return false
			}
			if c == 's' {
				for i < n && strings.IndexByte("gpiImM0123456789", s[i]) >= 0 {
					i++
				}
				if i < n && (s[i] == 'w' || s[i] == 'e' || s[i] == 'W') {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

var gitReadSubs = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "rev-parse": true, "ls-files": true,
	"ls-tree": true, "blame": true, "annotate": true, "shortlog": true, "describe": true, "cat-file": true,
	"rev-list": true, "grep": true, "whatchanged": true, "name-rev": true, "merge-base": true,
	"for-each-ref": true, "show-ref": true, "show-branch": true, "version": true, "check-ignore": true,
	"check-attr": true, "count-objects": true, "diff-tree": true, "diff-files": true, "diff-index": true,
	"var": true, "cherry": true, "range-diff": true,
}

// gitReadOnly accepts read-only git subcommands without options that run
// programs or write files.
func gitReadOnly(ws []word) string {
	i := 0
	for i < len(ws) {
		t := ws[i].Text
		switch {
		case t == "-C":
			i += 2
			continue
		case t == "-c" || strings.HasPrefix(t, "--config-env") || strings.HasPrefix(t, "-c"):
			return "git -c sets configuration that can run programs"
		case strings.HasPrefix(t, "--exec-path="), strings.HasPrefix(t, "--git-dir"), strings.HasPrefix(t, "--work-tree"):
			if t == "--git-dir" || t == "--work-tree" {
				i++
			}
			if strings.HasPrefix(t, "--exec-path=") {
				return "git --exec-path runs programs from another directory"
			}
		case t == "--no-pager" || t == "-P" || t == "--bare" || t == "--no-replace-objects" || t == "--literal-pathspecs" ||
			t == "--no-optional-locks" || t == "--glob-pathspecs" || t == "--noglob-pathspecs" || t == "--icase-pathspecs" ||
			t == "--version" || t == "--exec-path" || t == "--html-path" || t == "--man-path" || t == "--info-path":
		case strings.HasPrefix(t, "-"):
			return "git option " + t + " is not known to be read-only"
		default:
			goto sub
		}
		i++
	}
	return ""
sub:
	sub := ws[i].Text
	rest := ws[i+1:]
	bad := forbidLong(rest, "output", "ext-diff", "textconv", "open-files-in-pager", "exec", "upload-pack", "receive-pack", "run")
	if bad != "" {
		return bad
	}
	switch sub {
	case "branch":
		for _, w := range rest {
			switch w.Text {
			case "-a", "-r", "-l", "--list", "-v", "-vv", "--all", "--remotes", "--show-current", "--no-color", "--color",
				"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "-i", "--ignore-case", "--column", "--no-column":
				continue
			}
			if strings.HasPrefix(w.Text, "--sort=") || strings.HasPrefix(w.Text, "--format=") || strings.HasPrefix(w.Text, "--contains=") ||
				strings.HasPrefix(w.Text, "--merged=") || strings.HasPrefix(w.Text, "--no-merged=") || strings.HasPrefix(w.Text, "--points-at=") {
				continue
			}
			if !strings.HasPrefix(w.Text, "-") && (anyWord(rest, "-l", "--list", "--contains", "--merged", "--no-merged", "--points-at")) {
				continue
			}
			return "git branch " + w.Text + " changes branches"
		}
		return ""
	case "tag":
		if len(rest) == 0 {
			return ""
		}
		if anyWord(rest, "-l", "--list", "-n", "--contains", "--points-at", "--merged", "--no-merged") && !anyWord(rest, "-d", "--delete", "-a", "-s", "-f", "-m", "-F", "-u", "--annotate", "--sign", "--force") {
			return ""
		}
		return "git tag creates or deletes tags"
	case "remote":
		if len(rest) == 0 || (len(rest) == 1 && (rest[0].Text == "-v" || rest[0].Text == "--verbose")) {
			return ""
		}
		if rest[0].Text == "get-url" {
			return ""
		}
		if rest[0].Text == "show" {
			if anyWord(rest, "-n") {
				return ""
			}
			return "git remote show contacts the remote"
		}
		return "git remote changes remotes"
	case "config":
		for _, w := range rest {
			switch w.Text {
			case "--get", "--get-all", "--get-regexp", "--list", "-l", "--show-origin", "--show-scope", "--name-only", "--get-urlmatch", "--null", "-z":
				if w.Text == "--list" || w.Text == "-l" {
					return ""
				}
			}
		}
		pos := positionals(rest, "f", "file", "blob", "type")
		if anyWord(rest, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "get") || len(pos) == 1 {
			if anyWord(rest, "--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit", "set", "unset") {
				return "git config changes configuration"
			}
			return ""
		}
		return "git config changes configuration"
	case "stash":
		if len(rest) > 0 && (rest[0].Text == "list" || rest[0].Text == "show") {
			return ""
		}
		return "git stash changes the working tree"
	case "worktree":
		if len(rest) > 0 && rest[0].Text == "list" {
			return ""
		}
		return "git worktree changes worktrees"
	case "submodule":
		if len(rest) > 0 && rest[0].Text == "status" {
			return ""
		}
		return "git submodule changes submodules"
	case "reflog":
		if len(rest) == 0 || rest[0].Text == "show" {
			return ""
		}
		return "git reflog " + rest[0].Text + " changes the reflog"
	case "notes":
		if len(rest) == 0 || rest[0].Text == "list" || rest[0].Text == "show" {
			return ""
		}
		return "git notes changes notes"
	case "grep":
		if r := forbidShort("O", "efABCm", rest); r != "" {
			return r
		}
		return ""
	}
	if gitReadSubs[sub] {
		return ""
	}
	return "git " + sub + " is not known to be read-only"
}
