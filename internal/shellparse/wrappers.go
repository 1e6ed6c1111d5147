package shellparse

import (
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
)

// optSpec describes a wrapper's options so its wrapped command can be
// found.
type optSpec struct {
	// short lists option letters that take a value.
	short string
	// long lists long options (without --) that take a value.
	long []string
	// positional is the number of non-option words before the command
	// (timeout's duration).
	positional int
}

// scanOpts returns the index in args where the wrapped command starts, or
// -1 when an option word is dynamic.
func scanOpts(args []Word, spec optSpec) int {
	i := 0
	for i < len(args) {
		w := args[i]
		if !w.Static() {
			if w.Raw == "" || w.Raw[0] == '-' || w.Raw[0] == '$' || w.Raw[0] == '"' || w.Raw[0] == '\'' || w.Raw[0] == '`' {
				return -1
			}
			break
		}
		t := w.Text
		if t == "--" {
			i++
			break
		}
		if strings.HasPrefix(t, "--") {
			name, _, hasEq := strings.Cut(t[2:], "=")
			i++
			if !hasEq && longTakesValue(name, spec.long) {
				i++
			}
			continue
		}
		if len(t) > 1 && t[0] == '-' {
			i++
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(spec.short, t[j]) >= 0 {
					if j == len(t)-1 {
						i++
					}
					break
				}
			}
			continue
		}
		break
	}
	for k := 0; k < spec.positional && i < len(args); k++ {
		if !args[i].Static() {
			return -1
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	return i
}

// longTakesValue reports whether name, or an unambiguous abbreviation of
// it, is one of the value-taking long options.
func longTakesValue(name string, long []string) bool {
	for _, l := range long {
		if name == l || (len(name) >= 2 && strings.HasPrefix(l, name)) {
			return true
		}
	}
	return false
}

// hasShortFlag reports whether letter appears in any option cluster before
// the first non-option argument (or "--").
func hasShortFlag(args []Word, letter byte, valueLetters string) bool {
	for _, w := range args {
		t := w.Text
		if t == "--" || !strings.HasPrefix(t, "-") || strings.HasPrefix(t, "--") || len(t) < 2 {
			if t == "--" || !strings.HasPrefix(t, "-") {
				return false
			}
			continue
		}
		for j := 1; j < len(t); j++ {
			if t[j] == letter {
				return true
			}
			if strings.IndexByte(valueLetters, t[j]) >= 0 {
				break
			}
		}
	}
	return false
}

// IsShell reports whether name is a shell whose scripts are bash-like
// (the command base knows).
func IsShell(name string) bool { return cmdbase.Unix(name).Has(cmdbase.Shell) }

func (a *analyser) unwrap(l *Leaf, ctx *walkCtx) {
	args := l.Args()
	name := l.Base()
	wrap := func(spec optSpec) {
		i := scanOpts(args, spec)
		if i < 0 {
			l.Unknown = append(l.Unknown, "dynamic option to "+name)
			return
		}
		a.inner(l, args[i:], name, ctx, false)
	}
	switch name {
	case "env":
		a.env(l, args, ctx)
	case "timeout":
		wrap(optSpec{short: "sk", long: []string{"signal", "kill-after"}, positional: 1})
	case "nice":
		wrap(optSpec{short: "n", long: []string{"adjustment"}})
	case "nohup", "builtin":
		wrap(optSpec{})
	case "time":
		wrap(optSpec{short: "fo", long: []string{"format", "output"}})
	case "command":
		if hasShortFlag(args, 'v', "") || hasShortFlag(args, 'V', "") {
			return
		}
		wrap(optSpec{})
	case "exec":
		wrap(optSpec{short: "a"})
	case "stdbuf":
		wrap(optSpec{short: "ioe", long: []string{"input", "output", "error"}})
	case "ionice":
		if hasShortFlag(args, 'p', "cn") || hasShortFlag(args, 'P', "cn") || hasShortFlag(args, 'u', "cn") {
			return
		}
		wrap(optSpec{short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}})
	case "setsid", "unbuffer", "chronic":
		wrap(optSpec{})
	case "sudo":
		if hasShortFlag(args, 'e', "ugCDhprtTU") {
			l.Unknown = append(l.Unknown, "sudo -e edits files as root")
			return
		}
		i := scanOpts(args, optSpec{short: "ugCDhprtTU", long: []string{"user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user"}})
		if i < 0 {
			l.Unknown = append(l.Unknown, "dynamic option to sudo")
			return
		}
		if i >= len(args) && (hasShortFlag(args, 's', "ugCDhprtTU") || hasShortFlag(args, 'i', "ugCDhprtTU")) {
			l.Unknown = append(l.Unknown, "sudo starts a root shell")
			return
		}
		a.inner(l, args[i:], "sudo", ctx, false)
	case "doas":
		wrap(optSpec{short: "uC"})
	case "su", "runuser":
		for i, w := range args {
			if !w.Static() {
				l.Unknown = append(l.Unknown, "dynamic argument to "+name)
				return
			}
			t := w.Text
			if (t == "-c" || t == "--command" || t == "--session-command") && i+1 < len(args) {
				a.script(l, args[i+1], name+" -c", ctx)
				return
			}
			if v, ok := strings.CutPrefix(t, "--command="); ok {
				a.script(l, Word{Text: v, Raw: v}, name+" -c", ctx)
				return
			}
		}
	case "xargs":
		a.xargs(l, args, ctx)
	case "watch":
		i := scanOpts(args, optSpec{short: "nq", long: []string{"interval", "equexit"}})
		if i < 0 {
			l.Unknown = append(l.Unknown, "dynamic option to watch")
			return
		}
		if hasShortFlag(args, 'x', "nq") || hasLong(args[:i], "exec") {
			a.inner(l, args[i:], "watch", ctx, false)
			return
		}
		if i < len(args) {
			a.script(l, joinWords(args[i:]), "watch", ctx)
		}
	case "at", "batch":
		// the job's commands are read from standard input
		for _, r := range l.Redirs {
			if r.Heredoc {
				l.Unknown = append(l.Unknown, name+" runs commands later")
				a.seen(l, r.Body, name, ctx)
				return
			}
		}
		if l.StdinFromPipe {
			a.seen(l, ctx.pipeText, name, ctx)
		}
	case "gdb":
		// gdb -ex 'shell CMD' (or '!CMD') runs CMD through a shell
		for k, w := range args {
			if (w.Text == "-ex" || w.Text == "--ex" || w.Text == "-eval-command" || w.Text == "--eval-command") && k+1 < len(args) {
				v := args[k+1]
				rest, ok := strings.CutPrefix(strings.TrimSpace(v.Text), "shell ")
				if !ok {
					rest, ok = strings.CutPrefix(strings.TrimSpace(v.Text), "!")
				}
				if ok {
					a.script(l, Word{Text: rest, Raw: v.Raw, Dynamic: v.Dynamic}, "gdb shell", ctx)
				}
			}
		}
	case "start-stop-daemon":
		// --exec PROGRAM (or --startas) runs PROGRAM with the words after --
		prog := Word{}
		for k, w := range args {
			t := w.Text
			if (t == "--exec" || t == "-x" || t == "--startas" || t == "-a") && k+1 < len(args) {
				prog = args[k+1]
			} else if v, ok := strings.CutPrefix(t, "--exec="); ok {
				prog = Word{Text: v, Raw: v}
			} else if v, ok := strings.CutPrefix(t, "--startas="); ok {
				prog = Word{Text: v, Raw: v}
			}
			if t == "--" {
				if prog.Text != "" {
					a.inner(l, append([]Word{prog}, args[k+1:]...), name, ctx, false)
				}
				return
			}
		}
		if prog.Text != "" {
			a.inner(l, []Word{prog}, name, ctx, false)
		}
	case "capsh":
		for i, w := range args {
			if w.Text == "--" {
				a.shell(l, args[i+1:], ctx)
				break
			}
		}
	case "busybox":
		a.inner(l, args, "busybox", ctx, false)
	case "eval":
		if len(args) > 0 && args[0].Text == "--" {
			args = args[1:]
		}
		if len(args) > 0 {
			a.script(l, joinWords(args), "eval", ctx)
		}
	case "flock":
		// flock [options] FILE COMMAND… | FILE -c SCRIPT | FD
		i := scanOpts(args, optSpec{short: "Ewc", long: []string{"exit-code", "timeout", "wait", "command", "conflict-exit-code"}})
		if i < 0 {
			l.Unknown = append(l.Unknown, "dynamic option to flock")
			return
		}
		for k, w := range args {
			if (w.Text == "-c" || w.Text == "--command") && k+1 < len(args) {
				a.script(l, args[k+1], "flock -c", ctx)
				return
			}
		}
		if i+1 < len(args) {
			a.inner(l, args[i+1:], "flock", ctx, false)
		}
	case "strace", "ltrace":
		wrap(optSpec{short: "abeEIoOpPsSuXUnA", long: []string{"output", "expr", "env", "attach", "string-limit", "user", "signal", "trace", "trace-path", "status", "columns", "const-print-style", "decode-pids", "decode-fds", "quiet", "silence", "stack-traces", "absolute-timestamps", "relative-timestamps", "summary-sort-by", "summary-columns", "kill-on-exit", "argv0"}})
	case "taskset":
		if hasShortFlag(args, 'p', "") || hasLong(args, "pid") {
			return
		}
		wrap(optSpec{positional: 1})
	case "trap":
		rest := args
		for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") && rest[0].Text != "-" {
			if rest[0].Text == "--" {
				rest = rest[1:]
				break
			}
			rest = rest[1:]
		}
		if len(rest) >= 2 && rest[0].Text != "-" && rest[0].Text != "" {
			a.script(l, rest[0], "trap", ctx)
		}
	case "fc":
		if !hasShortFlag(args, 'l', "e") {
			// fc -s and fc -e re-run commands from the history list (a
			// script can fill it: history -s 'rm -rf ~'; fc -s)
			l.Unknown = append(l.Unknown, "fc re-runs commands from the history")
		}
	case "hash":
		// hash -p FILE NAME makes NAME run FILE from then on
		for _, w := range args {
			if !w.Static() || strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "--") && strings.Contains(w.Text, "p") {
				l.Unknown = append(l.Unknown, "hash -p makes a name run another program")
				break
			}
		}
	case "compgen", "complete":
		// -C COMMAND runs a command (compgen now, complete when completing),
		// -F FUNCTION calls a shell function
		for k, w := range args {
			t := w.Text
			switch {
			case t == "-C" && k+1 < len(args):
				start := len(a.res.Leaves)
				a.script(l, args[k+1], name+" -C", ctx)
				for _, in := range a.res.Leaves[start:] {
					in.ArgsAppended = true
				}
			case !w.Static() || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "CF"):
				l.Unknown = append(l.Unknown, name+" -C or -F runs a command or a shell function")
			}
		}
	case "alias":
		for _, w := range args {
			if _, v, ok := strings.Cut(w.Text, "="); ok {
				if w.Dynamic {
					l.Unknown = append(l.Unknown, "alias with a dynamic value")
					continue
				}
				if t := strings.TrimRight(v, " \t"); t != "" && strings.ContainsAny(t[len(t)-1:], ";&|\n({!") {
					// alias x='true;' makes x rm -rf ~ run rm
					l.Unknown = append(l.Unknown, "alias whose value ends in an operator runs the words after it as a command")
				}
				// bash appends the words after the alias name where it is
				// used: alias l=cat; l secret runs cat secret
				start := len(a.res.Leaves)
				a.script(l, Word{Text: v, Raw: v}, "alias", ctx)
				for _, in := range a.res.Leaves[start:] {
					in.ArgsAppended = true
				}
			}
		}
	case "find":
		a.findExec(l, args, ctx)
	default:
		if IsShell(name) {
			a.shell(l, args, ctx)
		}
	}
}

