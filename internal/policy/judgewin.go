package policy

import (
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/winshell"
)

// Step 3 of the pipeline for a leaf of cmd.exe or PowerShell: what the
// command base says the command does with these arguments (cmdbase.Judge:
// reads, writes, changes, runs, sends, dangerous), what the disk says of
// the paths it names, in every Windows spelling (winpaths.go). A program
// that behaves as on Unix (git, go, docker) is judged as bash's leaves
// are, on the same leaf (judge.go).

// winInfo is what the rules and the explanation need of a cmd.exe or
// PowerShell leaf besides leafInfo.
type winInfo struct {
	j cmdbase.Judgement
	// names are the spellings a rule may name it by, lower-cased: as
	// written, without directory and .exe, its canonical name and its
	// aliases.
	names []string
	// view is the leaf as rules see it: every word lower-cased.
	view *shellparse.Leaf
	// linux is the Linux command wsl runs, as bash would run it (deny
	// rules see it too).
	linux *shellparse.Leaf
	// writes: it writes files; quiet: as cp and mkdir in bash, asked
	// without a warning.
	writes, quiet bool
	// portable: judged as on Unix.
	portable bool
	// spelled are its spellings (spellings) and views the leaf under
	// each name a rule meets it by (named): made on first use, once per
	// decision.
	spelled []string
	views   map[string]*shellparse.Leaf
}

// shellOf is the command base's name for a leaf's shell.
func shellOf(l *shellparse.Leaf) cmdbase.Shells {
	if l.Dialect == shellparse.PowerShell {
		return cmdbase.PowerShell
	}
	return cmdbase.Cmd
}

// winLeafInfo is step 3 for one cmd.exe or PowerShell leaf, in the
// directory the commands before it leave.
func (e *Engine) winLeafInfo(l *shellparse.Leaf, cc CommandContext, sec *winSecrets) *leafInfo {
	cc.Cwd, cc.CwdUnknown = l.Dir.Paths[0], l.Dir.Unknown || cc.CwdUnknown
	w := &winInfo{view: lowerLeaf(l)}
	info := &leafInfo{safe: true, win: w}
	switch {
	case len(l.Words) == 0:
		w.names = []string{""}
		if len(l.Redirs) > 0 {
			info.notSafe("a redirection without a command")
		}
		return info
	case l.Words[0].Dynamic:
		w.names = []string{strings.ToLower(l.Words[0].Text)}
		info.notSafe("the command name is known only at run time")
		return info
	}
	e.winJudge(l, w)
	if dynamicArgs(l, w.j) {
		info.notSafe("an argument is known only at run time")
	}
	e.winKind(l, cc, sec, info)
	if info.danger != "" {
		info.safe, info.exactOnly = false, true
	}
	if w.writes {
		info.exactOnly = true
		info.warns = info.warns || !w.quiet
	}
	return info
}

// notSafe marks the leaf as not provably read-only, for why (the first
// reason stays, as the old judgement of each shell kept its last: the
// later steps say more).
func (info *leafInfo) notSafe(why string) {
	info.safe = false
	info.why = why
}

// dynamicArgs reports an argument known only at run time: a value
// PowerShell computes from literals and commands judged on their own
// ((Get-Date).AddDays(-1)) only where it names a file.
func dynamicArgs(l *shellparse.Leaf, j cmdbase.Judgement) bool {
	for _, w := range l.Args() {
		if w.Dynamic && !(w.Computed && j.Spec != nil && j.Spec.Args == cmdbase.TextArgs) {
			return true
		}
	}
	return false
}

// lowerLeaf is l with every word lower-cased (Windows names, switches
// and paths ignore case) and the name without directory and .exe.
func lowerLeaf(l *shellparse.Leaf) *shellparse.Leaf {
	v := *l
	v.Words = make([]shellparse.Word, len(l.Words))
	for i, w := range l.Words {
		w.Text = strings.ToLower(w.Text)
		v.Words[i] = w
	}
	return &v
}

