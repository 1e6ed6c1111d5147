package policy

import (
	"regexp"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
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
	// endless: reading an endless device (/dev/zero, /dev/urandom) never
	// ends unless a later pipeline stage stops reading.
	endless bool
}

// endlessDevice names an endless device among the arguments.
func endlessDevice(ws []word) string {
	for _, w := range ws {
		switch w.Text {
		case "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full":
			return "reads " + w.Text + ", which never ends"
		}
	}
	return ""
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
		builtinSafe[n] = safeCmd{reads: true, dynOK: true, valueShort: "nNcCdfsbtwkeSTFLx", endless: true}
	}
	for _, n := range []string{"base64", "base32"} {
		// macOS base64 writes FILE with -o FILE / --output; -i FILE is its input
		builtinSafe[n] = safeCmd{reads: true, dynOK: true, valueShort: "wio", endless: true, check: func(ws []word) string {
			return first(forbidShort("o", "wi", ws), forbidLong(ws, "output"))
		}}
	}
	// bounded reads of endless devices are fine: head -c 16 /dev/urandom
	builtinSafe["head"] = safeCmd{reads: true, dynOK: true, valueShort: "nc"}
	builtinSafe["tail"] = safeCmd{reads: true, dynOK: true, valueShort: "ncs", endless: true}
	builtinSafe["diff"] = safeCmd{reads: true, dynOK: true, valueShort: "CUDFILSWXx", recursive: func(ws []word) bool {
		return shortFlags(ws, "CUDFILSWXx")['r'] || hasLong(ws, "recursive")
	}}
	grepRec := func(ws []word) bool {
		f := shortFlags(ws, "efmABCdD")
		if f['r'] || f['R'] || hasLong(ws, "recursive", "dereference-recursive") {
			return true
		}
		for _, v := range optionValues(ws, 'd', "efmABCdD", "directories") {
			if v != "read" && v != "skip" {
				return true
			}
		}
		return false
	}
	grepCheck := func(ws []word) string {
		for _, w := range ws {
			if w.Text == "--" {
				break
			}
			if n, _, _ := strings.Cut(strings.TrimPrefix(w.Text, "--"), "="); strings.HasPrefix(w.Text, "--") && n != "" && shellparse.ResolveLong(n, grepLongs) == "" {
				return "grep option " + w.Text + " is not known"
			}
		}
		return ""
	}
	for _, n := range []string{"grep", "egrep", "fgrep"} {
		builtinSafe[n] = safeCmd{reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", recursive: grepRec, check: grepCheck}
	}
	builtinSafe["rg"] = safeCmd{reads: true, pattern: true, patternFlags: "ef", valueShort: "efmABCgtTjMrE",
		recursive: func([]word) bool { return true },
		check: func(ws []word) string {
			// -z runs decompression programs found on PATH
			return first(forbidLong(ws, "pre", "pre-glob", "hostname-bin", "search-zip"), forbidShort("z", "efmABCgtTjMrE", ws))
		}}
	builtinSafe["find"] = safeCmd{recursive: func([]word) bool { return false }, check: func(ws []word) string {
		for _, w := range ws {
			switch w.Text {
			case "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return "find " + w.Text + " is not read-only"
			}
		}
		return ""
	}}
	builtinSafe["sed"] = safeCmd{reads: true, pattern: true, patternFlags: "ef", valueShort: "efl", check: sedCheck}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk"} {
		builtinSafe[n] = safeCmd{reads: true, pattern: true, valueShort: "Fv", check: awkCheck}
	}
	builtinSafe["go"] = safeCmd{check: func(ws []word) string {
		if len(ws) == 1 && ws[0].Text == "version" {
			return ""
		}
		if len(ws) > 1 && ws[0].Text == "env" {
			for _, w := range ws[1:] {
				if !goEnvVars[w.Text] {
					return "go env " + w.Text + " is not known to be read-only and secret-free"
				}
			}
			return ""
		}
		return "go is not on the safe list"
	}}
	builtinSafe["xxd"] = safeCmd{reads: true, valueShort: "cglosn"}
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
		// modules and data files are read from the search path
		if shortFlags(ws, "")['L'] || hasLong(ws, "library-path") {
			return "jq -L reads modules and data files from a directory"
		}
		for _, w := range ws {
			if strings.Contains(w.Text, "import") || strings.Contains(w.Text, "include") {
				return "jq filter imports modules or data files"
			}
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
		// tree reads option letters one by one, not as getopt clusters:
		// -Ho is -H and -o
		return first(forbidShort("oR", "", ws), forbidLong(ws, "output"))
	}}
	builtinSafe["journalctl"] = safeCmd{check: func(ws []word) string {
		// -H reads another host's journal over ssh
		if why := first(forbidShort("HM", "DiSUcutTpgonF", ws), forbidLong(ws, "host", "machine")); why != "" {
			return why
		}
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
			"is-system-running", "get-default", "help":
			return ""
		case "cat":
			return "systemctl cat prints unit files, whose Environment= lines may hold secrets"
		case "show":
			if props, ok := systemctlProperties(ws); ok && !slices.ContainsFunc(props, func(p string) bool {
				return strings.Contains(strings.ToLower(p), "environment")
			}) {
				return ""
			}
			return "systemctl show prints every property, Environment= (which may hold secrets) among them, unless -p names others"
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
		if anyWord(ws, "hosts", "ahosts", "ahostsv4", "ahostsv6", "networks") && len(positionals(ws, "s")) > 1 {
			return "getent hosts looks names up over the network"
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

// secretKey matches configuration keys and search patterns that name
// credentials.
var secretKey = regexp.MustCompile(`(?i)url|header|token|passw|secret|credential|api[_-]?key|private[_-]?key|auth|cookie|BEGIN .*PRIVATE`)

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

var goEnvVars = map[string]bool{
	"GOPATH": true, "GOROOT": true, "GOOS": true, "GOARCH": true, "GOVERSION": true, "GOMODCACHE": true,
	"GOCACHE": true, "GOBIN": true, "GOEXE": true, "GOHOSTOS": true, "GOHOSTARCH": true, "GOMOD": true,
	"GOWORK": true, "CGO_ENABLED": true, "GOAMD64": true, "GOARM": true, "GOTOOLDIR": true,
}

// awkCheck accepts an awk program given as the first argument that only
// computes and prints to standard output.
func awkCheck(ws []word) string {
	var prog *word
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		switch {
		case t == "-F" || t == "-v":
			i++
		case strings.HasPrefix(t, "-F") || strings.HasPrefix(t, "-v") && len(t) > 2:
		case strings.HasPrefix(t, "--field-separator=") || strings.HasPrefix(t, "--assign="):
		case t == "--":
			if i+1 < len(ws) && prog == nil {
				prog = &ws[i+1]
			}
			i = len(ws)
		case strings.HasPrefix(t, "-") && t != "-":
			return "awk option " + t + " is not known to be read-only"
		default:
			if prog == nil {
				prog = &ws[i]
			}
		}
	}
	if prog == nil {
		return "awk without a program"
	}
	if !prog.Static() {
		return "awk program chosen at run time"
	}
	if why := awkProgramWhy(prog.Text); why != "" {
		return why
	}
	return ""
}

var grepLongs = []string{"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "regexp", "file",
	"ignore-case", "no-ignore-case", "word-regexp", "line-regexp", "null-data", "no-messages", "invert-match",
	"version", "help", "max-count", "byte-offset", "line-number", "no-line-number", "line-buffered",
	"with-filename", "no-filename", "label", "only-matching", "quiet", "silent", "binary-files", "text",
	"directories", "devices", "recursive", "dereference-recursive", "include", "exclude", "exclude-from",
	"exclude-dir", "files-without-match", "files-with-matches", "count", "initial-tab", "null",
	"before-context", "after-context", "context", "color", "colour", "binary", "no-group-separator", "group-separator"}

var sedLongs = []string{"expression", "file", "line-length", "in-place", "null-data", "zero-terminated",
	"quiet", "silent", "regexp-extended", "separate", "unbuffered", "posix", "sandbox", "debug",
	"follow-symlinks", "binary", "help", "version"}

// sedCheck reads sed's options as GNU getopt does (clusters such as -nse,
// abbreviations such as --expr=) and accepts only read-only scripts.
func sedCheck(ws []word) string {
	var scripts []string
	script := func(w word) string {
		if !w.Static() {
			return "sed script chosen at run time"
		}
		scripts = append(scripts, w.Text)
		return ""
	}
	var operands []word
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		t := w.Text
		if !w.Static() {
			if strings.HasPrefix(w.Raw, "-") || strings.HasPrefix(w.Raw, "$") || strings.HasPrefix(w.Raw, "\"$") {
				return "sed option chosen at run time"
			}
			operands = append(operands, w)
			continue
		}
		switch {
		case t == "--":
			operands = append(operands, ws[i+1:]...)
			i = len(ws)
		case strings.HasPrefix(t, "--"):
			name, val, eq := strings.Cut(t[2:], "=")
			long := shellparse.ResolveLong(name, sedLongs)
			switch long {
			case "":
				return "sed option " + t + " is not known"
			case "in-place":
				return "sed --in-place writes files"
			case "file":
				return "sed --file reads a script from a file"
			case "expression", "line-length":
				if !eq {
					if i+1 >= len(ws) {
						return "sed " + t + " without a value"
					}
					i++
					val = ws[i].Text
					if long == "expression" {
						if r := script(ws[i]); r != "" {
							return r
						}
						continue
					}
				}
				if long == "expression" {
					scripts = append(scripts, val)
				}
			}
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				c := t[j]
				switch c {
				case 'i':
					return "sed -i writes files"
				case 'f':
					return "sed -f reads a script from a file"
				case 'e', 'l':
					var v word
					if j+1 < len(t) {
						v = word{Text: t[j+1:], Raw: t[j+1:]}
					} else if i+1 < len(ws) {
						i++
						v = ws[i]
					} else {
						return "sed -" + string(c) + " without a value"
					}
					if c == 'e' {
						if r := script(v); r != "" {
							return r
						}
					}
					j = len(t)
				case 'n', 'r', 'E', 's', 'u', 'z', 'b':
				default:
					return "sed option -" + string(c) + " is not known to be read-only"
				}
			}
		default:
			operands = append(operands, w)
		}
	}
	if len(scripts) == 0 {
		if len(operands) == 0 {
			return "sed without a script"
		}
		if r := script(operands[0]); r != "" {
			return r
		}
	}
	return sedScriptWhy(scripts)
}

