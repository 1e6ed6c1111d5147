package policy

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"path"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/secrets"
)

// The paths of cmd.exe and PowerShell commands as Windows opens them:
// every spelling of a secret (C:\Users\Me\.ssh, %USERPROFILE%\.aws,
// ~\.ssh, an 8.3 alias, a stream suffix), the system's locations, the
// registry keys that hold credentials or start programs.

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
	p = fileSystemPath(p) // FileSystem::C:\x, Microsoft.PowerShell.Core\FileSystem::C:\x
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

// fileSystemPath is p without PowerShell's FileSystem provider
// (FileSystem::C:\x, Microsoft.PowerShell.Core\FileSystem::\\host\share).
func fileSystemPath(p string) string {
	if i := strings.Index(p, "::"); i > 0 && strings.HasSuffix(strings.ToLower(p[:i]), "filesystem") {
		return p[i+2:]
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
		if secrets.AliasMayBe(seg) || winWildcardSecret(seg) {
			return true
		}
	}
	for _, t := range winHomeSecrets(home) {
		if abs == t || strings.HasPrefix(abs, t) && abs[len(t)] == '/' {
			return true
		}
	}
	absSlash := abs + "/"
	for _, u := range winBelow() {
		if strings.Contains(absSlash, u) {
			return true
		}
	}
	if strings.ContainsAny(abs, "*?<>[~") && winMayBeBelow(abs, home) {
		return true
	}
	return secrets.WindowsName(path.Base(abs))
}

