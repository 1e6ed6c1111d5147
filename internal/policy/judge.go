package policy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/secrets"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/visible"
)

// secretVar finds expansions of variables named like secrets.
var secretVar = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{?[A-Za-z0-9_]*(?i:key|token|secret|pass|cred|auth|session|cookie|private|signature)[A-Za-z0-9_]*`)
})

// assessRedir judges one redirection: writes into system paths and
// startup files are dangerous, network devices too; any other write, a
// read of a secret or of a file chosen at run time is not safe.
func (e *Engine) assessRedir(r *shellparse.Redir, cc CommandContext, as *assessment, t *tally) {
	tg := r.Target
	abs := absPath(tg.Text, cc.Cwd)
	relative := tg.Static() && !strings.HasPrefix(tg.Text, "/")
	if relative && (r.Write || r.Read) && !r.Dup && !r.Heredoc {
		// judge the file in every directory a cd may have moved to
		// (cd /etc && echo x > hosts)
		for _, d := range r.Dir.Paths {
			dc := cc
			dc.Cwd = d
			if p := absPath(tg.Text, d); r.Write && systemTarget(dc, tg.Text) || r.Read && e.secretPath(dc, tg.Text, false) {
				abs = p
				break
			}
		}
		if r.Dir.Unknown {
			t.unsafe = true
			as.reason("opens " + tg.Raw + " in a directory known only at run time")
		}
	}
	switch {
	case r.Heredoc || r.Dup:
	case r.Write:
		switch {
		case tg.Static() && harmlessDevices[abs]:
		case tg.Static() && networkDevice(abs):
			as.network, t.dangerous = true, true
			as.reason("dangerous: opens a network connection through " + tg.Text)
		case tg.Static() && (systemPath(abs, cc.Home) || systemTarget(cc, abs)),
			!tg.Static() && systemPath(absPath(homeGuess(tg.Raw, cc.Home), cc.Cwd), cc.Home):
			as.writes, t.dangerous = true, true
			as.reason("dangerous: writes into a system path or startup file: " + tg.Raw)
		case !tg.Static():
			as.writes, t.unsafe = true, true
			as.reason("writes to a file chosen at run time: " + tg.Raw)
		default:
			as.writes, t.unsafe = true, true
			as.reason("writes " + tg.Raw)
		}
	case r.Read:
		switch {
		case tg.Static() && networkDevice(abs):
			as.network, t.unsafe = true, true
			as.reason("reads from the network through " + tg.Text)
		case tg.Pipe:
			// < <(…): a pipe from commands judged as leaves
		case !tg.Static():
			t.unsafe = true
			as.reason("reads a file chosen at run time: " + tg.Raw)
		case e.secretPath(cc, abs, false) || relative && e.secretPath(cc, tg.Text, false):
			as.redirSensitive, t.unsafe = true, true
			as.reason("sensitive: reads " + tg.Raw)
		}
	}
}

// leafInfo judges one simple command in every directory it may run in:
// the worst judgement wins, and a directory known only at run time is
// never safe.
func (e *Engine) leafInfo(l *shellparse.Leaf, cc CommandContext) *leafInfo {
	dirs := l.Dir.Paths
	if len(dirs) == 0 {
		dirs = []string{cc.Cwd}
	}
	var worst *leafInfo
	for _, d := range dirs {
		c := cc
		c.Cwd = d
		info := e.leafInfoIn(l, c)
		if worst == nil {
			worst = info
			continue
		}
		exact, noRule, optWrite, warns := worst.exactOnly || info.exactOnly, worst.noRule, worst.optWrite, worst.warns || info.warns
		if noRule == "" {
			noRule = info.noRule
		}
		if optWrite == "" {
			optWrite = info.optWrite
		}
		switch {
		case worst.danger != "":
		case info.danger != "", worst.sensitive == "" && info.sensitive != "", worst.safe && !info.safe:
			worst = info
		}
		worst.exactOnly, worst.noRule, worst.optWrite, worst.warns = exact, noRule, optWrite, warns
	}
	if l.Dir.Unknown && !dirFree(l.Base()) && worst.safe && !(l.Via == "find -execdir" && onlyFindFiles(l)) {
		worst.safe = false
		worst.why = l.Base() + " runs in a directory known only at run time"
	}
	return worst
}

// leafInfoIn judges one simple command running in cc.Cwd.
func (e *Engine) leafInfoIn(l *shellparse.Leaf, cc CommandContext) *leafInfo {
	info := &leafInfo{}
	h := e.builtinDanger(l, cc)
	if h.why == "" {
		h = e.hiddenDanger(l, cc)
	}
	if h.why == "" {
		h = e.braceDanger(l, cc)
	}
	info.danger = h.why
	for _, f := range e.danger {
		if info.danger == "" && f.matchLeaf(l) {
			info.danger = fmt.Sprintf("matches dangerousCommands %q", f.src)
		}
	}
	if w, targets := optionWrite(l); w != "" && !allHarmless(targets, cc.Cwd) {
		info.optWrite, info.warns = w, true
		for _, t := range targets {
			if info.danger == "" && t.Static() && systemTarget(cc, t.Text) {
				info.danger = w + " into a system path or startup file: " + t.Text
			}
		}
	}
	if info.danger == "" && l.Name() == "" && l.StdinFromNetwork {
		h = hazard{why: "network data piped into a command chosen at run time", fetched: true}
		info.danger = h.why
	}
	if h.fetched {
		// what runs came from the network: no rule names it
		info.noRule = info.danger
	}
	prog := cmdbase.Unix(l.Base())
	info.warns = info.warns || prog.Has(cmdbase.Removes)
	info.network = prog.Has(cmdbase.Network)
	if prog.Has(cmdbase.ScriptFile) && len(l.Inner) == 0 && readsCode(l) {
		// python3 manage.py shell < x: what runs is the input, which no
		// rule names
		info.noRule = l.Base() + " reads code from its standard input"
	}
	info.safe, info.why = e.leafSafe(l, cc, info)
	e.namedSecret(l, cc, prog, info)
	if r := optionRuns(l, cc.Facts != nil); r != "" {
		info.exactOnly = true
		if info.safe || info.why == "" {
			info.why = r
		}
		info.safe = false
	}
	if info.optWrite != "" {
		info.exactOnly = true
		if info.safe || info.why == "" {
			info.why = info.optWrite
		}
		info.safe = false
	}
	if prog.Has(cmdbase.Finds) && info.danger == "" {
		// -exec, -execdir, -ok, -okdir: running anything but a read-only
		// command on every file found is dangerous
		for _, in := range l.Inner {
			if ii := e.leafInfo(in, cc); !ii.safe {
				info.danger = "find " + strings.TrimPrefix(in.Via, "find ") + " runs " + in.Base() + " on every file found"
				break
			}
		}
	}
	if info.danger != "" {
		info.safe = false
	}
	return info
}

// namedSecret marks a command that is not provably safe and names a
// secret file among its words as a secret read, whatever the program: it
// may be what it sends (curl -d @FILE, -T FILE, scp FILE host:), copies
// (cp ~/.ssh/id_rsa /tmp/x) or reads (python3 x.py ~/.aws/credentials).
// Only an exact rule approves it, and Always is not offered.
func (e *Engine) namedSecret(l *shellparse.Leaf, cc CommandContext, prog *cmdbase.Prog, info *leafInfo) {
	if info.safe || info.sensitive != "" {
		return
	}
	if p := e.secretWord(l, cc); p != "" && prog.Has(cmdbase.SendsData) {
		info.sensitive = l.Base() + " may send " + p
	} else if p != "" {
		info.sensitive = l.Base() + " names " + p + ", which may be a secret file"
	}
}

// secretWord says which secret file a command names among its words —
// whole, after an option's "=", or after the "@" or "<" that makes a
// program such as curl read a file — or "".
func (e *Engine) secretWord(l *shellparse.Leaf, cc CommandContext) string {
	for _, w := range l.Args() {
		if !w.Static() {
			continue
		}
		var cands []string
		if _, v, ok := strings.Cut(w.Text, "="); ok {
			cands = append(cands, strings.TrimLeft(v, "@<"), v)
		}
		cands = append(cands, strings.TrimLeft(w.Text, "@<"), w.Text)
		for _, p := range cands {
			if p == "" || strings.HasPrefix(p, "-") {
				continue
			}
			// a remote host's words are judged by their names alone
			if w.Glob && e.secretPath(cc, p, true) || !w.Glob && e.namesSecret(cc, p) {
				return p
			}
		}
	}
	return ""
}

// leafSafe says whether one simple command is provably read-only when it
// runs in cc.Cwd, and if not, why. It is a pipeline; each step may end it:
//
//  1. understood: parsed whole, a static name, no environment variable
//     that changes what runs or what a program reads;
//  2. globs: unquoted patterns expand, in the decision directory, to
//     words that are neither options nor secrets;
//  3. placed: a system command still on the safe list, not run in a
//     directory of secrets, expanding no secret variable;
//  4. shell built-ins that only test, declare, print or wrap;
//  5. the base: network tools never; configured safe commands; the safe
//     list's specification of the command checks its arguments;
//  6. the project's disk facts: git's (credentials, configured
//     programs, tracked secrets), a release the project makes the
//     program fetch and run (go.mod's go line, a version manager's
//     shim);
//  7. the files it names or reads pass the secret-path rules.
func (e *Engine) leafSafe(l *shellparse.Leaf, cc CommandContext, info *leafInfo) (bool, string) {
	if why := understood(l, info); why != "" {
		return false, why
	}
	l, why := e.globbed(l, cc, info)
	if why != "" {
		return false, why
	}
	if why := e.placed(l, cc, info); why != "" {
		return false, why
	}
	if done, ok, why := e.shellBuiltin(l, cc, info); done {
		return ok, why
	}
	base := l.Base()
	if isNetworkTool(base) && !cmdbase.VersionOnly(base, l.Args()) {
		return false, base + " uses the network"
	}
	if e.configuredSafe(l) {
		return allStatic(l, true)
	}
	spec, ok := cmdbase.Safe(base)
	if !ok {
		return false, base + " is not on the safe list"
	}
	if why := specAllows(l, spec, info); why != "" {
		return false, why
	}
	if cmdbase.Unix(base).In(cmdbase.Git) {
		if why := e.gitFacts(l.Args(), cc, info); why != "" {
			return false, why
		}
	}
	if why := toolchainFacts(l, cc); why != "" {
		return false, why
	}
	if !spec.Reads() {
		return e.namesNoSecret(l, cc, info)
	}
	return e.readsNoSecret(l, spec, cc, info)
}

// understood is step 1 of leafSafe.
func understood(l *shellparse.Leaf, info *leafInfo) string {
	if len(l.Unknown) > 0 {
		return "cannot analyse: " + l.Unknown[0]
	}
	if l.Name() == "" {
		return "the command name is not static"
	}
	for _, env := range l.EnvAssigns {
		if shellparse.IsRiskyEnvName(env) {
			info.noRule = "sets " + env + " for the command"
			return info.noRule
		}
	}
	for w := l.Wrapper; w != nil; w = w.Wrapper {
		if w.EnvCleared {
			info.noRule = "runs the command without the environment nb gives commands (" + w.Base() + " clears it)"
			return info.noRule
		}
	}
	if !(harmless(l.Base()) && len(l.Inner) > 0) && !transparentShell(l) {
		// programs read configuration from many variables (a config file
		// path, default options): only known display settings keep a
		// command provably read-only, whether set on it or by env
		for w := l; w != nil; w = w.Wrapper {
			for _, env := range w.EnvAssigns {
				if !displayEnv(env) {
					return "sets " + env + " for the command"
				}
			}
		}
	}
	return ""
}

// globbed is step 2 of leafSafe: l with its globs expanded, or why not.
func (e *Engine) globbed(l *shellparse.Leaf, cc CommandContext, info *leafInfo) (*shellparse.Leaf, string) {
	x, why, secret := e.expandGlobs(l, cc)
	if why != "" {
		if secret {
			info.sensitive = why
		}
		return l, why
	}
	if x != nil {
		return x, ""
	}
	return l, ""
}

// placed is step 3 of leafSafe.
func (e *Engine) placed(l *shellparse.Leaf, cc CommandContext, info *leafInfo) string {
	name, base := l.Name(), l.Base()
	if strings.Contains(name, "/") && !systemBinDirs[pathDir(name)] {
		return name + " is not a system command"
	}
	if e.removedSafe[base] {
		return base + " is removed from the safe list"
	}
	if cc.Facts != nil && !strings.Contains(name, "/") && cc.Cwd != "" {
		if why := cc.Facts.PathProgram(cc.Cwd, name); why != "" {
			info.noRule = why
			return why
		}
	}
	if !dirFree(base) && cc.Cwd != "" && e.cwdSecret(cc) {
		info.sensitive = base + " runs in " + cc.Cwd + ", which holds secrets"
		return info.sensitive
	}
	for _, w := range l.Words {
		if w.Dynamic {
			if m := secretVar().FindString(w.Raw); m != "" {
				info.sensitive = "expands " + m + ", which may hold a secret"
				return info.sensitive
			}
		}
	}
	return ""
}

// cwdSecret reports a directory of secrets to run in.
func (e *Engine) cwdSecret(cc CommandContext) bool { return e.namesSecret(cc, cc.Cwd) }

// namesSecret reports a word a command names without reading it (its
// directory, cd's target, stat's operand) that is a secret: where it
// leads on this disk, on another machine by its name alone (what a
// command reads there is judged as an unknown file).
func (e *Engine) namesSecret(cc CommandContext, p string) bool {
	if cc.Isolation == IsolationRemote {
		return e.sensitivePath(p, cc.Cwd, false) || p != "" && homeSecret(absPath(p, cc.Cwd), cc.Home, false)
	}
	return e.secretPath(cc, p, false)
}

// shellBuiltin is step 4 of leafSafe: the shell's own tests,
// declarations, wrappers and printing commands; done is false for any
// other command.
func (e *Engine) shellBuiltin(l *shellparse.Leaf, cc CommandContext, info *leafInfo) (done, ok bool, why string) {
	base := l.Base()
	prog := cmdbase.Unix(base)
	sensitive := func(why string) (bool, bool, string) {
		info.sensitive = why
		return true, false, why
	}
	switch {
	case l.Test:
		return true, true, ""
	case l.Decl:
		dump := true
		for _, w := range l.Args() {
			if !strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "+") {
				dump = false
			}
		}
		if dump || cmdbase.ShortFlags(l.Args(), "")['p'] {
			return sensitive(base + " lists variables, which may hold secrets")
		}
		return true, true, ""
	case harmless(base) && len(l.Inner) > 0 || transparentShell(l):
		// a wrapper's own options may name a file it reads (xargs -a);
		// one it writes (time -o) is an option write
		for _, v := range prog.InputFiles(l.Args()) {
			if e.secretPath(cc, v, false) {
				return sensitive(base + " reads " + v)
			}
		}
		info.harmlessWrapper = true
		return true, true, ""
	case prog.Has(cmdbase.ReadsLine) && cc.interactive:
		// an earlier declare -i in the session makes the assignment
		// arithmetic, which runs $(…) in the input
		return true, false, base + " in an interactive shell may evaluate its input"
	case prog.Has(cmdbase.History) && cc.interactive:
		// an interactive shell's history holds what the user typed,
		// passwords included
		return sensitive(base + " shows what was typed into the shell")
	case prog.Has(cmdbase.ShowsVars) && prog.VarNames && len(l.Args()) > 0:
		// printenv NAME…: names that do not look like secrets
		for _, w := range l.Args() {
			if !w.Static() || !cmdbase.IsIdent(w.Text) || secretName().MatchString(w.Text) || secrets.EnvMayHoldSecret(w.Text) {
				return sensitive(base + " " + w.Raw + " may show a secret")
			}
		}
		return true, true, ""
	case prog.Has(cmdbase.ShowsVars):
		if args := l.Args(); prog.Has(cmdbase.SetsOptions) && len(args) > 0 && (strings.HasPrefix(args[0].Text, "-") || strings.HasPrefix(args[0].Text, "+")) {
			return true, true, ""
		}
		return sensitive(base + " shows environment variables, which may hold secrets")
	}
	return false, false, ""
}

// configuredSafe reports a command approval.safeCommands lists.
func (e *Engine) configuredSafe(l *shellparse.Leaf) bool {
	if e.safeNames[l.Name()] || e.safeNames[l.Base()] {
		return true
	}
	for _, p := range e.safePatterns {
		if p.Match(l, matchAllow) {
			return true
		}
	}
	return false
}

// specAllows is step 5 of leafSafe: the safe list's specification of
// the command checks its arguments.
func specAllows(l *shellparse.Leaf, spec cmdbase.ReadOnly, info *leafInfo) string {
	base, args := l.Base(), l.Args()
	if !spec.DynOK() {
		if ok, why := allStatic(l, false); !ok {
			return why
		}
		if l.ArgsAppended && !findExec(l) {
			return base + " gets arguments at run time"
		}
	}
	if namesFileList(args) {
		// the files read are named in a list chosen when it runs
		info.exactOnly = true
		return base + " reads the files named in a list"
	}
	if why := spec.Check(args); why != "" {
		return why
	}
	if spec.Infinite() && !l.StdoutToPipe {
		return base + " prints without end unless piped into a reader that stops"
	}
	if spec.Endless() && !l.StdoutToPipe {
		return cmdbase.EndlessDevice(args)
	}
	return ""
}

// gitFacts is step 6 of leafSafe: what the disk says about the
// repository a git command reads.
func (e *Engine) gitFacts(args []word, cc CommandContext, info *leafInfo) string {
	if why := gitCredentialOutput(args); why != "" {
		info.sensitive = why
		return why
	}
	if why, sure := e.gitRepoPrograms(args, cc); why != "" {
		if sure {
			info.noRule = why
		}
		return why
	}
	if why := e.gitShowsSecrets(args, cc); why != "" {
		info.sensitive = why
		return why
	}
	return ""
}

// toolchainFacts says why the program of l, run in cc.Cwd, will fetch and
// run another release of itself, or write its own records, or "": a
// version manager's shim stands for it, or the project's files switch
// it (cmdbase.Toolchain: go's toolchain).
func toolchainFacts(l *shellparse.Leaf, cc CommandContext) string {
	base := l.Base()
	switched := cmdbase.Unix(base).Has(cmdbase.Toolchain)
	if cc.Facts == nil || cc.CwdUnknown || cc.Isolation == IsolationRemote || !strings.HasPrefix(slashPath(cc.Cwd), "/") {
		if switched {
			return base + " may fetch and run the release the project asks for, in a directory nb has not looked at"
		}
		return ""
	}
	if strings.Contains(l.Name(), "/") {
		return "" // a path, not a name looked up on PATH
	}
	return cc.Facts.Toolchain(base, cc.Cwd)
}

// namesNoSecret is step 7 of leafSafe for a command that does not read
// its operands: none of them may name a secret (a glob that may match
// one only for commands that show metadata).
func (e *Engine) namesNoSecret(l *shellparse.Leaf, cc CommandContext, info *leafInfo) (bool, string) {
	base := l.Base()
	for _, w := range l.Args() {
		if w.Static() && metadataOnly(base) && procFDs(absPath(w.Text, cc.Cwd)) {
			continue // ls /proc/self/fd: the numbers of open files and where they lead
		}
		if w.Static() && e.namesSecret(cc, w.Text) || w.Glob && e.sensitivePath(w.Text, cc.Cwd, true) && !metadataOnly(base) {
			info.sensitive = base + " names " + w.Raw
			return false, info.sensitive
		}
		// a value attached to its option (date --file=F, ss -FF) names a
		// file as the next word would: where it leads is judged too
		for _, v := range attachedValues(w) {
			if e.namesSecret(cc, v) {
				info.sensitive = base + " names " + w.Raw
				return false, info.sensitive
			}
		}
	}
	return true, ""
}

// attachedValues returns the values a static option word may carry:
// after "=" of a long option (--file=F), or after any letter of a short
// cluster (-fF, -ufF: which letter takes a value is the program's).
func attachedValues(w shellparse.Word) []string {
	t := w.Text
	if !w.Static() || len(t) < 3 || t[0] != '-' {
		return nil
	}
	if t[1] == '-' {
		if _, v, ok := strings.Cut(t, "="); ok && v != "" {
			return []string{v}
		}
		return nil
	}
	var out []string
	for j := 2; j < len(t); j++ {
		out = append(out, t[j:])
	}
	return out
}

// readsNoSecret is step 7 of leafSafe for a command that reads the files
// it names (or that find feeds it, or below the directories it searches).
func (e *Engine) readsNoSecret(l *shellparse.Leaf, spec cmdbase.ReadOnly, cc CommandContext, info *leafInfo) (bool, string) {
	base, args := l.Base(), l.Args()
	fail := func(why string) (bool, string) {
		info.sensitive = why
		return false, why
	}
	lister := findPrint0(l)
	if lister == nil {
		lister = splitLister(l, cc)
	}
	if l.ArgsAppended && !findExec(l) && lister == nil {
		info.exactOnly = true
		return false, base + " reads files named at run time"
	}
	if findExec(l) || lister != nil {
		if why := e.findFeedsSecrets(l, lister, cc); why != "" {
			return fail(why)
		}
	}
	for _, w := range args {
		// option values such as --file=x or -fX may name files too
		if strings.HasPrefix(w.Text, "-") && w.Static() {
			if _, v, ok := strings.Cut(w.Text, "="); ok && e.secretPath(cc, v, strings.ContainsAny(v, "*?[")) {
				return fail(base + " reads " + w.Raw)
			}
			if !strings.HasPrefix(w.Text, "--") {
				for _, v := range attachedValues(w) {
					if e.secretPath(cc, v, false) {
						return fail(base + " reads " + w.Raw)
					}
				}
			}
		}
	}
	for _, g := range searchGlobs(base, args, spec) {
		if e.sensitivePath(strings.TrimPrefix(g, "!"), cc.Cwd, true) {
			return fail(base + " searches files matching " + g)
		}
	}
	skip := -1
	if all := cmdbase.Positionals(args, spec.ValueShort()); patternFirst(args, spec) && len(all) > 1 {
		// the pattern word is not a file (a lone pattern is still judged
		// as a path: the stricter reading)
		skip = indexOfWord(args, all[0])
	}
	for i, w := range args {
		if i == skip || w.Pipe || findFile(l, w) {
			continue
		}
		if f := substFinder(w, cc); f != nil && w.Dynamic {
			if why := e.findFeedsSecrets(l, f, cc); why != "" {
				return fail(why)
			}
			continue
		}
		if w.Dynamic {
			info.exactOnly = true
			return false, base + " reads a file chosen at run time: " + w.Raw
		}
		if e.secretPath(cc, w.Text, w.Glob) {
			return fail(base + " reads " + w.Raw)
		}
	}
	if spec.Recursive(args) {
		if why := e.searchesSecrets(base, args, spec, cc); why != "" {
			return fail(why)
		}
	}
	return true, ""
}

// findFeedsSecrets says why the files find passes to l (find -exec) or
// prints for it (find -print0 | xargs -0) may be secrets, or "": they
// are a recursive read below find's starting points.
func (e *Engine) findFeedsSecrets(l, lister *shellparse.Leaf, cc CommandContext) string {
	base := l.Base()
	finder := lister
	if finder == nil {
		finder = l.Wrapper
	}
	if p := e.findSelectsSecrets(finder, cc); p != "" && lister != nil {
		return base + " reads the files find selects by " + p + ", a name of secret files"
	}
	for _, root := range findRoots(finder) {
		if !root.Static() || e.secretPath(cc, root.Text, false) || e.reachesSecret(cc, root.Text) {
			return base + " reads the files find finds below " + root.Raw + ", which holds secrets"
		}
		if why := treeSecrets(cc, root.Text, true); why != "" {
			return base + " reads the files find finds below " + root.Raw + ": " + why
		}
	}
	return ""
}

// searchGlobs are the file-name globs a search tool is told to read
// (grep --include, rg -g/--iglob), lower-cased where they match without
// case.
func searchGlobs(base string, args []word, spec cmdbase.ReadOnly) []string {
	switch base {
	case "grep", "egrep", "fgrep":
		return append(cmdbase.OptionValues(args, 0, spec.ValueShort(), "include"), cmdbase.OptionValues(args, 0, spec.ValueShort(), "include-dir")...)
	case "rg":
		globs := cmdbase.OptionValues(args, 'g', spec.ValueShort(), "glob")
		for _, g := range cmdbase.OptionValues(args, 0, spec.ValueShort(), "iglob") {
			// case-insensitive: .ENV* matches .env
			globs = append(globs, strings.ToLower(g))
		}
		if cmdbase.HasLong(args, "glob-case-insensitive") {
			for i := range globs {
				globs[i] = strings.ToLower(globs[i])
			}
		}
		return globs
	}
	return nil
}

// patternFirst reports a pattern-first command (grep PATTERN FILE…)
// whose first operand is its pattern, not a file: no option gave the
// pattern.
func patternFirst(args []word, spec cmdbase.ReadOnly) bool {
	if !spec.Pattern() || len(cmdbase.Positionals(args, spec.ValueShort())) == 0 {
		return false
	}
	sf := cmdbase.ShortFlags(args, spec.ValueShort())
	for i := 0; i < len(spec.PatternFlags()); i++ {
		if sf[spec.PatternFlags()[i]] {
			return false
		}
	}
	return !cmdbase.HasLong(args, spec.PatternLongs()...)
}

// searchesSecrets says why a recursive search by base may read secrets,
// or "": a directory searched that holds or leads to them, or a pattern
// that finds them anywhere.
func (e *Engine) searchesSecrets(base string, args []word, spec cmdbase.ReadOnly, cc CommandContext) string {
	dirs := cmdbase.Positionals(args, spec.ValueShort())
	if patternFirst(args, spec) {
		dirs = dirs[1:]
	}
	if len(dirs) == 0 {
		dirs = []word{{Text: "."}}
	}
	for _, d := range dirs {
		if e.reachesSecret(cc, d.Text) {
			return base + " searches " + d.Text + " recursively, which holds secrets"
		}
		if why := treeSecretsFollow(cc, d.Text, base != "rg" || rgHidden(args), followsLinks(base, args)); why != "" {
			return base + " searches " + d.Text + " recursively: " + why
		}
	}
	if spec.Pattern() {
		pats := cmdbase.OptionValues(args, 'e', spec.ValueShort(), "regexp")
		if all := cmdbase.Positionals(args, spec.ValueShort()); len(pats) == 0 && len(all) > 0 {
			pats = []string{all[0].Text}
		}
		for _, p := range pats {
			if cmdbase.SecretKey.MatchString(p) {
				return base + " searches the tree for " + p + ", which finds secrets"
			}
		}
	}
	return ""
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
		if w.Pipe || findFile(l, w) {
			continue
		}
		if w.Dynamic && !numericParam(w) || (w.Glob && !globOK) {
			return false, "argument " + w.Raw + " is not static"
		}
	}
	return true, ""
}

// expandGlobs judges the words bash generates from the unquoted globs among
// l's arguments in cc.Cwd (the disk facts expand them) and returns l with
// those words in place of the patterns, or why it asks: a word a command
// could take as an option (a file named -delete or +x), a secret path, or
// words that cannot be known. A pattern matching nothing is passed as
// written; it is then judged as a static word, and as a pattern that could
// name a secret (it may match one when the command runs).
func (e *Engine) expandGlobs(l *shellparse.Leaf, cc CommandContext) (*shellparse.Leaf, string, bool) {
	var words []word
	for i, w := range l.Words {
		if i == 0 || !w.Glob || w.Pipe || findFile(l, w) {
			if words != nil {
				words = append(words, w)
			}
			continue
		}
		if words == nil {
			words = append([]word(nil), l.Words[:i]...)
		}
		pat, ok := globPattern(w)
		if !ok || cc.Facts == nil || !isAbs(cc.Cwd) && !isAbs(pat) {
			return nil, "the files " + w.Raw + " matches cannot be known", false
		}
		matches, complete := cc.Facts.Glob(cc.Cwd, pat)
		if !complete {
			return nil, "the files " + w.Raw + " matches cannot be known (too many, or unreadable)", false
		}
		if len(matches) == 0 {
			// bash passes the pattern as it is; find without -exec takes
			// it for a name pattern and only prints the names it matches
			namesOnly := metadataOnly(l.Base()) || cmdbase.Unix(l.Base()).Has(cmdbase.Finds) && len(l.Inner) == 0
			if !namesOnly && e.secretPath(cc, pat, true) {
				return nil, l.Base() + " names " + w.Raw + ", which may match a secret file", true
			}
			words = append(words, word{Raw: w.Raw, Text: pat})
			continue
		}
		for _, m := range matches {
			if strings.HasPrefix(m, "-") || strings.HasPrefix(m, "+") {
				return nil, w.Raw + " matches " + m + ", which " + l.Base() + " may take as an option", false
			}
			if e.secretPath(cc, m, false) {
				return nil, l.Base() + " names " + w.Raw + ", which matches the secret file " + m, true
			}
			words = append(words, word{Raw: m, Text: m})
		}
	}
	if words == nil {
		return nil, "", false
	}
	x := *l
	x.Words = words
	return &x, "", false
}

func isAbs(p string) bool { return strings.HasPrefix(p, "/") || drivePath(p) }

// globPattern is the pattern of a glob word as bash matches it: its text,
// when every pattern character in it is unquoted and it holds no escape,
// expansion or extended pattern.
func globPattern(w word) (string, bool) {
	if w.Dynamic || strings.ContainsAny(w.Raw, "\\$`{}()") {
		return "", false
	}
	unquoted, q := 0, byte(0)
	for i := 0; i < len(w.Raw); i++ {
		c := w.Raw[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q != 0:
			if strings.IndexByte("*?[]", c) >= 0 {
				return "", false
			}
		case c == '\'' || c == '"':
			q = c
		case strings.IndexByte("*?[", c) >= 0:
			unquoted++
		}
	}
	if q != 0 || unquoted != strings.Count(w.Text, "*")+strings.Count(w.Text, "?")+strings.Count(w.Text, "[") {
		return "", false
	}
	return w.Text, true
}