// winJudge asks the command base what the leaf's command does, and
// lists the names it goes by.
func (e *Engine) winJudge(l *shellparse.Leaf, w *winInfo) {
	sh := shellOf(l)
	name := l.Words[0].Text
	args := make([]cmdbase.Arg, 0, len(l.Words)-1)
	for _, a := range l.Args() {
		args = append(args, cmdbase.Arg{Text: a.Text, Quoted: a.Quoted})
	}
	w.j = cmdbase.Judge(sh, name, args)
	written := strings.ToLower(name)
	if i := strings.LastIndexAny(written, `\/`); i >= 0 && !winSystemBin[winCanon(written[:i])] && !moduleQualified(sh, written) {
		// a program named by its path is the known one only in the
		// system's directories: .\findstr.exe may be anything
		w.j = cmdbase.Judgement{Name: winshell.BaseName(written), Does: cmdbase.Unknown,
			Why: "unknown program: " + name, Operands: w.j.Operands, Files: w.j.Operands}
	}
	if mod, _, ok := cmdbase.SplitModule(written); ok && sh == cmdbase.PowerShell && !cmdbase.ShippedModule(mod) && w.j.Does == cmdbase.Reads {
		// another module's cmdlet of that name may do anything
		w.j.Does, w.j.Why = cmdbase.Unknown, "a cmdlet of module "+mod+": "+name
	}
	w.names = make([]string, 1, 4)
	w.names[0] = written
	add := func(n string) {
		n = strings.ToLower(n)
		if n != "" && !contains(w.names, n) {
			w.names = append(w.names, n)
		}
	}
	if w.j.Spec != nil {
		add(w.j.Spec.Name)
	}
	add(winshell.BaseName(name))
	if w.j.Spec != nil {
		for _, a := range w.j.Spec.Aliases {
			add(a)
		}
	}
}

// winKind judges the leaf by what kind of command it is: one that runs
// the leaves it holds, a program that behaves as on Unix, wsl, or a
// command of the base (winEffect).
func (e *Engine) winKind(l *shellparse.Leaf, cc CommandContext, sec *winSecrets, info *leafInfo) {
	w := info.win
	j := w.j
	written := w.names[0]
	if len(l.Inner) > 0 && j.Spec != nil && j.Spec.Wraps != cmdbase.NoWrap {
		// its commands are judged on their own
		if j.Spec.Wraps == cmdbase.StartsInner {
			info.notSafe(j.Name + " runs a program")
		} else {
			info.harmlessWrapper = true
		}
		return
	}
	if l.Dialect == shellparse.Cmd && !strings.ContainsAny(written, `\/`) && (j.Portable || j.Spec != nil && j.Spec.In == cmdbase.Both) {
		if why := shadowed(cc, winshell.BaseName(written)); why != "" {
			info.notSafe(why)
			return
		}
	}
	if j.Portable {
		w.portable = true
		e.portableInfo(l, l, cc, info)
		return
	}
	if j.Spec != nil && j.Spec.Linux {
		e.wslInfo(l, wslCommand(l), cc, info)
		return
	}
	e.winEffect(l, cc, sec, info)
}

// portableInfo judges a program that behaves as on Unix (git, go,
// docker…) as bash's leaves are judged: its words as bash would pass
// them, paths in the analysis's form, in the same directory.
func (e *Engine) portableInfo(l, words *shellparse.Leaf, cc CommandContext, info *leafInfo) {
	view := &shellparse.Leaf{Words: make([]shellparse.Word, len(words.Words)), Dir: shellparse.Dirs{Paths: []string{winCanon(cc.Cwd)}, Unknown: cc.CwdUnknown}}
	for i, w := range words.Words {
		t := w.Text
		if i == 0 {
			t = winshell.BaseName(t)
		} else if winPathWord(t) {
			t = winAbs(t, cc.Cwd, cc.Home)
		}
		view.Words[i] = shellparse.Word{Text: t, Raw: w.Raw, Dynamic: w.Dynamic, Glob: w.Glob}
	}
	bcc := cc
	bcc.Cwd, bcc.Home = winCanon(cc.Cwd), winCanon(cc.Home)
	b := e.leafInfo(view, bcc)
	w := info.win
	info.safe = info.safe && b.safe
	if !b.safe && info.why == "" || b.danger != "" {
		info.why = b.why
	}
	for _, a := range words.Args() {
		if _, v, _ := strings.Cut(a.Text, "="); uncPath(a.Text) || uncPath(v) {
			// git -C \host\share: another machine's files, and a
			// repository nb has not looked at
			info.notSafe("reaches another machine or a raw device (" + a.Text + ")")
		}
	}
	info.danger, info.sensitive, info.noRule, info.optWrite = b.danger, b.sensitive, b.noRule, b.optWrite
	info.exactOnly, info.warns, info.network = b.exactOnly, b.warns, b.network
	info.noAlways = info.noAlways || b.noAlways || cmdbase.Unix(view.Base()).NoAlways()
	w.writes = w.writes || b.warns
	if l != words {
		w.linux = view
	}
}