func hasLong(args []Word, name string) bool {
	for _, w := range args {
		n, _, _ := strings.Cut(strings.TrimPrefix(w.Text, "--"), "=")
		if strings.HasPrefix(w.Text, "--") && len(n) >= 2 && strings.HasPrefix(name, n) {
			return true
		}
	}
	return false
}

func joinWords(ws []Word) Word {
	var texts, raws []string
	dyn := false
	for _, w := range ws {
		texts = append(texts, w.Text)
		raws = append(raws, w.Raw)
		if !w.Static() {
			dyn = true
		}
	}
	return Word{Text: strings.Join(texts, " "), Raw: strings.Join(raws, " "), Dynamic: dyn}
}

// shell handles bash -c 'script' and friends.
func (a *analyser) shell(l *Leaf, args []Word, ctx *walkCtx) {
	flagC := false
	i := 0
	for i < len(args) {
		w := args[i]
		if !w.Static() {
			if flagC && w.Text != "" && !strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "+") {
				break // the script, with parts replaced at run time (xargs -I)
			}
			l.Unknown = append(l.Unknown, "dynamic option to "+l.Base())
			return
		}
		t := w.Text
		if t == "--" || t == "-" {
			i++
			break
		}
		if strings.HasPrefix(t, "--") {
			i++
			if t == "--rcfile" || t == "--init-file" {
				i++
			}
			continue
		}
		if len(t) > 1 && (t[0] == '-' || t[0] == '+') {
			i++
			if strings.ContainsRune(t[1:], 'c') {
				flagC = true
			}
			i += strings.Count(t[1:], "o") + strings.Count(t[1:], "O")
			continue
		}
		break
	}
	if !flagC {
		if i < len(args) && !hasShortFlag(args, 's', "oO") {
			return // runs a script file
		}
		// the script is read from standard input
		for _, r := range l.Redirs {
			if r.Heredoc {
				a.script(l, Word{Text: r.Body, Raw: r.Body, Dynamic: !r.Target.Static() && r.Op == "<<<"}, l.Base()+" <<", ctx)
				return
			}
			if r.Read {
				l.Unknown = append(l.Unknown, l.Base()+" runs a script read from "+r.Target.Raw)
				return
			}
		}
		if l.StdinFromPipe {
			l.Unknown = append(l.Unknown, l.Base()+" runs a script read from a pipe")
			a.seen(l, ctx.pipeText, l.Base()+" reading a pipe", ctx)
		}
		return
	}
	if i >= len(args) {
		l.Unknown = append(l.Unknown, l.Base()+" -c without a script")
		return
	}
	a.script(l, args[i], l.Base()+" -c", ctx)
	if args[i].Static() && i+1 < len(args) {
		for _, w := range args[i+1:] {
			if !w.Static() {
				return
			}
		}
		if text, ok := substituteArgs(args[i].Text, args[i+1:]); ok {
			l.Unknown = append(l.Unknown, l.Base()+" -c script uses its arguments")
			a.seen(l, text, l.Base()+" -c with its arguments", ctx)
		}
	}
}