// numericParams are the shell's special parameters whose value is a
// number (or, for $!, nothing): $$ and $PPID are read-only in bash, $#
// and $? are set by the shell. Unquoted, they split (an IFS holding
// digits) only into digits, never into an option or a pattern.
var numericParams = map[string]bool{"$": true, "PPID": true, "#": true, "?": true, "!": true}

// numericParam reports whether w is exactly one numeric special parameter,
// quoted or not ($$, "$PPID", ${#}): an argument that is a number chosen at
// run time. It is no file name a read could be judged by: readers still
// ask for it.
func numericParam(w word) bool {
	if !w.Dynamic || w.Glob || len(w.Subs) > 0 {
		return false
	}
	r := w.Raw
	if len(r) >= 2 && r[0] == '"' && r[len(r)-1] == '"' {
		r = r[1 : len(r)-1]
	}
	if !strings.HasPrefix(r, "$") {
		return false
	}
	r = r[1:]
	if strings.HasPrefix(r, "{") && strings.HasSuffix(r, "}") {
		r = r[1 : len(r)-1]
	}
	return numericParams[r]
}

// sanitize makes control characters, bidirectional overrides and
// invisible characters visible, so the display cannot hide text (the one
// escaping, package visible).
func sanitize(s string, keepNewlines bool) string {
	if keepNewlines {
		return visible.Lines(s)
	}
	return visible.String(s)
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

// shownWord is a word for the display: as written, except that a word
// using $'…' quoting is shown as the value bash passes (bash ends such a
// string at a NUL, so the source text would show another path).
func shownWord(w word) string {
	if w.Static() && strings.Contains(w.Raw, "$'") {
		return quoteWord(w.Text)
	}
	return w.Raw
}

// allHarmless reports targets that are all /dev/null and friends (false
// for none).
func allHarmless(targets []word, cwd string) bool {
	for _, t := range targets {
		if !t.Static() || !harmlessDevices[absPath(t.Text, cwd)] {
			return false
		}
	}
	return len(targets) > 0
}

// homeGuess resolves, for judging danger only, a target written as
// $HOME/x, ${HOME}/x, "$HOME/x" or ~user/x.
func homeGuess(raw, home string) string {
	raw = strings.Trim(raw, "\"")
	for _, p := range []string{"$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(raw, p); ok && home != "" && (rest == "" || rest[0] == '/') {
			return home + rest
		}
	}
	if rest, ok := strings.CutPrefix(raw, "~root"); ok && (rest == "" || rest[0] == '/') {
		return "/root" + rest
	}
	return "/nonexistent/" + raw
}