// wslInfo judges wsl: what it runs in Linux is judged as bash would
// judge it and never allowed; warnings and deny rules see it.
func (e *Engine) wslInfo(l, inner *shellparse.Leaf, cc CommandContext, info *leafInfo) {
	if inner == nil && wslLists(l) {
		return // wsl's own listing: its distributions, status, version
	}
	if inner != nil {
		e.portableInfo(l, inner, cc, info)
	}
	if info.danger == "" {
		info.notSafe("runs a command in WSL")
	}
	info.safe, info.noAlways = false, true
}

// wslLists says wsl only lists its distributions (wsl -l -v) or shows
// its status, version or help: every argument is one of those switches,
// written plainly.
func wslLists(l *shellparse.Leaf) bool {
	if len(l.Args()) == 0 {
		return false // the default distribution's shell
	}
	for _, a := range l.Args() {
		if a.Dynamic || a.Quoted {
			return false
		}
		switch strings.ToLower(a.Text) {
		case "-l", "--list", "-v", "--verbose", "-q", "--quiet", "--all", "--running", "--status", "--version", "--help":
		default:
			return false
		}
	}
	return true
}

// wslCommand is the Linux command wsl runs (wsl [options] [-e|--exec|--]
// COMMAND…), or nil.
func wslCommand(l *shellparse.Leaf) *shellparse.Leaf {
	args := l.Args()
	for i := 0; i < len(args); i++ {
		switch strings.ToLower(args[i].Text) {
		case "-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id":
			i++
		case "-e", "--exec", "--":
			if i+1 < len(args) {
				return &shellparse.Leaf{Words: args[i+1:]}
			}
			return nil
		default:
			if strings.HasPrefix(args[i].Text, "-") {
				return nil // --install, --list, --shutdown…: wsl's own work
			}
			return &shellparse.Leaf{Words: args[i:]}
		}
	}
	return nil
}