func (a *analyser) xargs(l *Leaf, args []Word, ctx *walkCtx) {
	spec := optSpec{short: "adEILnPs", long: []string{"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}}
	i := scanOpts(args, spec)
	if i < 0 {
		l.Unknown = append(l.Unknown, "dynamic option to xargs")
		return
	}
	repl := ""
	for k := 0; k < i; k++ {
		t := args[k].Text
		switch {
		case t == "-I" && k+1 < i:
			repl = args[k+1].Text
		case strings.HasPrefix(t, "-I") && len(t) > 2:
			repl = t[2:]
		case t == "-i" || t == "--replace":
			repl = "{}"
		case strings.HasPrefix(t, "-i") && len(t) > 2 && !strings.ContainsAny(t[1:2], "adEILnPs"):
			repl = t[2:]
		case strings.HasPrefix(t, "--replace="):
			repl = strings.TrimPrefix(t, "--replace=")
		}
	}
	inner := append([]Word(nil), args[i:]...)
	if len(inner) == 0 {
		inner = []Word{{Text: "echo", Raw: "echo"}}
	}
	if repl != "" {
		for k := range inner {
			if strings.Contains(inner[k].Text, repl) {
				inner[k].Dynamic = true
				if ctx.pipeText != "" && !strings.Contains(ctx.pipeText, "\n") {
					// best guess of the value: what echo feeds it
					inner[k].Text = strings.ReplaceAll(inner[k].Text, repl, ctx.pipeText)
				}
			}
		}
	}
	a.inner(l, inner, "xargs", ctx, repl == "")
}

func (a *analyser) findExec(l *Leaf, args []Word, ctx *walkCtx) {
	for i := 0; i < len(args); i++ {
		switch args[i].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j].Text != ";" && !(args[j].Text == "+" && j > i+1 && args[j-1].Text == "{}") {
				j++
			}
			inner := append([]Word(nil), args[i+1:j]...)
			for k := range inner {
				if strings.Contains(inner[k].Text, "{}") {
					inner[k].Dynamic = true
				}
			}
			appended := j < len(args) && args[j].Text == "+"
			if j >= len(args) {
				l.Unknown = append(l.Unknown, "find "+args[i].Text+" without a terminating ;")
			}
			if len(inner) > 0 {
				a.inner(l, inner, "find "+args[i].Text, ctx, appended)
			}
			i = j
		}
	}
}