// fetchThenRun finds a file downloaded by curl -o or wget -O that a later
// command runs as a script or program (curl -o x URL && sh x).
func fetchThenRun(a *shellparse.Analysis, cc CommandContext) string {
	fetched := map[string]bool{}
	for _, l := range a.Leaves {
		if isNetworkTool(l.Base()) {
			// curl -o x URL, wget -O x URL
			if _, targets := optionWrite(l); len(targets) > 0 {
				for _, t := range targets {
					if t.Static() {
						fetched[absPath(t.Text, cc.Cwd)] = true
					}
				}
			}
			continue
		}
		if len(fetched) == 0 {
			continue
		}
		if l.Name() != "" && fetched[absPath(l.Name(), cc.Cwd)] && strings.Contains(l.Name(), "/") {
			return "runs " + l.Name() + ", fetched from the network"
		}
		if isInterpreter(l.Base()) {
			for _, w := range l.Args() {
				if w.Static() && fetched[absPath(w.Text, cc.Cwd)] {
					return l.Base() + " runs " + w.Text + ", fetched from the network"
				}
			}
		}
	}
	return ""
}

// displayEnv reports variables that only change how output looks (locale,
// time zone, colours, terminal size).
func displayEnv(name string) bool {
	switch name {
	case "LANG", "LANGUAGE", "TZ", "COLUMNS", "LINES", "TERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
		"FORCE_COLOR", "GREP_COLOR", "GREP_COLORS", "LS_COLORS", "TIME_STYLE", "QUOTING_STYLE", "BLOCK_SIZE",
		"BLOCKSIZE", "DF_BLOCK_SIZE", "DU_BLOCK_SIZE", "LS_BLOCK_SIZE", "POSIXLY_CORRECT_OUTPUT", "GIT_PAGER_IN_USE":
		return true
	}
	return strings.HasPrefix(name, "LC_")
}