// sedScriptWhy says why sed scripts (the -e expressions of one command)
// are not read-only, or "". sed joins its expressions with newlines; each
// is also read on its own, and whatever either reading finds counts.
func sedScriptWhy(scripts []string) string {
	eff := sedScan(strings.Join(scripts, "\n"))
	for _, s := range scripts {
		eff = eff.or(sedScan(s))
	}
	switch {
	case eff.write:
		return "sed script may write files (w, W or s///w)"
	case eff.exec:
		return "sed script runs commands (e or s///e)"
	case eff.read:
		return "sed script reads files (r or R)"
	case eff.bad:
		return "sed script is not understood"
	}
	return ""
}

// sedWrites reports whether sed's arguments edit files in place or run a
// script that writes files.
func sedWrites(ws []word) bool {
	f := shortFlags(ws, "efl")
	if f['i'] || hasLong(ws, "in-place") {
		return true
	}
	r := sedCheck(ws)
	return strings.HasPrefix(r, "sed script may write") || strings.HasPrefix(r, "sed script runs")
}

// systemctlProperties lists the properties named by -p/-P/--property; ok
// is false when none is named (systemctl then shows them all).
func systemctlProperties(ws []word) (props []string, ok bool) {
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		var v string
		switch {
		case t == "-p" || t == "-P" || t == "--property":
			if i+1 >= len(ws) {
				return nil, false
			}
			i++
			v = ws[i].Text
		case strings.HasPrefix(t, "--property="):
			v = strings.TrimPrefix(t, "--property=")
		case len(t) > 2 && (strings.HasPrefix(t, "-p") || strings.HasPrefix(t, "-P")):
			v = t[2:]
		default:
			continue
		}
		props = append(props, strings.Split(v, ",")...)
	}
	return props, len(props) > 0
}