// assignName returns NAME for a NAME=value word.
func assignName(w Word) (string, bool) {
	n, _, ok := strings.Cut(w.Raw, "=")
	if !ok || n == "" {
		return "", false
	}
	for i, r := range n {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "", false
		}
	}
	return n, true
}

var envLongs = []string{"ignore-environment", "null", "unset", "chdir", "split-string", "block-signal",
	"default-signal", "ignore-signal", "list-signal-handling", "debug", "help", "version", "argv0"}

// ResolveLong returns the long option name (among longs) that name, or an
// abbreviation of it, selects as GNU getopt_long does; "" when it selects
// none or is ambiguous.
func ResolveLong(name string, longs []string) string {
	found := ""
	for _, l := range longs {
		if l == name {
			return l
		}
		if name != "" && strings.HasPrefix(l, name) {
			if found != "" {
				return ""
			}
			found = l
		}
	}
	return found
}

// env runs its command with assignments; -S (--split-string) splits a
// string into the command and its arguments.
func (a *analyser) env(l *Leaf, args []Word, ctx *walkCtx) {
	var split []Word
	i := 0
scan:
	for i < len(args) {
		w := args[i]
		if !w.Static() {
			if w.Raw == "" || strings.ContainsAny(w.Raw[:1], "-$\"'`") {
				l.Unknown = append(l.Unknown, "dynamic option to env")
				return
			}
			break
		}
		t := w.Text
		switch {
		case t == "--":
			i++
			break scan
		case t == "-":
			i++
		case strings.HasPrefix(t, "--"):
			name, val, hasEq := strings.Cut(t[2:], "=")
			long := ResolveLong(name, envLongs)
			if long == "" {
				l.Unknown = append(l.Unknown, "unknown env option "+t)
				return
			}
			i++
			switch long {
			case "unset", "chdir", "split-string", "argv0":
				if !hasEq {
					if i >= len(args) {
						break
					}
					w = args[i]
					i++
				} else {
					w = Word{Text: val, Raw: val}
				}
				if long == "split-string" {
					split = append(split, w)
				}
				if long == "chdir" {
					l.Unknown = append(l.Unknown, "env --chdir runs the command in another directory")
				}
			}
		case len(t) > 1 && t[0] == '-':
			i++
			for j := 1; j < len(t); j++ {
				if strings.IndexByte("uCSa", t[j]) >= 0 {
					v := Word{Text: t[j+1:], Raw: t[j+1:]}
					if j+1 >= len(t) && i < len(args) {
						v = args[i]
						i++
					}
					if t[j] == 'S' {
						split = append(split, v)
					}
					if t[j] == 'C' {
						l.Unknown = append(l.Unknown, "env -C runs the command in another directory")
					}
					break
				}
			}
		default:
			break scan
		}
	}
	for i < len(args) {
		n, _, ok := strings.Cut(args[i].Text, "=")
		if !args[i].Static() {
			n, ok = assignName(args[i])
		}
		if !ok || n == "" {
			break
		}
		if args[i].Static() {
			_, v, _ := strings.Cut(args[i].Text, "=")
			a.hook(n, Word{Text: v, Raw: v}, ctx)
		}
		l.EnvAssigns = append(l.EnvAssigns, n)
		i++
	}
	if len(split) > 0 {
		l.Unknown = append(l.Unknown, "env -S splits a string into a command")
		parts := []Word{}
		parts = append(parts, split...)
		parts = append(parts, args[i:]...)
		a.script(l, joinWords(parts), "env -S", ctx)
		return
	}
	a.inner(l, args[i:], "env", ctx, false)
}
