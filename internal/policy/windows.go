package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/secrets"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/winshell"
)

// Commands for cmd.exe and PowerShell are parsed by package winshell
// (the plain subset of each shell) and judged by the command base of
// package cmdbase; this file maps them onto the engine's verdicts, in
// the order of SPEC §6.1: deny rules (on every spelling the parser sees:
// carets, @, cmd /c, if …, aliases and canonical cmdlet names, any
// case), pre-approval by rules and grants, provably read-only commands
// (every command in the base as a reader, no secret path, no write, no
// construct outside the subset), then ask. Dangerous names warn wherever
// they appear, inside blocks and nested shells too.

// winLeaf is one command of a Windows script with its judgement.
type winLeaf struct {
	cmd   *winshell.Command
	j     cmdbase.Judgement
	leaf  *shellparse.Leaf // lower-cased words, for rules
	leafv shellparse.Leaf  // what leaf points to
	// names are the spellings a deny rule may name: as written, without
	// directory and .exe, the canonical name and its aliases.
	names   []string
	danger  string
	unsafe  string // why it is not provably read-only
	secret  string // a secret path it reads
	writes  bool
	wrapper bool // cmd /c, powershell -Command, if: only what it runs counts
	quiet   bool // a write shown without a warning (copy, mkdir)
	// rule is the rule "Always" saves ("" for none) once ruleSet; until
	// then it is winRule's, worked out when asked for (ruleText).
	rule    string
	ruleSet bool
	// linux is where the Linux command wsl runs starts in the leaf's
	// words (0: none); deny rules are matched against it too
	linux int
}

// ruleText is the rule "Always" saves for the command, "" for none.
func (wl *winLeaf) ruleText() string {
	if !wl.ruleSet {
		wl.rule, wl.ruleSet = winRule(wl.cmd, wl.j), true
	}
	return wl.rule
}

func windowsShell(k sysinfo.ShellKind) (cmdbase.Shells, bool) {
	switch k {
	case sysinfo.ShellCmd:
		return cmdbase.Cmd, true
	case sysinfo.ShellPowerShell:
		return cmdbase.PowerShell, true
	}
	return 0, false
}

