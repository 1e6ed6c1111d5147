package shellparse

import (
	"slices"
	"strings"
)

// optSpec describes a wrapper's options so its wrapped command can be
// found.
type optSpec struct {
	// short lists option letters that take a value.
	short string
	// long lists long options (without --) that take a value.
	long []string
	// optional lists long options whose value is optional: getopt_long
	// takes it only when attached (--eof=x), so --eof cat runs cat.
	optional []string
	// flags lists the long options that take no value. When it is set,
	// long, optional and flags are the program's whole set of long
	// options, and an abbreviation is resolved against all of them as
	// getopt_long does (--p is --process-slot-var when nothing else
	// starts with p; an ambiguous or unknown one makes the program refuse
	// to run, and nb says it cannot read it).
	flags []string
	// positional is the number of non-option words before the command
	// (timeout's duration).
	positional int
	// none and noneLong are short and long options with which the
	// wrapper runs no command (command -v, ionice -p, taskset -p).
	none     string
	noneLong string
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
			if spec.flags != nil {
				full := ResolveLong(name, spec.allLongs())
				if full == "" {
					return -1
				}
				if !hasEq && slices.Contains(spec.long, full) {
					i++
				}
				continue
			}
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

// allLongs returns every long option of the spec.
func (s optSpec) allLongs() []string {
	return slices.Concat(s.long, s.optional, s.flags)
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

// wrappers run the command that follows their options; the spec says
// which options take a value, how many operands come first (timeout's
// duration), and the options with which they run nothing.
var wrappers = map[string]optSpec{
	"timeout": {short: "sk", long: []string{"signal", "kill-after"}, positional: 1,
		flags: []string{"foreground", "preserve-status", "verbose", "help", "version"}},
	"nice":  {short: "n", long: []string{"adjustment"}, flags: []string{"help", "version"}},
	"nohup": {}, "builtin": {}, "setsid": {}, "unbuffer": {}, "chronic": {},
	"time": {short: "fo", long: []string{"format", "output"},
		flags: []string{"append", "portability", "quiet", "verbose", "help", "version"}},
	"command": {none: "vV"},
	"exec":    {short: "a"},
	"stdbuf":  {short: "ioe", long: []string{"input", "output", "error"}, flags: []string{"help", "version"}},
	"ionice": {short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}, none: "pPu",
		flags: []string{"ignore", "help", "version"}},
	"doas":    {short: "uC"},
	"taskset": {positional: 1, none: "p", noneLong: "pid"},
	"strace": {short: "abeEIoOpPsSuXUnA", long: []string{"output", "expr", "env", "attach", "string-limit", "user", "signal",
		"trace", "trace-path", "status", "columns", "const-print-style", "decode-pids", "decode-fds", "quiet", "silence",
		"stack-traces", "absolute-timestamps", "relative-timestamps", "summary-sort-by", "summary-columns", "kill-on-exit", "argv0"}},
}

// runners are the programs and builtins that run code or commands in
// their own way: each reads its arguments with its own method.
var runners map[string]func(a *analyser, l *Leaf, args []Word, ctx *walkCtx)

func init() {
	wrappers["ltrace"] = wrappers["strace"]
	runners = map[string]func(a *analyser, l *Leaf, args []Word, ctx *walkCtx){
		"env": (*analyser).env, "sudo": (*analyser).sudo, "su": (*analyser).su, "runuser": (*analyser).su,
		"xargs": (*analyser).xargs, "watch": (*analyser).watch, "at": (*analyser).at, "batch": (*analyser).at,
		"gdb": (*analyser).gdb, "start-stop-daemon": (*analyser).startStopDaemon, "capsh": (*analyser).capsh,
		"busybox": (*analyser).busybox, "eval": (*analyser).eval, "flock": (*analyser).flock, "trap": (*analyser).trap,
		"fc": (*analyser).fc, "hash": (*analyser).hash, "compgen": (*analyser).compgen, "complete": (*analyser).compgen,
		"alias": (*analyser).alias, "find": (*analyser).findExec, "source": (*analyser).source, ".": (*analyser).source,
	}
}

func (a *analyser) unwrap(l *Leaf, ctx *walkCtx) {
	args := l.Args()
	name := l.Base()
	if spec, ok := wrappers[name]; ok {
		a.wrapper(l, args, name, spec, ctx)
		return
	}
	if run := runners[name]; run != nil {
		run(a, l, args, ctx)
		return
	}
	if a.opts.Programs.IsShell(name) {
		a.shell(l, args, ctx)
	}
}

// wrapper finds the command a wrapper runs after its options.
func (a *analyser) wrapper(l *Leaf, args []Word, name string, spec optSpec, ctx *walkCtx) {
	for k := 0; k < len(spec.none); k++ {
		if hasShortFlag(args, spec.none[k], spec.short) {
			return
		}
	}
	if spec.noneLong != "" && hasLong(args, spec.noneLong) {
		return
	}
	i := scanOpts(args, spec)
	if i < 0 {
		l.Unknown = append(l.Unknown, "dynamic option to "+name)
		return
	}
	if name == "exec" && hasShortFlag(args[:i], 'c', spec.short) {
		l.EnvCleared = true
	}
	a.inner(l, args[i:], name, ctx, false)
}

func (a *analyser) sudo(l *Leaf, args []Word, ctx *walkCtx) {
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
}

// su and runuser: -c SCRIPT runs a shell script.
func (a *analyser) su(l *Leaf, args []Word, ctx *walkCtx) {
	name := l.Base()
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
}

// watch runs its words as a shell command line, or as a command with -x.
func (a *analyser) watch(l *Leaf, args []Word, ctx *walkCtx) {
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
}

// at and batch read the job's commands from standard input.
func (a *analyser) at(l *Leaf, _ []Word, ctx *walkCtx) {
	name := l.Base()
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
}

// gdb -ex 'shell CMD' (or '!CMD') runs CMD through a shell.
func (a *analyser) gdb(l *Leaf, args []Word, ctx *walkCtx) {
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
}

// start-stop-daemon: --exec PROGRAM (or --startas) runs PROGRAM with the
// words after --.
func (a *analyser) startStopDaemon(l *Leaf, args []Word, ctx *walkCtx) {
	name := l.Base()
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
}

// capsh runs a shell with the words after --.
func (a *analyser) capsh(l *Leaf, args []Word, ctx *walkCtx) {
	for i, w := range args {
		if w.Text == "--" {
			a.shell(l, args[i+1:], ctx)
			break
		}
	}
}

// busybox runs the applet its first word names.
func (a *analyser) busybox(l *Leaf, args []Word, ctx *walkCtx) {
	a.inner(l, args, "busybox", ctx, false)
}

// eval runs its words, joined, as a script.
func (a *analyser) eval(l *Leaf, args []Word, ctx *walkCtx) {
	if len(args) > 0 && args[0].Text == "--" {
		args = args[1:]
	}
	if len(args) == 1 {
		if text, ok := echoed(args[0]); ok {
			l.Unknown = append(l.Unknown, "eval runs the output of echo")
			a.seen(l, text, "eval of echo output", ctx)
			return
		}
	}
	if len(args) > 0 {
		a.script(l, joinWords(args), "eval", ctx)
	}
}

// flock [options] FILE COMMAND… | FILE -c SCRIPT | FD
func (a *analyser) flock(l *Leaf, args []Word, ctx *walkCtx) {
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
}

// trap ACTION SIGNAL…: ACTION is a script run later.
func (a *analyser) trap(l *Leaf, args []Word, ctx *walkCtx) {
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
}

// fc -s and fc -e re-run commands from the history list (a script can
// fill it: history -s 'rm -rf ~'; fc -s); fc -l only lists it.
func (a *analyser) fc(l *Leaf, args []Word, _ *walkCtx) {
	if !hasShortFlag(args, 'l', "e") {
		l.Unknown = append(l.Unknown, "fc re-runs commands from the history")
	}
}

// hash -p FILE NAME makes NAME run FILE from then on.
func (a *analyser) hash(l *Leaf, args []Word, _ *walkCtx) {
	for _, w := range args {
		if !w.Static() || strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "--") && strings.Contains(w.Text, "p") {
			l.Unknown = append(l.Unknown, "hash -p makes a name run another program")
			break
		}
	}
}