// rgHidden reports rg options that search hidden files (--hidden, -.,
// -uu), which rg skips by default.
func rgHidden(ws []word) bool {
	f := cmdbase.ShortFlags(ws, "efmABCgtTjMrE")
	return f['.'] || f['u'] || cmdbase.HasLong(ws, "hidden", "unrestricted")
}

// dangerToken scans text that does not parse for the name of a program
// the command base marks Alarm (after any quotes, operators or path), for
// -delete and for a redirection; "" when none is found.
func dangerToken(src string) string {
	if strings.Contains(src, ">") {
		return "a redirection (>)"
	}
	f := strings.FieldsFunc(src, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("'\"`;&|(){}$<>=!", r)
	})
	for _, w := range f {
		if w == "-delete" || strings.HasPrefix(w, "--force") {
			return w
		}
		base := w[strings.LastIndexByte(w, '/')+1:]
		if cmdbase.Unix(base).Has(cmdbase.Alarm) {
			return base
		}
	}
	return ""
}

// findExec reports a leaf run by find -exec or -execdir.
func findExec(l *shellparse.Leaf) bool {
	return l.Wrapper != nil && cmdbase.Unix(l.Wrapper.Base()).Has(cmdbase.Finds) && (l.Via == "find -exec" || l.Via == "find -execdir")
}