// winMayBeBelow says a path whose names hold wildcards or short 8.3
// names (…\Chrome\USERDA~1\…, …\Chr*\User Data\…) may be in one of
// the credential locations, or be one of the home's secrets.
func winMayBeBelow(abs, home string) bool {
	segs := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	places := winBelowSegs()
	if h := winCanon(home); h != "" {
		for _, t := range winHomeSecrets(home) {
			if rel, ok := strings.CutPrefix(t, h+"/"); ok {
				places = append(places[:len(places):len(places)], append(strings.Split(strings.TrimPrefix(h, "/"), "/"), strings.Split(rel, "/")...))
			}
		}
	}
	for _, pl := range places {
		for i := 0; i+len(pl) <= len(segs); i++ {
			ok := true
			for j, n := range pl {
				if !segMay(segs[i+j], n) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// winBelowSegs are the credential locations (winBelow) as names.
var winBelowSegs = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, u := range secrets.WindowsBelow() {
		out = append(out, strings.Split(strings.Trim(u, "/"), "/"))
	}
	return out
})

// winWildcardSecret says a segment of a path (lower case) is a wildcard
// that may name a secret as Windows matches it: besides * and ?, a ? at
// the end of a name or before its dot matches nothing (.env? is .env), <
// and > are the system's own * and ?, a PowerShell [class] is one
// character, and the file's short 8.3 name (ENV~1.LOC for .env.local) is
// matched too. Whether a word is passed as a wildcard depends on the
// command and the quoting; a name cannot hold * ? < > on Windows, so
// reading each as one only asks more.
func winWildcardSecret(seg string) bool {
	if !strings.ContainsAny(seg, "*?<>[") {
		return false
	}
	pat := winWildcard(seg)
	var buf []bool
	for _, n := range winSampleNames() {
		if dosMatch(pat, n, &buf) {
			return true
		}
	}
	return false
}

// winWildcard is a wildcard segment with each [class] as one character
// (?), the form dosMatch reads.
func winWildcard(seg string) string {
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		if seg[i] == '[' {
			if j := strings.IndexByte(seg[i+1:], ']'); j >= 0 {
				b.WriteByte('?')
				i += j + 1
				continue
			}
		}
		b.WriteByte(seg[i])
	}
	return b.String()
}

// dosMatch says the wildcard pat may match the name n: * and < match any
// run of characters, ? > and " one character or none (more than each
// matches in every case, never less); anything else itself. buf is
// reused between calls.
func dosMatch(pat, n string, buf *[]bool) bool {
	if cap(*buf) < 2*(len(n)+1) {
		*buf = make([]bool, 2*(len(n)+1))
	}
	b := (*buf)[:2*(len(n)+1)]
	clear(b)
	prev, cur := b[:len(n)+1], b[len(n)+1:] // prev[j]: the pattern so far matches n[:j]
	prev[0] = true
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		for j := 0; j <= len(n); j++ {
			switch c {
			case '*', '<':
				cur[j] = prev[j] || j > 0 && cur[j-1]
			case '?', '>', '"':
				cur[j] = prev[j] || j > 0 && prev[j-1]
			default:
				cur[j] = j > 0 && prev[j-1] && n[j-1] == c
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(n)]
}

// winSampleNames are the names of secrets a wildcard is tried against
// (samples), lower-cased, with the short 8.3 names Windows gives them
// (.env.local is also ENV~1.LOC, or ENV~2.LOC … when that is taken).
var winSampleNames = sync.OnceValue(func() []string {
	var out []string
	for _, s := range samples() {
		s = strings.ToLower(s)
		out = append(out, s)
		if sn := shortName(s); sn != "" {
			for n := 1; n <= 4; n++ {
				out = append(out, strings.Replace(sn, "~1", "~"+string(rune('0'+n)), 1))
			}
		}
	}
	return out
})

// shortName is the short 8.3 name NTFS gives a long name (lower case),
// or "" when the name is itself one: leading dots and every blank
// dropped, six characters of the base, ~1, three of the last extension.
func shortName(name string) string {
	t := strings.ReplaceAll(strings.TrimLeft(name, "."), " ", "")
	base, ext := t, ""
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		base, ext = t[:i], t[i+1:]
	}
	base = strings.ReplaceAll(base, ".", "")
	if t == name && strings.Count(name, ".") <= 1 && len(base) <= 8 && len(ext) <= 3 {
		return "" // already 8.3
	}
	if len(base) > 6 {
		base = base[:6]
	}
	if len(ext) > 3 {
		ext = ext[:3]
	}
	if ext == "" {
		return base + "~1"
	}
	return base + "~1." + ext
}

// winBelow are the Windows credential locations of the secret-file list,
// each with a final slash.
var winBelow = sync.OnceValue(func() []string {
	below := secrets.WindowsBelow()
	for i, u := range below {
		below[i] = u + "/"
	}
	return below
})

// winSecrets remembers winSecret's answers for the paths of one decision
// (one home), which often names a path many times, and judges each path
// where the disk (facts, when known) says it leads: a link or junction
// followed, an 8.3 alias (APPLIC~1.YAM) read as its long name, content
// with a key's shape.
type winSecrets struct {
	e     *Engine
	home  string
	facts Facts
	seen  map[winSecretKey]bool
}

type winSecretKey struct {
	cwd, p string
	glob   bool
}

func newWinSecrets(e *Engine, cc CommandContext) *winSecrets {
	return &winSecrets{e: e, home: cc.Home, facts: cc.Facts}
}

// secret says whether the path p, named in a command running in cc.Cwd,
// is a secret.
func (s *winSecrets) secret(p string, cc CommandContext, glob bool) bool {
	k := winSecretKey{cc.Cwd, p, glob}
	if v, ok := s.seen[k]; ok {
		return v
	}
	v := s.e.winSecret(p, cc.Cwd, s.home, glob) || !glob && p != "" && s.onDisk(winAbs(p, cc.Cwd, s.home))
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
	out := make([]string, 0, len(homeTrees()))
	for _, hp := range homeTrees() {
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
		if segMay(parts[1], "windows", "program files", "program files (x86)", "programdata", "boot", "recovery", "system volume information", "$recycle.bin") {
			return true
		}
		if len(parts) == 2 && segMay(parts[1], "users") {
			return true
		}
	}
	if h := winCanon(home); h != "" && inProfile(parts, strings.Split(strings.TrimPrefix(h, "/"), "/")) {
		return true
	}
	if systemPath(abs, winCanon(home)) {
		return true // as in bash: git's hooks and configuration, the shells' and git's start-up files
	}
	// any user's profile, as for nb's own: another account's start-up
	// folder runs at that account's sign-in
	return len(parts) >= 3 && len(parts[0]) == 1 && segMay(parts[1], "users") && inProfile(parts, parts[:3])
}

// profilePlaces are the places of a profile that run or admit code at
// sign-in or for a command's name: the start menu (its Startup folder),
// PowerShell's profiles, .ssh, the directories on PATH.
var profilePlaces = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, p := range []string{"appdata/roaming/microsoft/windows/start menu", "documents/windowspowershell",
		"documents/powershell", ".ssh",
		// directories on the user's PATH: a program put there runs for
		// a command's name
		"appdata/local/microsoft/windowsapps", "appdata/roaming/npm", "scoop/shims"} {
		out = append(out, strings.Split(p, "/"))
	}
	return out
})