// compgen and complete: -C COMMAND runs a command (compgen now, complete
// when completing), -F FUNCTION calls a shell function.
func (a *analyser) compgen(l *Leaf, args []Word, ctx *walkCtx) {
	name := l.Base()
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
}

// alias NAME=VALUE: VALUE runs, with the words after NAME appended,
// wherever NAME is used.
func (a *analyser) alias(l *Leaf, args []Word, ctx *walkCtx) {
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

// ViaXargs is the Via of a leaf xargs runs with the words it reads.
const ViaXargs = "xargs"

// shell handles bash -c 'script' and friends.
func (a *analyser) shell(l *Leaf, args []Word, ctx *walkCtx) {
	if why := readingMode(args, l.Base()); why != "" {
		l.Unknown = append(l.Unknown, why)
	}
	flagC := false
	i := 0
	for i < len(args) {
		w := args[i]
		if !w.Static() {
			if flagC && w.Text != "" && !strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "+") {
				break // the script, with parts replaced at run time (xargs -I)
			}
			if _, ok := echoed(w); ok && (flagC || w.Pipe) {
				break // the script (-c), or the script file <(echo …)
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
			a.scriptFile(l, args[i], ctx)
			return
		}
		a.stdinScript(l, ctx)
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

// stdinNames are the file names of standard input: a shell or source
// given one reads its script from there.
var stdinNames = map[string]bool{"/dev/stdin": true, "/dev/fd/0": true, "/proc/self/fd/0": true, "/proc/thread-self/fd/0": true}

// scriptFile judges the script file a shell or source runs: standard
// input by one of its names, or the output of echo through a process
// substitution (bash <(echo …)), is a script nb can read.
func (a *analyser) scriptFile(l *Leaf, w Word, ctx *walkCtx) {
	if w.Static() && stdinNames[w.Text] {
		a.stdinScript(l, ctx)
		return
	}
	if text, ok := echoed(w); ok {
		l.Unknown = append(l.Unknown, l.Base()+" runs the output of echo")
		a.seen(l, text, l.Base()+" of echo output", ctx)
	}
}

// stdinScript judges the script a shell reads from standard input: a
// here-document or here-string, a redirected file, or an earlier
// pipeline stage.
func (a *analyser) stdinScript(l *Leaf, ctx *walkCtx) {
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
}

// source and . run a script file in the shell itself.
func (a *analyser) source(l *Leaf, args []Word, ctx *walkCtx) {
	if len(args) > 0 && args[0].Text == "--" {
		args = args[1:]
	}
	if len(args) > 0 {
		a.scriptFile(l, args[0], ctx)
	}
}

// echoed returns what w is when it is wholly the output of one command
// whose output is plain to see (printedText: "$(echo …)", <(printf …)).
func echoed(w Word) (string, bool) {
	if w.Text != "" || len(w.Subs) != 1 {
		return "", false
	}
	return printedText(w.Subs[0])
}

// xargsSpec is GNU xargs's option grammar: -e, -i and -l take a value
// only when attached (-eEOF), as --eof, --replace and --max-lines do
// (--eof=EOF); the long options are its whole set.
var xargsSpec = optSpec{short: "adEILnPs",
	long:     []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
	optional: []string{"eof", "replace", "max-lines"},
	flags:    []string{"null", "exit", "help", "interactive", "no-run-if-empty", "open-tty", "show-limits", "verbose", "version"}}

func (a *analyser) xargs(l *Leaf, args []Word, ctx *walkCtx) {
	i := scanOpts(args, xargsSpec)
	if i < 0 {
		l.Unknown = append(l.Unknown, "an option to xargs nb cannot read (dynamic, unknown or ambiguous)")
		return
	}
	repl := ""
	for k := 0; k < i; k++ {
		t := args[k].Text
		switch {
		case strings.HasPrefix(t, "--"):
			name, v, eq := strings.Cut(t[2:], "=")
			switch ResolveLong(name, xargsSpec.allLongs()) {
			case "replace":
				repl = "{}"
				if eq {
					repl = v
				}
			case "process-slot-var":
				// each command runs with NAME set in its environment
				// (--process-slot-var=BASH_ENV bash -c … sources ./0)
				vw := Word{Text: v, Raw: v}
				if !eq && k+1 < i {
					k++
					vw = args[k]
				}
				if !vw.Static() {
					l.Unknown = append(l.Unknown, "xargs --process-slot-var with a dynamic name")
				}
				l.EnvAssigns = append(l.EnvAssigns, vw.Text)
			}
		case len(t) > 1 && t[0] == '-':
			// a cluster: a value letter ends it (-0I{} is -0 -I{})
			for j := 1; j < len(t); j++ {
				c := t[j]
				if c == 'i' {
					repl = "{}"
					if j+1 < len(t) {
						repl = t[j+1:]
					}
					break
				}
				if c == 'e' || c == 'l' {
					break
				}
				if strings.IndexByte(xargsSpec.short, c) >= 0 {
					v := t[j+1:]
					if v == "" && k+1 < i {
						k++
						v = args[k].Text
					}
					if c == 'I' {
						repl = v
					}
					break
				}
			}
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
	a.inner(l, inner, ViaXargs, ctx, repl == "")
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

// envUnset records env -u NAME: removing a variable changes the
// command's environment as setting it does (nb's own settings, such as
// GIT_OPTIONAL_LOCKS=0 or the pagers, are undone by it).
func (a *analyser) envUnset(l *Leaf, w Word) {
	if !w.Static() {
		l.Unknown = append(l.Unknown, "dynamic variable unset by env")
		return
	}
	l.EnvAssigns = append(l.EnvAssigns, w.Text)
}

// env runs its command with assignments; -S (--split-string) splits a
// string into the command and its arguments.
func (a *analyser) env(l *Leaf, args []Word, ctx *walkCtx) {
	i, split, ok := a.envOptions(l, args)
	if !ok {
		return
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

// envShort are env's short options that take a value, by their long
// names.
var envShort = map[byte]string{'u': "unset", 'C': "chdir", 'S': "split-string", 'a': "argv0"}

// envOptions reads env's options: where its assignments start, and the
// strings -S splits; false: they cannot be read.
func (a *analyser) envOptions(l *Leaf, args []Word) (i int, split []Word, ok bool) {
	for i < len(args) {
		w := args[i]
		if !w.Static() {
			if w.Raw == "" || strings.ContainsAny(w.Raw[:1], "-$\"'`") {
				l.Unknown = append(l.Unknown, "dynamic option to env")
				return 0, nil, false
			}
			return i, split, true
		}
		t := w.Text
		switch {
		case t == "--":
			return i + 1, split, true
		case t == "-":
			l.EnvCleared = true
			i++
		case strings.HasPrefix(t, "--"):
			name, val, hasEq := strings.Cut(t[2:], "=")
			long := ResolveLong(name, envLongs)
			if long == "" {
				l.Unknown = append(l.Unknown, "unknown env option "+t)
				return 0, nil, false
			}
			i++
			if long == "ignore-environment" {
				l.EnvCleared = true
			}
			switch long {
			case "unset", "chdir", "split-string", "argv0":
				if hasEq {
					split = a.envValue(l, long, "--"+long, Word{Text: val, Raw: val}, split)
				} else if i < len(args) {
					split = a.envValue(l, long, "--"+long, args[i], split)
					i++
				}
			}
		case len(t) > 1 && t[0] == '-':
			i++
			for j := 1; j < len(t); j++ {
				if t[j] == 'i' {
					l.EnvCleared = true
				}
				if long, ok := envShort[t[j]]; ok {
					v := Word{Text: t[j+1:], Raw: t[j+1:]}
					if j+1 >= len(t) && i < len(args) {
						v = args[i]
						i++
					}
					split = a.envValue(l, long, "-"+string(t[j]), v, split)
					break
				}
			}
		default:
			return i, split, true
		}
	}
	return i, split, true
}

// envValue records the value w of env's option long (-u, -C, -S, -a),
// written opt.
func (a *analyser) envValue(l *Leaf, long, opt string, w Word, split []Word) []Word {
	switch long {
	case "split-string":
		split = append(split, w)
	case "chdir":
		l.Unknown = append(l.Unknown, "env "+opt+" runs the command in another directory")
	case "unset":
		a.envUnset(l, w)
	}
	return split
}