// findFile reports the {} word of a leaf run by find -exec: a file find
// found, judged through findRoots.
func findFile(l *shellparse.Leaf, w word) bool {
	return findExec(l) && w.Raw == "{}"
}

// onlyFindFiles reports a find -execdir leaf whose arguments are options
// and {} (./NAME in the file's own directory): where it runs does not
// change what it reads.
func onlyFindFiles(l *shellparse.Leaf) bool {
	for _, w := range l.Args() {
		if !findFile(l, w) && !(w.Static() && strings.HasPrefix(w.Text, "-")) {
			return false
		}
	}
	return true
}

// findRoots are the starting points of a find command (. when none).
func findRoots(f *shellparse.Leaf) []word { return cmdbase.ReadFind(f.Args()).Roots }

// findSelectsSecrets says which name test of find (-name PATTERN…) may
// select secret files, or "": what a reader of the files it finds reads.
func (e *Engine) findSelectsSecrets(f *shellparse.Leaf, cc CommandContext) string {
	ws := f.Args()
	for i := 0; i+1 < len(ws); i++ {
		switch ws[i].Text {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname":
			pat := ws[i+1].Text
			if strings.HasPrefix(ws[i].Text, "-i") {
				pat = strings.ToLower(pat)
			}
			if !ws[i+1].Static() || e.sensitivePath(pat, cc.Cwd, true) || e.sensitivePath("x/"+pat, cc.Cwd, true) {
				return ws[i].Text + " " + ws[i+1].Raw
			}
		case "-regex", "-iregex":
			return ws[i].Text + " " + ws[i+1].Raw // a regular expression is not judged
		}
	}
	return ""
}