// inProfile says whether the path of names parts is the profile
// directory of names h itself or one of its profilePlaces, or may be.
func inProfile(parts, h []string) bool {
	if len(parts) < len(h) {
		return false
	}
	for i, n := range h {
		if !segMay(parts[i], n) {
			return false
		}
	}
	rest := parts[len(h):]
	if len(rest) == 0 {
		return true
	}
places:
	for _, pl := range profilePlaces() {
		if len(rest) < len(pl) {
			continue
		}
		for i, n := range pl {
			if !segMay(rest[i], n) {
				continue places
			}
		}
		return true
	}
	return false
}

// segMay says a name of a path (lower case) may be one of names as
// Windows opens it: the name itself, a wildcard that matches it (C:\Win*,
// .ss?), or its short 8.3 name (PROGRA~1, STARTM~1, SSH~1; or NTFS's
// hashed form, which keeps two letters).
func segMay(seg string, names ...string) bool {
	var buf []bool
	for _, n := range names {
		switch {
		case seg == n:
			return true
		case strings.ContainsAny(seg, "*?<>[") && dosMatch(winWildcard(seg), n, &buf):
			return true
		case secrets.Alias(seg) && aliasOf(seg, n):
			return true
		}
	}
	return false
}

// aliasOf says the 8.3 alias a (lower case) may be the short name of
// name: the same first letters and extension, whatever its number.
func aliasOf(a, name string) bool {
	sn := shortName(name)
	if sn == "" {
		return false
	}
	ab, ax, _ := strings.Cut(a, ".")
	sb, sx, _ := strings.Cut(sn, ".")
	ap, sp := ab[:strings.IndexByte(ab, '~')], sb[:strings.IndexByte(sb, '~')]
	if ax != sx {
		return false
	}
	if ap == sp || strings.HasPrefix(sp, ap) {
		return true // ENV~1, or fewer letters where the number is longer (PROG~10)
	}
	return len(ap) == 6 && len(sp) >= 2 && ap[:2] == sp[:2] && isHex(ap[2:]) // hashed: PR3C1A~1
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdef", rune(s[i])) {
			return false
		}
	}
	return true
}