// winPathWord says a word is a Windows path (C:\x, ..\x, ~\x), which the
// bash judgement should see in its own spelling; other words (options,
// messages with a colon) are passed as written.
func winPathWord(t string) bool {
	if strings.HasPrefix(t, "-") {
		return false
	}
	return len(t) >= 3 && isLetter(t[0]) && t[1] == ':' && (t[2] == '\\' || t[2] == '/') ||
		strings.Contains(t, `\`) || strings.HasPrefix(t, "~")
}

// moduleQualified says a PowerShell name is a cmdlet named with its module
// (Microsoft.PowerShell.Management\Get-ChildItem, Storage\Format-Volume),
// not a path.
func moduleQualified(sh cmdbase.Shells, name string) bool {
	_, _, ok := cmdbase.SplitModule(name)
	return ok && sh == cmdbase.PowerShell
}

// winEffect judges a command of the base by its effect: a reader by the
// paths it names, a writer by where it writes, anything else by what it
// does.
func (e *Engine) winEffect(l *shellparse.Leaf, cc CommandContext, sec *winSecrets, info *leafInfo) {
	w := info.win
	j := e.configuredWin(l, w)
	for _, p := range append(j.Operands[:len(j.Operands):len(j.Operands)], j.Values...) {
		if d := winDrive(p); d != "" {
			info.notSafe("reads the PowerShell " + d + " drive (variables, environment or certificates)")
			info.sensitive = "the " + d + " drive holds variables, the environment or certificates"
		}
	}
	if !(j.Spec != nil && j.Spec.Echoes) {
		for _, a := range l.Args() {
			// a share or device as an option's value: where /r
			// \\host\share, findstr /g:\\host\x, -Path:\\host\x
			if v := a.Text[strings.IndexAny(a.Text, ":=")+1:]; uncPath(a.Text) || len(v) < len(a.Text) && uncPath(v) {
				info.notSafe("reaches another machine or a raw device (" + a.Text + ")")
			}
		}
	}
	if e.winHive(l, j, info) {
		return
	}
	switch j.Does {
	case cmdbase.Reads:
		e.winReads(j, cc, sec, info)
	case cmdbase.Writes:
		e.winWrites(j, cc, info)
	case cmdbase.Dangerous:
		info.danger = j.Why
		if info.danger == "" {
			info.danger = j.Name
		}
		info.notSafe(info.danger)
	case cmdbase.Unknown:
		info.notSafe(j.Why)
		if j.Why == "" {
			info.notSafe(j.Name + " is not in the command base")
		}
	default:
		why := j.Why
		if why == "" {
			why = j.Name + " " + map[cmdbase.Effect]string{cmdbase.Sends: "uses the network",
				cmdbase.Runs: "runs other programs or code", cmdbase.Changes: "changes the system or the session"}[j.Does]
		}
		info.notSafe(why)
		if j.Does == cmdbase.Sends || j.Does == cmdbase.Runs {
			// as for network tools, shells and interpreters in bash: no
			// "Always" (an exact --approve rule still works)
			info.noAlways = true
			info.network = j.Does == cmdbase.Sends
		}
	}
}

// configuredWin is the judgement with approval.safeCommands applied:
// "!dir" takes a reader off the safe list (the first of its names that
// is removed is the one the reason names), a name adds an unknown program
// to it.
func (e *Engine) configuredWin(l *shellparse.Leaf, w *winInfo) cmdbase.Judgement {
	j := w.j
	if j.Does == cmdbase.Reads {
		for _, n := range w.names {
			if k, ok := e.removedSafeWin[n]; ok {
				j.Does, j.Why = cmdbase.Unknown, k+" is removed from the safe list (approval.safeCommands)"
				break
			}
		}
	}
	if j.Does == cmdbase.Unknown && j.Spec == nil && !j.Portable && !strings.ContainsAny(w.names[0], `\/`) {
		for k := range e.safeNames {
			if strings.EqualFold(k, winshell.BaseName(l.Words[0].Text)) {
				j.Does = cmdbase.Reads
			}
		}
	}
	w.j = j
	return j
}

// winHive judges what a command does to the registry's hives of stored
// credentials; true when that decides it.
func (e *Engine) winHive(l *shellparse.Leaf, j cmdbase.Judgement, info *leafInfo) bool {
	tree := j.Recurse || hasParam(l, "-recurse", 2) || hasParam(l, "-depth", 2)
	lists := j.Spec != nil && j.Spec.Lists
	for _, k := range append(j.Operands[:len(j.Operands):len(j.Operands)], j.Values...) {
		if !credentialHive(k, tree, lists) {
			continue
		}
		if j.Does == cmdbase.Reads {
			info.sensitive = "reads a registry key that holds secrets (" + k + ")"
			info.notSafe(info.sensitive)
		} else if j.Does != cmdbase.Unknown && strings.HasPrefix(registryKey(k), `hklm\`) {
			info.danger = "copies or changes the registry hive of stored credentials (" + k + ")"
			info.notSafe("copies or changes " + k)
			return true
		}
	}
	return false
}

// winReads judges a reader: what it names must be no secret, no other
// machine, no tree holding secrets, in a directory that is known.
func (e *Engine) winReads(j cmdbase.Judgement, cc CommandContext, sec *winSecrets, info *leafInfo) {
	if j.Named {
		info.notSafe(j.Name + " reads the files a list or its input names, which are not known")
	}
	if j.ShowsEnv {
		info.notSafe(j.Name + " shows variables, history or the clipboard, which may hold secrets")
		info.sensitive = j.Name + " shows variables, which may hold secrets"
	}
	for _, p := range j.Operands {
		if uncPath(p) {
			// reg query \\host\HKLM\…, a share, a raw device
			info.notSafe("reaches another machine or a raw device (" + p + ")")
		}
	}
	for _, p := range j.Files {
		if uncPath(p) {
			info.notSafe("reaches another machine or a raw device (" + p + ")")
		}
		if registryKey(p) != "" {
			continue // a key, judged by credentialHive, not a file
		}
		if winDrive(p) == "" && sec.secret(p, cc, strings.ContainsAny(p, "*?")) {
			info.sensitive = "reads " + p
			info.notSafe("reads a sensitive path: " + p)
		}
	}
	if j.Recurse {
		for _, r := range treeRoots(j.Files) {
			if why := e.winTree(r, cc); why != "" {
				info.notSafe(why)
			}
		}
	}
	if cc.CwdUnknown && info.safe && len(j.Files) > 0 {
		info.notSafe("the directory it runs in is not known")
	}
}

// winWrites judges a writer: asked (as cp and mkdir in bash, not warned
// unless it deletes or moves), dangerous where it changes a system
// location.
func (e *Engine) winWrites(j cmdbase.Judgement, cc CommandContext, info *leafInfo) {
	w := info.win
	w.quiet = (j.Cat == cmdbase.CatCopy || j.Cat == cmdbase.CatMkdir) && !w.writes
	w.writes = true
	info.notSafe(j.Name + " writes files")
	if j.Why != "" {
		info.notSafe(j.Why)
	}
	for _, ws := range [2][]string{j.Operands, j.Values} {
		for _, p := range ws {
			if winSystemPath(winAbs(p, cc.Cwd, cc.Home), cc.Home) {
				info.danger = j.Name + " changes a system location (" + p + ")"
			}
		}
	}
}

// hasParam says whether the leaf has parameter name (lower case, with
// its dash or slash) or an abbreviation of it at least min letters long.
func hasParam(l *shellparse.Leaf, name string, min int) bool {
	for _, w := range l.Args() {
		lw := strings.ToLower(w.Text)
		if w.Quoted || len(lw) < min || lw[0] != name[0] {
			continue
		}
		if i := strings.IndexByte(lw, ':'); i > 0 {
			lw = lw[:i]
		}
		if strings.HasPrefix(name, lw) {
			return true
		}
	}
	return false
}

// winRedir judges a redirection of cmd.exe or PowerShell: a write is
// asked and warned (dangerous into a system location), a read of a secret
// or another machine is not safe.
func (e *Engine) winRedir(r *shellparse.Redir, cc CommandContext, sec *winSecrets, as *assessment, t *tally) {
	if l := r.Leaf; len(l.Dir.Paths) > 0 {
		cc.Cwd, cc.CwdUnknown = l.Dir.Paths[0], l.Dir.Unknown || cc.CwdUnknown
	}
	tg := r.Target.Text
	switch {
	case r.Write && !harmlessTarget(tg):
		as.writes, t.unsafe = true, true
		if r.Target.Dynamic {
			as.reason("writes a file named at run time")
		} else {
			as.reason("writes " + tg + " by redirection")
		}
		if winSystemPath(winAbs(tg, cc.Cwd, cc.Home), cc.Home) {
			t.dangerous = true
			as.reason("dangerous: redirection into a system location (" + tg + ")")
		}
		if sec.secret(tg, cc, false) {
			as.reason("sensitive: writes " + tg)
		}
	case r.Read:
		if uncPath(tg) {
			t.unsafe = true
			as.reason("reaches another machine or a raw device (" + tg + ")")
		}
		if sec.secret(tg, cc, r.Target.Glob) {
			as.redirSensitive, t.unsafe = true, true
			as.reason("sensitive: reads " + tg)
		}
	}
}