// findPrint0 is the find command whose output names the files a leaf run
// by xargs reads (find ROOT… -print0 | xargs -0 CMD), or nil. Separated
// by NULs, each name is a path below a starting point, as find prints
// it: never an option, never a word of a name split at a blank. The
// files are then judged as for find -exec, by the tree below each root.
func findPrint0(l *shellparse.Leaf) *shellparse.Leaf {
	x := l.Wrapper
	if x == nil || !cmdbase.Unix(x.Base()).Has(cmdbase.FeedsArgs) || l.Via != shellparse.ViaXargs || x.StdinFrom == nil {
		return nil
	}
	f := x.StdinFrom
	if !cmdbase.Unix(f.Base()).Has(cmdbase.Finds) || len(f.Unknown) > 0 || len(f.Inner) > 0 || f.Wrapper != nil {
		return nil
	}
	xa := x.Args()
	if !cmdbase.AnyWord(xa, "-0", "--null") || len(cmdbase.OptionValues(xa, 'a', "adEILnPs", "arg-file")) > 0 ||
		len(cmdbase.OptionValues(xa, 'd', "adEILnPs", "delimiter")) > 0 {
		return nil
	}
	if !cmdbase.ReadFind(f.Args()).PrintsNULNames() {
		return nil
	}
	for _, r := range findRoots(f) {
		if !r.Static() || strings.HasPrefix(r.Text, "-") {
			return nil
		}
	}
	return f
}