// winAbs resolves a path word against the directory (both Windows
// spellings) into the compared form.
func winAbs(p, cwd, home string) string {
	p = winPlainPath(p)
	if p == "~" || strings.HasPrefix(p, `~\`) || strings.HasPrefix(p, "~/") {
		p = home + p[1:]
	}
	s := winCanon(p)
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) && len(p) > 2 && p[2] != '\\' && p[2] != '/' {
		s = "/" + strings.ToLower(p[:1]) + "/" + winCanon(p[2:]) // C:x: relative to that drive
	}
	if !strings.HasPrefix(s, "/") && cwd != "" {
		s = winCanon(cwd) + "/" + s
	}
	if strings.HasPrefix(s, "//") && len(s) > 2 && s[2] != '/' {
		// \\server\share, \\.\device, \\?\…: the prefix stays as written
		pre := "//"
		if strings.HasPrefix(s, "//./") || strings.HasPrefix(s, "//?/") {
			pre = s[:4]
		}
		return pre + strings.TrimPrefix(path.Clean("/"+s[len(pre):]), "/")
	}
	return path.Clean(s)
}

// winPlainPath is the file a Windows path names without a PowerShell
// provider (FileSystem::) or a \\?\, \\.\ or \\localhost\c$\ prefix
// before a drive (winCanon drops streams and trailing dots and spaces).
func winPlainPath(p string) string {
	if i := strings.Index(p, "::"); i > 0 && strings.HasSuffix(strings.ToLower(p[:i]), "filesystem") {
		p = p[i+2:] // FileSystem::C:\x, Microsoft.PowerShell.Core\FileSystem::C:\x
	}
	for _, pre := range []string{`\\?\`, `\\.\`, `//?/`, `//./`} {
		if rest, ok := strings.CutPrefix(p, pre); ok && len(rest) >= 2 && isLetter(rest[0]) && rest[1] == ':' {
			p = rest
		}
	}
	if lp := strings.ToLower(p); strings.HasPrefix(lp, `\\localhost\`) || strings.HasPrefix(lp, `\\127.0.0.1\`) {
		_, rest, _ := strings.Cut(p[2:], `\`)
		if len(rest) >= 2 && isLetter(rest[0]) && rest[1] == '$' {
			p = rest[:1] + ":" + rest[2:]
		}
	}
	return p
}

// winSecret says whether a path word names a secret, in any Windows
// spelling (C:\Users\Me\.ssh, %USERPROFILE%\.aws, ~\.ssh, .\.env).
func (e *Engine) winSecret(p, cwd, home string, glob bool) bool {
	if p == "" {
		return false
	}
	abs := winAbs(p, cwd, home)
	if e.sensitivePath(abs, "", glob) {
		return true
	}
	for seg := range strings.SplitSeq(abs, "/") {
		if secrets.AliasMayBe(seg) {
			return true
		}
	}
	for _, t := range winHomeSecrets(home) {
		if abs == t || strings.HasPrefix(abs, t) && abs[len(t)] == '/' {
			return true
		}
	}
	absSlash := abs + "/"
	for _, u := range winBelow {
		if strings.Contains(absSlash, u) {
			return true
		}
	}
	return secrets.WindowsName(path.Base(abs))
}

// winBelow are the Windows credential locations of the secret-file list,
// each with a final slash.
var winBelow = func() []string {
	below := secrets.WindowsBelow()
	for i, u := range below {
		below[i] = u + "/"
	}
	return below
}()

// winSecrets remembers winSecret's answers for the paths of one decision
// (one directory, one home), which often names a path many times, and
// judges each path where the disk (facts, when known) says it leads: a
// link or junction followed, an 8.3 alias (APPLIC~1.YAM) read as its
// long name, content with a key's shape.
type winSecrets struct {
	e         *Engine
	cwd, home string
	facts     Facts
	seen      map[winSecretKey]bool
}

type winSecretKey struct {
	p    string
	glob bool
}

func (s *winSecrets) secret(p string, glob bool) bool {
	k := winSecretKey{p, glob}
	if v, ok := s.seen[k]; ok {
		return v
	}
	v := s.e.winSecret(p, s.cwd, s.home, glob) || !glob && p != "" && s.onDisk(winAbs(p, s.cwd, s.home))
	if s.seen == nil {
		s.seen = map[winSecretKey]bool{}
	}
	s.seen[k] = v
	return v
}

// onDisk says whether the absolute path abs (compared form) leads to a
// secret as the disk resolves it: where it cannot be told, it does.
func (s *winSecrets) onDisk(abs string) bool {
	if s.facts == nil || !strings.HasPrefix(abs, "/") || strings.HasPrefix(abs, "//") {
		return false // UNC and device paths are judged as such, never opened
	}
	t, st := s.facts.Resolve(abs)
	switch st {
	case PathUnknown:
		return true
	case PathMissing:
		return false
	}
	if t = winCanon(t); t != abs && s.e.winSecret(t, "", s.home, false) {
		return true
	}
	return s.facts.SecretContent(t)
}

var homeSecretsCache sync.Map // home → []string

// winHomeSecrets are the secret-file list's locations below home, in the
// compared form.
func winHomeSecrets(home string) []string {
	if home == "" {
		return nil
	}
	if v, ok := homeSecretsCache.Load(home); ok {
		return v.([]string)
	}
	h := winCanon(home)
	out := make([]string, 0, len(homeTrees))
	for _, hp := range homeTrees {
		out = append(out, h+"/"+strings.ToLower(hp))
	}
	homeSecretsCache.Store(home, out)
	return out
}

// winSystemPath says whether writing or deleting abs (compared form)
// touches the system: a drive's root, Windows, Program Files, the users
// directory, the profile itself and the files that run at start-up.
func winSystemPath(abs, home string) bool {
	if strings.HasPrefix(abs, "//./") || strings.HasPrefix(abs, "//?/") {
		return true // a device: \\.\PhysicalDrive0, \\?\GLOBALROOT\…, a volume
	}
	if i := strings.LastIndexByte(abs, '/'); i > 0 && strings.ContainsAny(abs[i+1:], "*?") {
		// C:\*, C:\Users\me\*.*: every file of a system location
		if winSystemPath(abs[:i], home) {
			return true
		}
	}
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	if len(parts) == 1 && len(parts[0]) == 1 {
		return true // C:\
	}
	if len(parts) >= 2 && len(parts[0]) == 1 {
		switch parts[1] {
		case "windows", "program files", "program files (x86)", "programdata", "boot", "recovery", "system volume information", "$recycle.bin":
			return true
		case "users":
			if len(parts) == 2 {
				return true
			}
		}
	}
	h := winCanon(home)
	if h != "" && (abs == h || strings.HasPrefix(abs, h+"/appdata/roaming/microsoft/windows/start menu") ||
		strings.HasPrefix(abs, h+"/documents/windowspowershell") || strings.HasPrefix(abs, h+"/documents/powershell") ||
		strings.HasPrefix(abs, h+"/.ssh")) {
		return true
	}
	return false
}

// LocalPrograms is an optional part of Facts for cmd.exe, which runs a
// program of the current directory before any on PATH: LocalProgram
// reports whether dir holds a program (name, or name with a PATHEXT
// extension) that a bare name would run instead of the system's.
type LocalPrograms interface {
	LocalProgram(dir, name string) bool
}

// shadowed says why a bare program name in cmd.exe may run a file of the
// directory instead of the known program, or "".
func shadowed(cc CommandContext, name string) string {
	lp, ok := cc.Facts.(LocalPrograms)
	switch {
	case cc.Facts == nil || !ok:
		return "cmd.exe runs a " + name + " of the current directory first, and what is there is not known"
	case cc.CwdUnknown:
		return "the directory it runs in is not known"
	case lp.LocalProgram(cc.Cwd, name):
		return "the current directory holds its own " + name + ", which cmd.exe would run"
	}
	return ""
}

// winSystemBin are the directories Windows' own programs live in.
var winSystemBin = map[string]bool{
	"/c/windows/system32": true, "/c/windows": true, "/c/windows/syswow64": true,
	"/c/windows/system32/wbem": true, "/c/windows/system32/windowspowershell/v1.0": true,
}

// secretKeys are the registry keys that hold password hashes and secrets
// (the SAM and SECURITY hives, the SYSTEM hive's boot key, Winlogon's
// DefaultPassword of automatic sign-in), in the compared form.
var secretKeys = []string{`hklm\sam`, `hklm\security`, `hklm\system`,
	`hklm\software\microsoft\windows nt\currentversion\winlogon`,
	// the user's lasting environment (setx writes it): tokens
	`hkcu\environment`}

// registryKey is a registry key in the compared form (hklm\…, lower
// case, backslashes), or "" when key names none.
func registryKey(key string) string {
	if key == "" || key[0]|0x20 != 'h' && key[0]|0x20 != 'r' && key[0]|0x20 != 'm' {
		return "" // no root begins otherwise, in any case
	}
	k := strings.TrimRight(strings.ToLower(strings.ReplaceAll(key, "/", `\`)), `\`)
	k = strings.TrimPrefix(k, "microsoft.powershell.core\\")
	for _, root := range []string{`hklm`, `hkey_local_machine`, `hklm:`, `registry::hkey_local_machine`, `registry::hklm`,
		`hkcu`, `hkey_current_user`, `hkcu:`, `registry::hkey_current_user`, `registry::hkcu`} {
		if rest, ok := strings.CutPrefix(k, root); ok && (rest == "" || rest[0] == '\\' || strings.HasSuffix(root, ":")) {
			hive := "hklm"
			if strings.Contains(root, "cu") || strings.Contains(root, "current_user") {
				hive = "hkcu"
			}
			return hive + `\` + strings.TrimPrefix(rest, `\`)
		}
	}
	return ""
}

// credentialHive says a registry key holds password hashes or secrets, or,
// read with its subkeys (tree) or listed with their values (lists), shows
// one.
func credentialHive(key string, tree, lists bool) bool {
	k := strings.TrimSuffix(registryKey(key), `\`)
	if k == "" {
		return false
	}
	for _, s := range secretKeys {
		switch {
		case k == s || strings.HasPrefix(k, s+`\`):
			return true
		case tree && strings.HasPrefix(s, k+`\`):
			return true
		case lists && strings.HasPrefix(s, k+`\`) && !strings.Contains(s[len(k)+1:], `\`):
			return true
		}
	}
	return false
}

// autostartKeys are registry keys (below a hive) whose values start
// programs: at sign-in, with every cmd.exe, or in place of another.
var autostartKeys = []string{`\software\microsoft\windows\currentversion\run`,
	`\software\microsoft\windows nt\currentversion\winlogon`,
	`\software\microsoft\windows nt\currentversion\image file execution options`,
	`\software\microsoft\command processor`,
	`\software\wow6432node\microsoft\windows\currentversion\run`,
	`\software\microsoft\windows\currentversion\policies\explorer\run`}

// autostartKey is the autostart key a registry path names (any hive,
// Run, RunOnce…), or "".
func autostartKey(key string) string {
	k := strings.ToLower(strings.ReplaceAll(key, "/", `\`))
	if !strings.HasPrefix(k, "hk") && !strings.HasPrefix(k, "registry::") {
		return ""
	}
	for _, a := range autostartKeys {
		if i := strings.Index(k, a); i >= 0 {
			return key
		}
	}
	return ""
}

// uncPath says a path names another machine's share or a device
// (\\server\share, \\.\PhysicalDrive0, \\?\…): reading it connects or
// reads raw disks.
func uncPath(p string) bool {
	return strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") || strings.HasPrefix(p, `\/`) || strings.HasPrefix(p, `/\`)
}

// harmlessTarget: redirections to these write nothing.
func harmlessTarget(t string) bool {
	switch strings.ToLower(t) {
	case "nul", "$null", "con", "nul:", `\\.\nul`:
		return true
	}
	return false
}

// winDrives are PowerShell drives whose items are not files; reading them
// shows variables, functions, certificates or settings.
var winDrives = []string{"env:", "variable:", "function:", "cert:", "wsman:", "alias:"}

func winDrive(w string) string {
	for _, d := range winDrives {
		if hasLowerPrefix(w, d) {
			return d
		}
	}
	// the same drives named by their provider: Environment::,
	// Microsoft.PowerShell.Core\Variable::
	if i := strings.Index(w, "::"); i > 0 {
		p := strings.ToLower(w[:i])
		if k := strings.LastIndexByte(p, '\\'); k >= 0 {
			p = p[k+1:]
		}
		switch p {
		case "environment", "variable", "function", "certificate", "wsman", "alias":
			return p + "::"
		}
	}
	return ""
}

// hasLowerPrefix says whether s in lower case begins with prefix (lower
// case ASCII), without a lower-case copy of s when its first bytes are
// ASCII.
func hasLowerPrefix(s, prefix string) bool {
	for i := 0; i < len(s) && i < len(prefix); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.HasPrefix(strings.ToLower(s), prefix)
		}
	}
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// decideWindows decides a command for cmd.exe or PowerShell.
func (e *Engine) decideWindows(command string, cc CommandContext, sh cmdbase.Shells, interactive bool, extra []*Pattern) *Decision {
	cc.Facts = memoize(cc.Facts)
	s, leaves := e.winAnalyse(command, cc, sh)
	d := &Decision{Full: command, Subject: command, Reasons: []string{}, DefaultAnswer: Yes, DirAfter: winDirAfter(s, leaves)}
	for _, u := range s.Unknown {
		d.reason("outside the plain " + sh.String() + " subset: " + u)
	}
	// 1. deny rules, on every spelling
	maybe, denied := e.winDenied(d, leaves, cc)
	if denied {
		d.Display = e.displayRun(command)
		return d
	}
	for _, m := range maybe {
		d.reason(fmt.Sprintf("may match deny rule %q once its words are known", m))
	}
	// 2. what the commands do
	dangerous := e.winAssess(d, s, leaves, len(maybe) > 0)
	needRule := winAlways(d, s, leaves)
	// 3. pre-approval by rules and grants, the safe list, the sandbox
	if src, ok := e.winPreApproved(s, leaves, extra, cc, len(maybe) > 0); ok {
		d.Decision, d.DecidedBy = Allow, src
		return d
	}
	if e.opts.Approval.AutoApproveSafe && d.Safety == Safe {
		d.Decision, d.DecidedBy = Allow, BySafeList
		return d
	}
	if cc.Isolation == IsolationSandbox && e.opts.Approval.AutoApproveInSandbox && !dangerous && len(maybe) == 0 {
		d.Decision, d.DecidedBy = Allow, BySandbox
		return d
	}
	// 4. ask; headless, refused with a remedy
	d = e.ask(d, nil, &assessment{}, nil)
	if d.Decision == Deny && extra == nil {
		d.Remedy = e.winRemedy(command, cc, sh, interactive, s, needRule, d.Warn)
	}
	return d
}

// reason adds r to the decision's reasons once.
func (d *Decision) reason(r string) {
	if !contains(d.Reasons, r) {
		d.Reasons = append(d.Reasons, r)
	}
}

// winAnalyse parses a cmd.exe or PowerShell command and judges each of
// its commands, pipelines included.
func (e *Engine) winAnalyse(command string, cc CommandContext, sh cmdbase.Shells) (*winshell.Script, []*winLeaf) {
	opts := winshell.Options{Home: cc.Home, Cwd: cc.Cwd}
	var s *winshell.Script
	if sh == cmdbase.Cmd {
		s = winshell.ParseCmd(command, opts)
	} else {
		s = winshell.ParsePowerShell(command, opts)
	}
	leaves := make([]*winLeaf, len(s.Commands))
	slab := make([]winLeaf, len(s.Commands))
	sec := &winSecrets{e: e, cwd: cc.Cwd, home: cc.Home, facts: cc.Facts}
	// each command is judged in the directory the ones before it leave
	// (cd C:\Windows & del win.ini deletes C:\Windows\win.ini)
	here, hsec := cc, sec
	for i, c := range s.Commands {
		csh := cmdbase.Cmd
		if c.PowerShell {
			csh = cmdbase.PowerShell
		}
		leaves[i] = &slab[i]
		e.winLeaf(leaves[i], c, csh, here, hsec)
		if moved, ok := winMoves(leaves[i], here); ok {
			if moved.Cwd != here.Cwd || moved.CwdUnknown != here.CwdUnknown {
				hsec = &winSecrets{e: e, cwd: moved.Cwd, home: cc.Home, facts: cc.Facts}
			}
			here = moved
		}
	}
	e.winPipelines(leaves, cc, sec)
	if sh == cmdbase.PowerShell && strings.Contains(command, "::") {
		winDotNet(command, leaves, cc)
	}
	return s, leaves
}

// dotNetCall finds [Type]::Method( calls, their first string argument and
// whether a second argument is $true.
var dotNetCall = regexp.MustCompile(`(?i)\[\s*([a-z][a-z0-9_.]*)\s*\]\s*::\s*([a-z_][a-z0-9_]*)\s*\(\s*(?:['"‘’“”]([^'"‘’“”]*)['"‘’“”])?(\s*,\s*\$true)?`)

// winDotNet judges the .NET methods a PowerShell script calls
// ([IO.File]::Delete('x'), outside the plain subset) by the base: they
// write, delete or run code like the cmdlets that do the same.
func winDotNet(command string, leaves []*winLeaf, cc CommandContext) {
	if len(leaves) == 0 {
		return
	}
	for _, m := range dotNetCall.FindAllStringSubmatch(command, -1) {
		call, ok := cmdbase.DotNet(m[1], m[2])
		if !ok {
			continue
		}
		wl := leaves[0]
		for _, l := range leaves {
			if len(l.cmd.Words) > 0 && strings.Contains(strings.ToLower(l.cmd.Words[0].Raw), "::"+strings.ToLower(m[2])) {
				wl = l
				break
			}
		}
		what := "[" + m[1] + "]::" + m[2]
		wl.unsafe = what + " " + call.Why
		switch call.Does {
		case cmdbase.Writes:
			wl.writes = true
			switch {
			case call.Recursive && m[4] != "":
				wl.danger = what + " deletes a whole tree"
			case m[3] != "" && winSystemPath(winAbs(m[3], cc.Cwd, cc.Home), cc.Home):
				wl.danger = what + " changes a system location (" + m[3] + ")"
			}
		case cmdbase.Runs:
			wl.rule, wl.ruleSet = "", true
		}
		if wl.danger != "" {
			wl.unsafe = wl.danger
		}
	}
}

// winDenied matches the deny rules against every command under each of
// its names; denied sets d's verdict, and maybe are the rules that may
// match once dynamic words are known.
func (e *Engine) winDenied(d *Decision, leaves []*winLeaf, cc CommandContext) (maybe []string, denied bool) {
	deny := e.denyRules(cc.Home)
	if len(deny) == 0 {
		return nil, false
	}
	lowered := make([]*Pattern, len(deny))
	for i, p := range deny {
		lowered[i] = lowerPattern(p)
	}
	for _, wl := range leaves {
		// the leaf under each of its names
		l := *wl.leaf
		l.Words = append([]shellparse.Word{{}}, wl.leaf.Words[1:]...)
		for i, p := range deny {
			lp := lowered[i]
			if wl.linux > 0 {
				// the Linux command wsl runs, as bash would run it
				linux := *wl.leaf
				linux.Words = make([]shellparse.Word, 0, len(wl.cmd.Words)-wl.linux)
				for _, w := range wl.cmd.Words[wl.linux:] {
					linux.Words = append(linux.Words, shellparse.Word{Text: w.Text, Raw: w.Raw, Dynamic: w.Dynamic, Glob: w.Glob})
				}
				if p.denies(&linux) || lp.denies(&linux) {
					d.Decision, d.DecidedBy = Deny, ByDenyRule
					d.Safety, d.WarnAt = Unknown, nil
					d.Reasons = append(d.Reasons, fmt.Sprintf("denied by rule %q (matches %q)", p.Src, wl.cmd.Name()))
					return maybe, true
				}
			}
			for _, n := range wl.names {
				l.Words[0] = shellparse.Word{Text: n, Raw: n}
				if lp.denies(&l) {
					d.Decision, d.DecidedBy = Deny, ByDenyRule
					d.Safety, d.WarnAt = Unknown, nil
					d.Reasons = append(d.Reasons, fmt.Sprintf("denied by rule %q (matches %q)", p.Src, wl.cmd.Name()))
					return maybe, true
				}
				if lp.Match(&l, matchMaybe) && !contains(maybe, p.Src) {
					maybe = append(maybe, p.Src)
				}
			}
		}
	}
	return maybe, false
}

// winAssess sets d's safety, warning and display line from what the
// commands do and the user's dangerousCommands and warnPatterns, and
// reports whether the command is dangerous.
func (e *Engine) winAssess(d *Decision, s *winshell.Script, leaves []*winLeaf, maybeDenied bool) (dangerous bool) {
	safe := len(s.Unknown) == 0 && !maybeDenied
	writes := false
	for _, wl := range leaves {
		if wl.danger != "" {
			dangerous = true
			d.reason("dangerous: " + wl.danger)
		}
		if wl.secret != "" {
			d.reason("sensitive path: " + wl.secret)
		}
		if wl.unsafe != "" {
			safe = false
			if wl.unsafe != wl.danger {
				d.reason(wl.unsafe)
			}
		}
		if wl.writes && !wl.quiet {
			writes = true
		}
	}
	// the user's dangerousCommands and warnPatterns, on every spelling
	warnHit := false
	if len(e.danger)+len(e.warn) > 0 {
		feats := append(append(make([]*feature, 0, len(e.danger)+len(e.warn)), e.danger...), e.warn...)
		what, hit := winFeatureHits(leaves, feats)
		for i, f := range feats {
			switch {
			case !hit[i]:
			case i < len(e.danger):
				dangerous = true
				d.reason(fmt.Sprintf("dangerous: %q matches dangerousCommands %q", what[i], f.src))
			default:
				warnHit = true
				d.reason(fmt.Sprintf("warning: %q matches warnPatterns %q", what[i], f.src))
			}
		}
	}
	if warnHit {
		safe = false
		for _, wl := range leaves {
			if wl.danger == "" {
				wl.danger = "matches the user's warnPatterns"
			}
		}
	}
	if dangerous {
		safe = false
	}
	var cat cmdbase.Category
	var subject string
	top := 0
	var single *winLeaf
	for _, wl := range leaves {
		if wl.cmd.Via == "" {
			top++
			single = wl
		}
	}
	if top == 1 && len(leaves) == 1 && len(s.Unknown) == 0 && s.Lines <= 1 {
		cat, subject = winCategory(single)
	}
	warn := dangerous || warnHit || writes || cat == cmdbase.CatDelete || cat == cmdbase.CatMove || cat == cmdbase.CatWrite || cat == cmdbase.CatAppend
	switch {
	case dangerous:
		d.Safety = Dangerous
	case safe:
		d.Safety = Safe
	default:
		d.Safety = Unknown
	}
	d.Warn = warn
	if warn {
		d.DefaultAnswer = No
	}
	if cat != cmdbase.CatNone {
		d.Display, d.WarnAt = string(cat)+": "+sanitize(subject, false), markAt(warn, len(cat))
		d.Category = Category(cat)
	} else {
		d.Display, d.WarnAt = e.displayRun(d.Full), markAt(warn, len("run"))
	}
	return dangerous
}

// winAlways sets the rules "Always" saves — one per command that needs
// one, when every one can have it — and returns the commands that need
// one.
func winAlways(d *Decision, s *winshell.Script, leaves []*winLeaf) []*winLeaf {
	needRule := []*winLeaf{}
	for _, wl := range leaves {
		if !wl.wrapper && wl.unsafe != "" {
			needRule = append(needRule, wl)
		}
	}
	if len(s.Unknown) != 0 || d.Warn || len(needRule) == 0 {
		return needRule
	}
	var rules []string
	for _, wl := range needRule {
		if wl.ruleText() == "" || wl.secret != "" {
			return needRule
		}
		if !contains(rules, wl.ruleText()) {
			rules = append(rules, wl.ruleText())
		}
	}
	d.Rule, d.OfferAlways = strings.Join(rules, "\n"), true
	return needRule
}

// winFeatureHits matches the user's dangerousCommands and warnPatterns
// (feats) against every command under each of its spellings, as written
// and without directory and .exe: the canonical name, the aliases, in
// their own case and lower case. For each feature it says whether one
// matched and the first that did, as written. The commands are seen the
// way feature.matchAnalysis sees the leaves of an analysis, one leaf per
// spelling in order; Windows redirections are not among them.
func winFeatureHits(leaves []*winLeaf, feats []*feature) (what []string, hit []bool) {
	what, hit = make([]string, len(feats)), make([]bool, len(feats))
	hasLeft := make([]bool, len(feats)) // "A | B": some leaf is A
	right := make([]string, len(feats)) // the first B fed as the feature requires
	var spelled []string                // the spellings of one leaf without directory and .exe
	var l shellparse.Leaf
	var words []shellparse.Word
	for _, wl := range leaves {
		l = *wl.leaf
		words = append(words[:0], wl.leaf.Words...)
		l.Words = words
		spelled = spelled[:0]
		spelling := func(n string) {
			b := n
			if i := strings.LastIndexAny(b, `\/`); i >= 0 {
				b = b[i+1:]
			}
			if len(b) >= 4 && strings.EqualFold(b[len(b)-4:], ".exe") {
				b = b[:len(b)-4]
			}
			if slices.Contains(spelled, b) {
				return
			}
			spelled = append(spelled, b)
			words[0] = shellparse.Word{Text: b, Raw: n}
			for i, f := range feats {
				switch {
				case f.redirOp != "":
				case f.pipeR != "":
					if strings.EqualFold(l.Base(), f.pipeL) {
						hasLeft[i] = true
					}
					if right[i] == "" && strings.EqualFold(l.Base(), f.pipeR) && (l.StdinFromNetwork || !isNetworkTool(f.pipeL) && l.StdinFromPipe) {
						right[i] = l.RawText()
					}
				case hit[i], f.re == nil && (f.name == "" || !f.nameMatches(b, b)):
					// found already, or another name (the leaf's name and
					// base name are b: matchLeaf would say no)
				case f.matchLeaf(&l):
					what[i], hit[i] = l.RawText(), true
				}
			}
		}
		for _, n := range wl.names {
			spelling(n)
		}
		if len(wl.cmd.Words) > 0 {
			spelling(wl.cmd.Words[0].Text)
		}
		if wl.j.Spec != nil {
			spelling(wl.j.Spec.Name)
			for _, a := range wl.j.Spec.Aliases {
				spelling(a)
			}
		}
	}
	for i, f := range feats {
		if f.pipeR != "" && f.redirOp == "" && hasLeft[i] && right[i] != "" {
			what[i], hit[i] = right[i], true
		}
		if f.redirOp != "" && !hit[i] {
			what[i], hit[i] = winRedirHit(leaves, f)
		}
	}
	return what, hit
}

// winRedirHit finds a redirection that writes (">", or appends for ">>")
// to a file starting with the feature's prefix, compared as Windows
// compares names; NUL and $null write no file.
func winRedirHit(leaves []*winLeaf, f *feature) (string, bool) {
	for _, wl := range leaves {
		for _, r := range wl.cmd.Redirs {
			t := strings.ToLower(r.Target.Text)
			if !r.Write || (f.redirOp == ">>") != strings.HasSuffix(r.Op, ">>") || t == "nul" || t == "$null" {
				continue
			}
			if strings.HasPrefix(t, strings.ToLower(f.prefix)) {
				return r.Op + " " + r.Target.Raw, true
			}
		}
	}
	return "", false
}

// winDirChangers are the cmd.exe and PowerShell commands (any spelling
// a leaf's names hold) that move the shell.
var winDirChangers = map[string]bool{
	"cd": true, "chdir": true, "pushd": true, "popd": true,
	"set-location": true, "sl": true, "push-location": true, "pop-location": true,
}

// winMoves is the context after a command that moves the shell (cd,
// Set-Location, pushd…): in its literal target, else in a directory not
// known. ok is false for a command that does not move it.
func winMoves(wl *winLeaf, cc CommandContext) (CommandContext, bool) {
	moves := false
	for _, n := range wl.names {
		if winDirChangers[n] {
			moves = true
		}
	}
	if n := wl.cmd.Name(); len(n) == 2 && n[1] == ':' && isLetter(n[0]) && len(wl.cmd.Words) == 1 {
		cc.CwdUnknown = true // D: goes to that drive's directory
		return cc, true
	}
	if !moves {
		return cc, false
	}
	ops := append(wl.j.Operands[:len(wl.j.Operands):len(wl.j.Operands)], wl.j.Values...)
	if len(ops) == 0 && !wl.cmd.PowerShell && !strings.Contains(strings.ToLower(wl.j.Name), "pop") {
		return cc, true // cmd.exe's cd alone prints the directory
	}
	if len(ops) != 1 || wl.cmd.Dynamic() || cc.CwdUnknown || cc.Cwd == "" || strings.Contains(strings.ToLower(wl.j.Name), "pop") {
		cc.CwdUnknown = true
		return cc, true
	}
	abs := winAbs(ops[0], cc.Cwd, cc.Home)
	switch {
	case strings.HasPrefix(abs, "//"):
		cc.Cwd = strings.ReplaceAll(abs, "/", `\`)
	case len(abs) >= 2 && abs[0] == '/' && (len(abs) == 2 || abs[2] == '/'):
		cc.Cwd = strings.ToUpper(abs[1:2]) + `:\` + strings.ReplaceAll(strings.TrimPrefix(abs[2:], "/"), "/", `\`)
	default:
		cc.CwdUnknown = true
	}
	return cc, true
}

// winDirAfter is where a cmd.exe or PowerShell shell is after the
// script: it stays when nothing may move it; any command that may (or
// whose name is known only at run time, or what is outside the subset)
// leaves it to be seen once the script has run.
func winDirAfter(s *winshell.Script, leaves []*winLeaf) shellparse.DirAfter {
	if len(s.Unknown) > 0 {
		return shellparse.DirAfter{}
	}
	for _, wl := range leaves {
		if len(wl.cmd.Words) > 0 && wl.cmd.Words[0].Dynamic {
			return shellparse.DirAfter{}
		}
		if n := wl.cmd.Name(); len(n) == 2 && n[1] == ':' && isLetter(n[0]) {
			return shellparse.DirAfter{} // D: moves to another drive
		}
		for _, n := range wl.names {
			if winDirChangers[winshell.BaseName(n)] {
				return shellparse.DirAfter{}
			}
		}
	}
	return shellparse.DirAfter{Known: true}
}

// winRemedy offers --approve rules that the engine has checked make the
// command allowed.
func (e *Engine) winRemedy(command string, cc CommandContext, sh cmdbase.Shells, interactive bool, s *winshell.Script, need []*winLeaf, warn bool) string {
	if len(s.Unknown) > 0 || len(need) == 0 {
		if len(s.Unknown) > 0 {
			return remedyInteractive
		}
		return remedyYourself
	}
	var rules []string
	for _, wl := range need {
		r := wl.ruleText()
		if r == "" || warn || wl.danger != "" || wl.secret != "" {
			r = exactWinRule(wl.cmd)
		}
		if r == "" || sanitize(r, false) != r {
			return remedyInteractive
		}
		if !contains(rules, r) {
			rules = append(rules, r)
		}
	}
	var pats []*Pattern
	for _, r := range rules {
		p, err := ParsePattern(r)
		if err != nil {
			return remedyInteractive
		}
		pats = append(pats, p)
	}
	if e.decideWindows(command, cc, sh, interactive, pats).Decision != Allow {
		return remedyInteractive
	}
	return approveRemedy(rules)
}

// lowerPattern is p with every word lower-cased: Windows names,
// switches and paths ignore case.
func lowerPattern(p *Pattern) *Pattern {
	c := *p
	c.Words = make([]shellparse.Word, len(p.Words))
	for i, w := range p.Words {
		w.Text = strings.ToLower(w.Text)
		if i == 0 {
			w.Text = winshell.BaseName(w.Text)
		}
		c.Words[i] = w
	}
	return &c
}

// winPreApproved: every command is covered by a rule, is a reader, or is
// a wrapper whose commands are covered; nothing outside the subset, no
// write by redirection.
func (e *Engine) winPreApproved(s *winshell.Script, leaves []*winLeaf, extra []*Pattern, cc CommandContext, maybe bool) (Decider, bool) {
	if len(s.Unknown) > 0 || maybe {
		return "", false
	}
	for _, wl := range leaves {
		for _, r := range wl.cmd.Redirs {
			if r.Write && !harmlessTarget(r.Target.Text) {
				return "", false
			}
		}
	}
	rules := e.rules(extra, cc.Home)
	if len(rules) == 0 {
		return "", false
	}
	rank := map[Decider]int{ByFlag: 3, ByRule: 2, ByGrant: 1}
	source := Decider("")
	for _, wl := range leaves {
		var hit *ruleEntry
		for i := range rules {
			r := &rules[i]
			lp := lowerPattern(r.p)
			matched := false
			for _, n := range wl.names[:min(2, len(wl.names))] {
				l := *wl.leaf
				l.Words = append([]shellparse.Word{{Text: n, Raw: n}}, wl.leaf.Words[1:]...)
				if lp.Match(&l, matchAllow) {
					matched = true
					break
				}
			}
			if !matched {
				continue
			}
			if (wl.danger != "" || wl.secret != "" || wl.writes) && !lp.Exact() {
				continue
			}
			hit = r
			break
		}
		if hit != nil {
			if rank[hit.source] > rank[source] {
				source = hit.source
			}
			continue
		}
		if wl.danger != "" {
			return "", false
		}
		if wl.wrapper || e.opts.Approval.AutoApproveSafe && wl.unsafe == "" {
			continue
		}
		return "", false
	}
	if source == "" {
		return "", false
	}
	return source, true
}

// winLeaf judges one command into wl (zero).
func (e *Engine) winLeaf(wl *winLeaf, c *winshell.Command, sh cmdbase.Shells, cc CommandContext, sec *winSecrets) {
	wl.cmd = c
	wl.leaf = &wl.leafv
	wl.leaf.StdinFromPipe = c.PipeIn
	if len(c.Words) > 0 {
		wl.leaf.Words = make([]shellparse.Word, 0, len(c.Words))
	}
	for _, w := range c.Words {
		wl.leaf.Words = append(wl.leaf.Words, shellparse.Word{Text: strings.ToLower(w.Text), Raw: w.Raw, Dynamic: w.Dynamic, Glob: w.Glob})
	}
	for _, r := range c.Redirs {
		winRedir(wl, r, cc, sec)
	}
	if len(c.Words) == 0 {
		if wl.unsafe == "" && len(c.Redirs) > 0 {
			wl.unsafe = "a redirection without a command"
		}
		wl.names = []string{""}
		wl.leaf.Words = []shellparse.Word{{}}
		return
	}
	name := c.Words[0]
	if name.Dynamic {
		wl.unsafe = "the command name is known only at run time"
		wl.names = []string{strings.ToLower(name.Text)}
		return
	}
	var args []cmdbase.Arg
	if n := len(c.Args()); n > 0 {
		args = make([]cmdbase.Arg, 0, n)
	}
	for _, w := range c.Args() {
		args = append(args, cmdbase.Arg{Text: w.Text, Quoted: w.Quoted})
	}
	wl.j = cmdbase.Judge(sh, name.Text, args)
	written := strings.ToLower(name.Text)
	if i := strings.LastIndexAny(written, `\/`); i >= 0 && !winSystemBin[winCanon(written[:i])] && !moduleQualified(sh, written) {
		// a program named by its path is the known one only in the
		// system's directories: .\findstr.exe may be anything
		wl.j = cmdbase.Judgement{Name: winshell.BaseName(written), Does: cmdbase.Unknown,
			Why: "unknown program: " + name.Text, Operands: wl.j.Operands, Files: wl.j.Operands}
	}
	if mod, _, ok := cmdbase.SplitModule(written); ok && sh == cmdbase.PowerShell && !cmdbase.ShippedModule(mod) && wl.j.Does == cmdbase.Reads {
		// another module's cmdlet of that name may do anything
		wl.j.Does, wl.j.Why = cmdbase.Unknown, "a cmdlet of module "+mod+": "+name.Text
	}
	wl.names = make([]string, 1, 4)
	wl.names[0] = written
	add := func(n string) {
		n = strings.ToLower(n)
		if n != "" && !contains(wl.names, n) {
			wl.names = append(wl.names, n)
		}
	}
	if wl.j.Spec != nil {
		add(wl.j.Spec.Name)
	}
	add(winshell.BaseName(name.Text))
	if wl.j.Spec != nil {
		for _, a := range wl.j.Spec.Aliases {
			add(a)
		}
	}
	if c.Dynamic() {
		wl.unsafe = "an argument is known only at run time"
	}
	j := wl.j
	if len(c.Inner) > 0 && (j.Name == "cmd" || j.Name == "powershell" || j.Name == "if" || j.Name == "start") {
		// its commands are judged on their own
		wl.wrapper = j.Name != "start"
		if j.Name == "start" {
			wl.unsafe = "start runs a program"
		}
		return
	}
	if sh == cmdbase.Cmd && !strings.ContainsAny(written, `\/`) && (j.Portable || j.Spec != nil && j.Spec.In == cmdbase.Both) {
		if why := shadowed(cc, winshell.BaseName(written)); why != "" {
			wl.unsafe = why
			return
		}
	}
	if j.Portable {
		e.winPortable(wl, c, cc)
		return
	}
	if winshell.BaseName(written) == "wsl" {
		// what it runs in Linux is judged as bash would judge it, never
		// allowed: warnings and deny rules see the command
		if inner := wslCommand(c); inner != nil {
			e.winPortable(wl, inner, cc)
			wl.linux = len(c.Words) - len(inner.Words)
		}
		if wl.danger == "" {
			wl.unsafe = "runs a command in WSL"
		}
		wl.rule, wl.ruleSet = "", true
		return
	}
	// approval.safeCommands: "!dir" takes a reader off the safe list, a
	// name adds an unknown program to it
	// (the first of its names that is removed is the one the reason names)
	if j.Does == cmdbase.Reads {
		for _, n := range wl.names {
			if k, ok := e.removedSafeWin[n]; ok {
				j.Does, j.Why = cmdbase.Unknown, k+" is removed from the safe list (approval.safeCommands)"
				break
			}
		}
	}
	if j.Does == cmdbase.Unknown && j.Spec == nil && !j.Portable && !strings.ContainsAny(written, `\/`) {
		for k := range e.safeNames {
			if strings.EqualFold(k, winshell.BaseName(written)) {
				j.Does = cmdbase.Reads
			}
		}
	}
	// the operands and the parameters' values (-Destination too)
	words := [2][]string{j.Operands, j.Values}
	for _, ws := range words {
		for _, p := range ws {
			if d := winDrive(p); d != "" {
				wl.unsafe = "reads the PowerShell " + d + " drive (variables, environment or certificates)"
			}
		}
	}
	paths := j.Files
	tree := j.Recurse || hasParam(c, "-recurse", 2) || hasParam(c, "-depth", 2)
	lists := j.Spec != nil && j.Spec.Lists
	for _, w := range append(j.Operands[:len(j.Operands):len(j.Operands)], j.Values...) {
		if credentialHive(w, tree, lists) {
			if j.Does == cmdbase.Reads {
				wl.secret, wl.unsafe = w, "reads a registry key that holds secrets ("+w+")"
			} else if j.Does != cmdbase.Unknown && strings.HasPrefix(registryKey(w), `hklm\`) {
				wl.danger, wl.unsafe = "copies or changes the registry hive of stored credentials ("+w+")", "copies or changes "+w
				return
			}
		}
	}
	switch j.Does {
	case cmdbase.Reads:
		if j.Named {
			wl.unsafe = j.Name + " reads the files a list or its input names, which are not known"
		}
		if j.ShowsEnv {
			wl.unsafe = j.Name + " shows variables, history or the clipboard, which may hold secrets"
		}
		for _, p := range j.Operands {
			if uncPath(p) {
				// reg query \\host\HKLM\…, a share, a raw device
				wl.unsafe = "reaches another machine or a raw device (" + p + ")"
			}
		}
		for _, p := range paths {
			if uncPath(p) {
				wl.unsafe = "reaches another machine or a raw device (" + p + ")"
			}
			if winDrive(p) == "" && sec.secret(p, strings.ContainsAny(p, "*?")) {
				wl.secret = p
				wl.unsafe = "reads a sensitive path: " + p
			}
		}
		if j.Recurse {
			roots := treeRoots(j.Files)
			for _, r := range roots {
				if why := e.winTree(r, cc); why != "" {
					wl.unsafe = why
				}
			}
		}
		if cc.CwdUnknown && wl.unsafe == "" && len(paths) > 0 {
			wl.unsafe = "the directory it runs in is not known"
		}
	case cmdbase.Writes:
		// as for cp and mkdir in bash: asked, not warned (unless a
		// redirection writes too)
		wl.quiet = (j.Cat == cmdbase.CatCopy || j.Cat == cmdbase.CatMkdir) && !wl.writes
		wl.writes = true
		wl.unsafe = j.Name + " writes files"
		if j.Why != "" && j.Does == j.Spec.Does {
			wl.unsafe = j.Why
		}
		for _, ws := range words {
			for _, p := range ws {
				abs := winAbs(p, cc.Cwd, cc.Home)
				if winSystemPath(abs, cc.Home) {
					wl.danger = j.Name + " changes a system location (" + p + ")"
				}
			}
		}
	case cmdbase.Dangerous:
		wl.danger = j.Why
		if wl.danger == "" {
			wl.danger = j.Name
		}
		wl.unsafe = wl.danger
	case cmdbase.Unknown:
		wl.unsafe = "unknown command: " + name.Text
		if j.Why != "" {
			wl.unsafe = j.Why
		}
	default:
		why := j.Why
		if why == "" {
			why = j.Name + " " + map[cmdbase.Effect]string{cmdbase.Sends: "uses the network",
				cmdbase.Runs: "runs other programs or code", cmdbase.Changes: "changes the system or the session"}[j.Does]
		}
		wl.unsafe = why
		if j.Does == cmdbase.Sends || j.Does == cmdbase.Runs {
			// as for network tools, shells and interpreters in bash: no
			// "Always" (an exact --approve rule still works)
			wl.rule, wl.ruleSet = "", true
		}
	}
}

// winRedir judges a redirection.
func winRedir(wl *winLeaf, r winshell.Redir, cc CommandContext, sec *winSecrets) {
	t := r.Target.Text
	switch {
	case r.Write && !harmlessTarget(t):
		wl.writes = true
		wl.unsafe = "writes " + t + " by redirection"
		if r.Target.Dynamic {
			wl.unsafe = "writes a file named at run time"
		}
		if winSystemPath(winAbs(t, cc.Cwd, cc.Home), cc.Home) {
			wl.danger = "redirection into a system location (" + t + ")"
		}
		if sec.secret(t, false) {
			wl.secret = t
		}
	case r.Read:
		if uncPath(t) {
			wl.unsafe = "reaches another machine or a raw device (" + t + ")"
		}
		if sec.secret(t, r.Target.Glob) {
			wl.secret = t
			wl.unsafe = "reads a sensitive path: " + t
		}
	}
}

// winTree says why reading the tree at root may show a secret, or "".
func (e *Engine) winTree(root string, cc CommandContext) string {
	abs := winAbs(root, cc.Cwd, cc.Home)
	if e.containsSensitive(abs, winCanon(cc.Home)) || winSystemPath(abs, cc.Home) {
		return "reads the whole tree " + root + ", which holds secrets"
	}
	if cc.CwdUnknown && !strings.HasPrefix(winCanon(root), "/") {
		return "the directory it runs in is not known"
	}
	native := root
	if !(len(root) >= 2 && root[1] == ':') {
		native = strings.TrimRight(cc.Cwd, `\/`) + `\` + root
		if root == "." {
			native = cc.Cwd
		}
	}
	return treeSecrets(cc, native, true)
}

// treeRoots are the directories a recursive search of files reads: the
// directory part of each file operand (findstr /s x src\*.go reads src),
// the current directory for a bare name or pattern.
func treeRoots(files []string) []string {
	var roots []string
	for _, f := range files {
		r := "."
		if i := strings.LastIndexAny(f, `\/`); i >= 0 {
			r = f[:i+1]
		} else if len(f) >= 2 && f[1] == ':' {
			r = f[:2]
		}
		if strings.ContainsAny(r, "*?") {
			r = f // a pattern in the directory part: judge it as written
		}
		if !contains(roots, r) {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots
}

// winPipelines: a command reading the files its pipeline names
// (Get-ChildItem -Recurse | Select-String x) reads the lister's tree;
// code from the network piped into Invoke-Expression or a shell is
// dangerous.
func (e *Engine) winPipelines(leaves []*winLeaf, cc CommandContext, sec *winSecrets) {
	sends := false
	for _, wl := range leaves {
		if wl.j.Does == cmdbase.Sends || wl.j.Portable && isNetworkTool(wl.j.Name) {
			sends = true
		}
		for _, w := range wl.cmd.Words {
			if lowerContains(w.Raw, "downloadstring", "downloadfile", "net.webclient") {
				sends = true
			}
		}
	}
	var upstream []*winLeaf
	downloaded := "" // a file saved from the network earlier in the script
	for _, wl := range leaves {
		if !wl.cmd.PipeIn {
			upstream = nil
		}
		name := strings.ToLower(wl.j.Name)
		// download, then run: iwr … -OutFile x; Start-Process x
		if downloaded != "" && (wl.j.Does == cmdbase.Runs || wl.j.Does == cmdbase.Unknown && !wl.j.Portable) && wl.danger == "" {
			wl.danger = "runs what was downloaded (" + downloaded + ")"
			wl.unsafe = wl.danger
		}
		if (wl.j.Does == cmdbase.Writes || wl.j.Does == cmdbase.Sends || wl.j.Portable) && downloads(wl) {
			downloaded = wl.cmd.Name()
		}
		// curl … > x.bat
		if (wl.j.Does == cmdbase.Sends || wl.j.Portable && isNetworkTool(wl.j.Name)) && wl.writes {
			downloaded = wl.cmd.Name()
		}
		// iwr … | Out-File x.ps1 (or Set-Content, Tee-Object, > x.ps1)
		if wl.cmd.PipeIn && (wl.j.Does == cmdbase.Writes || wl.writes) {
			for _, up := range upstream {
				if up.j.Does == cmdbase.Sends || up.j.Portable && isNetworkTool(up.j.Name) {
					downloaded = up.cmd.Name()
				}
			}
		}
		// the keys that start programs, in any hive
		if wl.j.Does == cmdbase.Changes && wl.danger == "" {
			for _, w := range append(wl.j.Operands[:len(wl.j.Operands):len(wl.j.Operands)], wl.j.Values...) {
				if k := autostartKey(w); k != "" {
					wl.danger = "makes a program start by itself (" + k + ")"
					wl.unsafe = wl.danger
				}
			}
		}
		// the machine-wide registry
		if wl.j.Does == cmdbase.Changes && wl.danger == "" {
			for _, w := range wl.j.Operands {
				if lw := strings.ToLower(w); strings.HasPrefix(lw, "hklm") || strings.HasPrefix(lw, "hkey_local_machine") || strings.HasPrefix(lw, `registry::hkey_local_machine`) {
					wl.danger = "changes the machine-wide registry (" + w + ")"
					wl.unsafe = wl.danger
				}
			}
			for _, w := range wl.j.Values {
				if lw := strings.ToLower(w); strings.HasPrefix(lw, "hklm") || strings.HasPrefix(lw, "hkey_local_machine") {
					wl.danger = "changes the machine-wide registry (" + w + ")"
					wl.unsafe = wl.danger
				}
			}
		}
		// writing or deleting what the pipeline names: a system location,
		// the machine-wide registry (gci C:\Windows | Remove-Item)
		if wl.cmd.PipeIn && wl.j.Spec != nil && wl.j.Spec.ChangesPiped && wl.danger == "" {
			for _, up := range upstream {
				for _, t := range append(up.j.Files[:len(up.j.Files):len(up.j.Files)], up.j.Operands...) {
					if winSystemPath(winAbs(t, cc.Cwd, cc.Home), cc.Home) || strings.HasPrefix(registryKey(t), `hklm\`) {
						wl.danger = wl.j.Name + " changes what its pipeline names, a system location (" + t + ")"
						wl.unsafe = wl.danger
					}
				}
			}
		}
		// deleting what a recursive listing names: gci -Recurse | Remove-Item
		if wl.cmd.PipeIn && wl.j.Cat == cmdbase.CatDelete && wl.danger == "" {
			for _, up := range upstream {
				if up.j.Spec != nil && up.j.Spec.Lists && hasParam(up.cmd, "-recurse", 2) {
					wl.danger = "deletes everything a recursive listing names"
					wl.unsafe = wl.danger
				}
			}
		}
		runsCode := name == "invoke-expression" || name == "powershell" || name == "cmd" || name == "bash" || name == "sh"
		if runsCode && sends && (wl.cmd.PipeIn || name == "invoke-expression") {
			wl.danger = "code from the network is run (" + wl.cmd.Name() + ")"
			wl.unsafe = wl.danger
		}
		if wl.cmd.PipeIn && wl.j.Spec != nil && wl.j.Spec.PipedPaths {
			if up := pipeProducer(upstream); up != nil && !(up.j.Spec != nil && up.j.Spec.Lists) && !textProducer(up) {
				// objects with a Path (Import-Csv rows, Select-String's
				// matches, processes) name files it then reads
				wl.unsafe = wl.j.Name + " reads the files " + up.j.Name + " names, which are not known"
			}
			for _, up := range upstream {
				if up.j.Spec == nil || !up.j.Spec.Lists {
					continue
				}
				for _, p := range up.j.Patterns {
					if sec.secret(p, true) {
						wl.unsafe = "reads a sensitive path: " + p
						wl.secret = p
					}
				}
				roots := up.j.Files
				if len(roots) == 0 {
					roots = []string{"."}
				}
				for _, r := range roots {
					if sec.secret(r, strings.ContainsAny(r, "*?")) {
						wl.unsafe = "reads a sensitive path: " + r
						wl.secret = r
					} else if why := e.winTree(r, cc); why != "" {
						wl.unsafe = why
					}
				}
			}
		}
		upstream = append(upstream, wl)
		if !wl.cmd.PipeOut {
			upstream = nil
		}
	}
}

// passThrough are cmdlets whose output objects are their input's.
var passThrough = map[string]bool{"sort-object": true, "where-object": true, "get-unique": true, "tee-object": true,
	"select-object": true}

// pipeProducer is the command whose objects reach the end of upstream,
// past the cmdlets that pass objects through (Select-Object only without
// -ExpandProperty, which makes new objects of a property).
func pipeProducer(upstream []*winLeaf) *winLeaf {
	for i := len(upstream) - 1; i >= 0; i-- {
		up := upstream[i]
		n := strings.ToLower(up.j.Name)
		if passThrough[n] && !(n == "select-object" && hasParam(up.cmd, "-expandproperty", 2)) {
			continue
		}
		return up
	}
	return nil
}

// textProducer says a command's output is text: lines of a file (which
// carry that file's path), a program's output, strings.
func textProducer(wl *winLeaf) bool {
	if wl.j.Spec == nil {
		return wl.j.Portable
	}
	if wl.j.Spec.In == cmdbase.Both {
		return true
	}
	switch strings.ToLower(wl.j.Name) {
	case "get-content", "write-output", "write-host", "out-string", "convertto-json", "convertto-csv",
		"convertto-html", "convertto-xml", "format-table", "format-list", "format-wide", "format-custom",
		"join-string", "get-date", "measure-object":
		return true
	}
	return false
}

// lowerContains says whether s in lower case contains one of subs (lower
// case), without a lower-case copy of an ASCII s.
func lowerContains(s string, subs ...string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ls := strings.ToLower(s)
			for _, sub := range subs {
				if strings.Contains(ls, sub) {
					return true
				}
			}
			return false
		}
	}
	for _, sub := range subs {
		for i := 0; i+len(sub) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
	}
	return false
}

// downloads says a command saves something from the network to a file.
func downloads(wl *winLeaf) bool {
	n := strings.ToLower(wl.j.Name)
	switch {
	case (n == "invoke-webrequest" || n == "invoke-restmethod") && hasParam(wl.cmd, "-outfile", 2):
		return true
	case n == "start-bitstransfer" || n == "bitsadmin":
		return true
	case n == "certutil" && (hasParam(wl.cmd, "-urlcache", 4) || hasParam(wl.cmd, "/urlcache", 4)):
		return true
	case n == "curl" || n == "wget":
		for _, w := range wl.cmd.Args() {
			lw := strings.ToLower(w.Text)
			if lw == "-o" || lw == "-O" || strings.HasPrefix(lw, "--output") || strings.HasPrefix(lw, "-o") {
				return true
			}
		}
	}
	return false
}

// hasParam says whether the command has parameter name (lower case, with
// its dash or slash) or an abbreviation of it at least min letters long.
func hasParam(c *winshell.Command, name string, min int) bool {
	for _, w := range c.Args() {
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

// winPortable judges a program that behaves as on Unix (git, go,
// docker…) by the bash analysis of the same words.
func (e *Engine) winPortable(wl *winLeaf, c *winshell.Command, cc CommandContext) {
	var parts []string
	for i, w := range c.Words {
		t := w.Text
		if i == 0 {
			t = winshell.BaseName(t)
		} else if winPathWord(t) {
			t = winAbs(t, cc.Cwd, cc.Home)
		}
		parts = append(parts, shellQuote(t))
	}
	bcc := cc
	bcc.Shell = sysinfo.ShellBash
	bcc.Cwd, bcc.Home = winCanon(cc.Cwd), winCanon(cc.Home)
	bd := e.decide(strings.Join(parts, " "), bcc, false, []*Pattern{})
	switch {
	case bd.Decision == Allow && bd.DecidedBy != BySafeList:
		// a rule of the user's allowed it: winPreApproved finds it again
		wl.unsafe = c.Name() + " is allowed by a rule, not by the safe list"
	case bd.Safety == Dangerous:
		wl.danger = strings.Join(bd.Reasons, "; ")
		if wl.danger == "" {
			wl.danger = c.Name()
		}
		wl.unsafe = wl.danger
	case bd.Safety != Safe || bd.Warn:
		wl.unsafe = c.Name() + " is not provably read-only here"
		if len(bd.Reasons) > 0 {
			wl.unsafe = bd.Reasons[0]
		}
		if bd.Warn {
			wl.writes = true
		}
	}
	if bd.Rule != "" {
		wl.rule, wl.ruleSet = bd.Rule, true
	}
}

// wslCommand is the Linux command wsl runs (wsl [options] [-e|--exec|--]
// COMMAND…), or nil.
func wslCommand(c *winshell.Command) *winshell.Command {
	args := c.Args()
	for i := 0; i < len(args); i++ {
		switch strings.ToLower(args[i].Text) {
		case "-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id":
			i++
		case "-e", "--exec", "--":
			if i+1 < len(args) {
				return &winshell.Command{Words: args[i+1:], Via: "wsl", PowerShell: c.PowerShell, Line: c.Line}
			}
			return nil
		default:
			if strings.HasPrefix(args[i].Text, "-") {
				return nil // --install, --list, --shutdown…: wsl's own work
			}
			return &winshell.Command{Words: args[i:], Via: "wsl", PowerShell: c.PowerShell, Line: c.Line}
		}
	}
	return nil
}

// winPathWord says a word is a Windows path (C:\x, ..\x, ~\x), which the
// bash analysis should see in its own spelling; other words (options,
// messages with a colon) are passed as written.
func winPathWord(t string) bool {
	if strings.HasPrefix(t, "-") {
		return false
	}
	return len(t) >= 3 && isLetter(t[0]) && t[1] == ':' && (t[2] == '\\' || t[2] == '/') ||
		strings.Contains(t, `\`) || strings.HasPrefix(t, "~")
}

// winRule is the narrowest rule "Always" saves for a command: name and
// subcommand and * for commands with subcommands, else the exact command.
func winRule(c *winshell.Command, j cmdbase.Judgement) string {
	if c.Dynamic() || len(c.Words) == 0 {
		return ""
	}
	if j.Spec != nil && len(j.Spec.Subs) > 0 && len(c.Words) >= 2 {
		return quoteWord(c.Words[0].Text) + " " + quoteWord(c.Words[1].Text) + " *"
	}
	return exactWinRule(c)
}

func exactWinRule(c *winshell.Command) string {
	if c.Dynamic() || len(c.Words) == 0 {
		return ""
	}
	var parts []string
	for _, w := range c.Words {
		parts = append(parts, quoteWord(w.Text))
	}
	return strings.Join(parts, " ")
}

// winCategory is the display class of a single command.
func winCategory(wl *winLeaf) (cmdbase.Category, string) {
	for _, r := range wl.cmd.Redirs {
		if r.Write && !harmlessTarget(r.Target.Text) {
			n := strings.ToLower(wl.j.Name)
			if len(wl.cmd.Redirs) == 1 && (n == "echo" || n == "write-output") {
				if strings.HasSuffix(r.Op, ">>") {
					return cmdbase.CatAppend, r.Target.Raw
				}
				return cmdbase.CatWrite, r.Target.Raw
			}
			return cmdbase.CatNone, ""
		}
		if r.Read {
			return cmdbase.CatNone, ""
		}
	}
	// operands as written ($env:USERPROFILE\x, not the expanded path)
	var ops []string
	for _, o := range wl.j.Operands {
		shown := o
		for _, w := range wl.cmd.Args() {
			if w.Text == o {
				shown = w.Raw
				break
			}
		}
		ops = append(ops, shown)
	}
	switch wl.j.Cat {
	case cmdbase.CatRead:
		if len(ops) == 1 && len(wl.j.Values) == 0 {
			return cmdbase.CatRead, ops[0]
		}
	case cmdbase.CatCopy, cmdbase.CatMove:
		if len(ops) == 2 {
			return wl.j.Cat, ops[0] + " → " + ops[1]
		}
	case cmdbase.CatDelete, cmdbase.CatMkdir:
		if len(ops) > 0 {
			return wl.j.Cat, strings.Join(ops, " ")
		}
	case cmdbase.CatWrite, cmdbase.CatAppend:
		if len(ops) >= 1 {
			return wl.j.Cat, ops[0]
		}
	}
	return cmdbase.CatNone, ""
}

// moduleQualified says a PowerShell name is a cmdlet named with its module
// (Microsoft.PowerShell.Management\Get-ChildItem, Storage\Format-Volume),
// not a path.
func moduleQualified(sh cmdbase.Shells, name string) bool {
	_, _, ok := cmdbase.SplitModule(name)
	return ok && sh == cmdbase.PowerShell
}