// shadowed says why a bare program name in cmd.exe may run a file of the
// directory instead of the known program, or "".
func shadowed(cc CommandContext, name string) string {
	switch {
	case cc.Facts == nil:
		return "cmd.exe runs a " + name + " of the current directory first, and what is there is not known"
	case cc.CwdUnknown:
		return "the directory it runs in is not known"
	case cc.Facts.LocalProgram(cc.Cwd, name):
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
	`hkcu\environment`,
	// saved passwords: PuTTY's proxy passwords, WinSCP's sessions, VNC
	// servers' passwords, the OpenSSH agent's private keys
	`hkcu\software\simontatham\putty\sessions`, `hkcu\software\martin prikryl\winscp 2\sessions`,
	`hklm\software\realvnc\winvnc4`, `hklm\software\realvnc\vncserver`, `hkcu\software\realvnc\vncserver`,
	`hklm\software\tightvnc\server`, `hkcu\software\tightvnc\server`, `hklm\software\orl\winvnc3`,
	`hkcu\software\orl\winvnc3`, `hklm\software\wow6432node\realvnc\winvnc4`,
	`hklm\software\wow6432node\tightvnc\server`, `hkcu\software\openssh\agent`}

// registryKey is a registry key in the compared form (hklm\…, hkcu\…,
// hku\…, lower case, backslashes), or "" when key names none. The
// classes root is the machine's classes (where a change to it goes), the
// current configuration a key of the machine's SYSTEM hive.
func registryKey(key string) string {
	if key == "" || key[0]|0x20 != 'h' && key[0]|0x20 != 'r' && key[0]|0x20 != 'm' {
		return "" // no root begins otherwise, in any case
	}
	k := strings.TrimRight(strings.ToLower(strings.ReplaceAll(key, "/", `\`)), `\`)
	k = strings.TrimPrefix(k, "microsoft.powershell.core\\")
	if rest, ok := strings.CutPrefix(k, "registry::"); ok {
		k = rest
		if !strings.HasPrefix(k, "hk") {
			return ""
		}
	}
	for _, r := range registryRoots {
		if rest, ok := strings.CutPrefix(k, r.name); ok && (rest == "" || rest[0] == '\\' || strings.HasSuffix(r.name, ":")) {
			return r.hive + `\` + strings.TrimPrefix(rest, `\`)
		}
	}
	return ""
}

// registryRoots are the spellings of the registry's roots (as written
// after Registry::, in reg and as PowerShell drives) and the key each
// names in the compared form.
var registryRoots = []struct{ name, hive string }{
	{`hklm:`, "hklm"}, {`hkcu:`, "hkcu"},
	{`hkey_local_machine`, "hklm"}, {`hkey_current_user`, "hkcu"}, {`hkey_users`, "hku"},
	{`hkey_classes_root`, `hklm\software\classes`}, {`hkey_current_config`, `hklm\system\currentcontrolset\hardware profiles\current`},
	{`hklm`, "hklm"}, {`hkcu`, "hkcu"}, {`hku`, "hku"}, {`hkcr`, `hklm\software\classes`},
	{`hkcc`, `hklm\system\currentcontrolset\hardware profiles\current`},
}

// machineKey says a registry key is the machine's (HKLM, the classes
// root) or every account's (HKU, which holds each account's and the
// default profile's): a change to it is not the user's alone.
func machineKey(key string) bool {
	k := registryKey(key)
	return strings.HasPrefix(k, `hklm\`) || strings.HasPrefix(k, `hku\`)
}

// credentialHive says a registry key holds password hashes or secrets, or,
// read with its subkeys (tree) or listed with their values (lists), shows
// one.
func credentialHive(key string, tree, lists bool) bool {
	k := strings.TrimSuffix(registryKey(key), `\`)
	if k == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(k, "hku"); ok {
		// HKU\SID is that account's HKCU; HKU itself holds every one
		sid, under, _ := strings.Cut(strings.TrimPrefix(rest, `\`), `\`)
		switch {
		case sid == "":
			return tree
		case under == "":
			k = "hkcu"
		default:
			k = `hkcu\` + under
		}
	}
	ks := strings.Split(k, `\`)
	for _, s := range secretKeys {
		ss := strings.Split(s, `\`)
		switch {
		case len(ks) >= len(ss) && keysMatch(ks[:len(ss)], ss):
			return true
		case tree && len(ks) < len(ss) && keysMatch(ks, ss[:len(ks)]):
			return true
		case lists && len(ks)+1 == len(ss) && keysMatch(ks, ss[:len(ks)]):
			return true
		}
	}
	return false
}

// keysMatch says the names of a key as written (PowerShell's registry
// paths take wildcards: Windows*NT, CurrentVersion\*) may be the names ss.
func keysMatch(ks, ss []string) bool {
	var buf []bool
	for i, k := range ks {
		if k != ss[i] && !(strings.ContainsAny(k, "*?[") && dosMatch(winWildcard(k), ss[i], &buf)) {
			return false
		}
	}
	return true
}

// autostartKeys are registry keys (below a hive) whose values start
// programs: at sign-in, with every cmd.exe, or in place of another.
var autostartKeys = []string{`\software\microsoft\windows\currentversion\run`,
	`\software\microsoft\windows nt\currentversion\winlogon`,
	`\software\microsoft\windows nt\currentversion\image file execution options`,
	`\software\microsoft\command processor`,
	`\software\wow6432node\microsoft\windows\currentversion\run`,
	`\software\microsoft\windows\currentversion\policies\explorer\run`,
	// Load and Run, the Startup folder moved elsewhere
	`\software\microsoft\windows nt\currentversion\windows`,
	`\software\microsoft\windows\currentversion\explorer\shell folders`,
	`\software\microsoft\windows\currentversion\explorer\user shell folders`}

// classHandlers are the parts of a key of file types and COM classes
// (…\Software\Classes\…, HKCR) whose values name the program or library
// run for them: a file type's open command, a shell extension, a COM
// server.
var classHandlers = []string{`\shell\`, `\shellex\`, `server32`, `\shell`}

// autostartKey is the autostart key a registry path names (any hive,
// Run, RunOnce…, a handler of file types or COM classes), or "".
func autostartKey(key string) string {
	k := registryKey(key) // any root, in any spelling
	if k == "" {
		return ""
	}
	for _, a := range autostartKeys {
		if strings.Contains(k, a) {
			return key
		}
	}
	if _, class, ok := strings.Cut(k, `\software\classes\`); ok {
		for _, h := range classHandlers {
			if strings.Contains(class, h) {
				return key
			}
		}
	}
	if strings.ContainsAny(k, "*?[") && wildAutostart(strings.Split(k, `\`)) {
		return key
	}
	return ""
}

// wildAutostart says a registry path with wildcards (its names ks,
// hive first) may name an autostart key or a class's handler.
func wildAutostart(ks []string) bool {
	var buf []bool
	may := func(k string, names ...string) bool {
		for _, n := range names {
			if k == n || strings.ContainsAny(k, "*?[") && dosMatch(winWildcard(k), n, &buf) {
				return true
			}
		}
		return false
	}
	for _, a := range autostartKeys {
		as := strings.Split(strings.TrimPrefix(a, `\`), `\`)
		last := as[len(as)-1]
		for i := 1; i+len(as) <= len(ks); i++ {
			end := ks[i+len(as)-1]
			if keysMatch(ks[i:i+len(as)-1], as[:len(as)-1]) &&
				(strings.HasPrefix(end, last) || may(end, last, last+"once", last+"onceex", last+"services", last+"servicesonce")) {
				return true
			}
		}
	}
	for i := 1; i+2 <= len(ks); i++ {
		if keysMatch(ks[i:i+2], []string{"software", "classes"}) {
			for _, k := range ks[i+2:] {
				if may(k, "shell", "shellex", "inprocserver32", "localserver32") {
					return true
				}
			}
		}
	}
	return false
}

// uncPath says a path names another machine's share or a device
// (\\server\share, \\.\PhysicalDrive0, \\?\…), also through PowerShell's
// FileSystem provider: reading it connects or reads raw disks.
func uncPath(p string) bool {
	p = fileSystemPath(p)
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

// winDrive is the PowerShell drive or provider a word names whose items
// are not files (Env:, Variable::), or "" (cmdbase.PSDrive).
func winDrive(w string) string { return cmdbase.PSDrive(w) }

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