// metadataOnly reports a command that shows names, sizes or counts of the
// files it is given, never their content: a glob that may match a secret
// file does not expose it.
func metadataOnly(base string) bool { return cmdbase.Unix(base).Has(cmdbase.Metadata) }

// secretName matches variable names that may hold a secret.
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)key|token|secret|pass|cred|auth|session|cookie|private|signature|url|dsn|conn`)
})

// transparentShell reports sh -c 'SCRIPT' (bash, zsh…) with a static
// script nb analysed completely and only options that do not change what
// runs: it is a wrapper like env, its commands are leaves of their own,
// each judged and covered on its own (after "make build" is granted,
// bash -c 'make build' runs without asking).
func transparentShell(l *shellparse.Leaf) bool {
	// only shells whose language is the bash nb parses: zsh's glob
	// qualifiers, fish's (…) run code bash would not
	if !cmdbase.Unix(l.Base()).Has(cmdbase.Bourne) {
		return false
	}
	if len(l.Inner) == 0 || len(l.Unknown) > 0 {
		return false
	}
	args := l.Args()
	for i, w := range args {
		if !w.Static() {
			return false
		}
		t := w.Text
		switch {
		case t == "-o" && i+1 < len(args) && args[i+1].Text == "pipefail":
		case t == "pipefail" && i > 0 && args[i-1].Text == "-o":
		case t == "--norc" || t == "--noprofile":
		case strings.HasPrefix(t, "-") && len(t) > 1 && strings.Trim(t[1:], "ceuxlv") == "":
			if strings.HasSuffix(t, "c") {
				// the script is next and must be the last word
				return i == len(args)-2
			}
		default:
			return false
		}
	}
	return false
}

// readsCode reports an interpreter whose standard input is fed by the
// command (a pipe, a here-document, a file): it may be read as code.
func readsCode(l *shellparse.Leaf) bool {
	if l.StdinFromPipe {
		return true
	}
	for _, r := range l.Redirs {
		if r.Heredoc || r.Read && (r.Fd == "" || r.Fd == "0") {
			return true
		}
	}
	return false
}

// followsLinks reports a recursive reader that enters the symbolic links
// it meets below its operands (grep -R, rg -L); for readers not known to
// leave them alone, true.
func followsLinks(base string, args []word) bool {
	switch base {
	case "grep", "egrep", "fgrep":
		return cmdbase.ShortFlags(args, "efmABCdD")['R'] || cmdbase.HasLong(args, "dereference-recursive")
	case "rg":
		return cmdbase.ShortFlags(args, "efmABCgtTjMrE")['L'] || cmdbase.HasLong(args, "follow")
	}
	return true
}

// secretExpansion says why the text expands a variable that may hold a
// secret, in any context bash expands one (an assignment then used, a
// here-string, a here-document, arithmetic), or one chosen at run time.
func secretExpansion(a *shellparse.Analysis) string {
	for _, name := range a.Expands {
		if secrets.EnvMayHoldSecret(name) {
			return "expands $" + name + ", which may hold a secret"
		}
	}
	if a.IndirectExpansion {
		return "expands a variable named at run time (${!name}), which may hold a secret"
	}
	for _, l := range a.Leaves {
		// declare -n r=TOKEN makes $r read TOKEN
		if cmdbase.Unix(l.Base()).Has(cmdbase.NameRefs) {
			if cmdbase.ShortFlags(l.Args(), "")['n'] {
				for _, w := range l.Args() {
					if _, v, ok := strings.Cut(w.Text, "="); ok && (!w.Static() || secrets.EnvMayHoldSecret(v)) {
						return l.Base() + " -n makes a name refer to " + v + ", which may hold a secret"
					}
				}
			}
		}
	}
	return ""
}

// namesFileList reports --files0-from=LIST or --files-from=LIST (or an
// abbreviation long enough to be nothing else, --files0): the files read
// are named in a list. rg's --files lists names and is not one.
func namesFileList(ws []word) bool {
	for _, w := range ws {
		if w.Text == "--" {
			return false
		}
		n, _, _ := strings.Cut(strings.TrimPrefix(w.Text, "--"), "=")
		if !strings.HasPrefix(w.Text, "--") {
			continue
		}
		if len(n) >= len("files0") && strings.HasPrefix("files0-from", n) || len(n) >= len("files-") && strings.HasPrefix("files-from", n) {
			return true
		}
	}
	return false
}
