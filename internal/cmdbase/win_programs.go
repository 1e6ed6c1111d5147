package cmdbase

// Windows programs (System32 and friends), the same from cmd.exe and
// PowerShell.
var _ = register(func() []Spec {
	return []Spec{
		// reading files and text
		{Name: "findstr", Args: PatternArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/s", Recurse: true}, {Name: "/f", Named: true}}},
		{Name: "find", Args: PatternArgs, In: Both, Does: Reads},
		{Name: "more", In: Both, Does: Reads},
		{Name: "sort", In: Both, Does: Reads, Values: []string{"/o", "/output", "/t", "/temporary", "/l", "/locale", "/m", "/memory", "/rec", "/record_maximum", "/+"},
			Opts: []Opt{{Name: "/o", Does: Writes, Why: "writes its output to a file (sort /o)"}, {Name: "/output", Does: Writes, Why: "writes its output to a file"}}},
		{Name: "fc", In: Cmd, Does: Reads},
		{Name: "comp", In: Both, Does: Reads},
		{Name: "tree", In: Both, Does: Reads},
		{Name: "help", Args: TextArgs, In: Both, Does: Reads},
		{Name: "where", Args: TextArgs, In: Both, Does: Reads, Values: []string{"/r"}},
		{Name: "certutil", Saves: []string{"-urlcache", "/urlcache"}, In: Both, Does: Changes, Why: "certutil can download, decode and install",
			Opts: []Opt{{Name: "-addstore", Does: Dangerous, Why: "adds a trusted certificate (certutil -addstore)"},
				{Name: "-importpfx", Does: Changes}, {Name: "-setreg", Does: Changes}, {Name: "-installcert", Does: Changes}, {Name: "-dspublish", Does: Changes},
				{Name: "-hashfile", Does: Reads}, {Name: "/hashfile", Does: Reads},
				{Name: "-urlcache", Does: Sends, Why: "certutil -urlcache downloads files"}, {Name: "/urlcache", Does: Sends, Why: "certutil -urlcache downloads files"},
				{Name: "-decode", Does: Writes}, {Name: "-encode", Does: Writes}, {Name: "-delstore", Does: Dangerous, Why: "deletes certificates"}}},
		// attrib shows attributes; +X and -X set and clear them, which
		// changes the files (dangerous on a system location: attrib -h -s
		// over C:\Windows shows and unlocks the system's files)
		{Name: "attrib", In: Both, Does: Reads, Why: "changes file attributes",
			Opts:  attribFlags('-'),
			Words: attribFlags('+')},
		// system information
		{Name: "tasklist", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/s", Does: Sends, Why: "asks another computer (/s)"}}},
		{Name: "systeminfo", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/s", Does: Sends, Why: "asks another computer (/s)"}}},
		{Name: "hostname", Args: TextArgs, In: Both, Does: Reads},
		{Name: "whoami", Args: TextArgs, In: Both, Does: Reads},
		{Name: "ipconfig", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{
			{Name: "/release", Does: Changes, Why: "releases the network address"}, {Name: "/renew", Does: Changes, Why: "renews the network address"},
			{Name: "/flushdns", Does: Changes}, {Name: "/registerdns", Does: Changes}, {Name: "/setclassid", Does: Changes}}},
		{Name: "netstat", Args: TextArgs, In: Both, Does: Reads},
		{Name: "getmac", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/s", Does: Sends, Why: "asks another computer (/s)"}}},
		{Name: "driverquery", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/s", Does: Sends, Why: "asks another computer (/s)"}}},
		{Name: "arp", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "-d", Does: Changes}, {Name: "-s", Does: Changes}}},
		{Name: "route", Args: TextArgs, In: Both, Does: Unknown, Subs: []Sub{{Name: "print", Does: Reads}, {Name: "add", Does: Changes}, {Name: "delete", Does: Changes}, {Name: "change", Does: Changes}}},
		{Name: "chcp", Args: TextArgs, In: Both, Does: Changes, NoArgs: Reads},
		{Name: "timeout", Args: TextArgs, In: Both, Does: Reads},
		{Name: "choice", Args: TextArgs, In: Both, Does: Reads},
		{Name: "wmic", Args: TextArgs, In: Both, Does: Changes, Why: "wmic can change or delete anything it queries",
			Words: []Opt{{Name: "delete", Does: Dangerous, Why: "deletes what it queries (wmic … delete)"}, {Name: "get", Does: Reads}, {Name: "list", Does: Reads},
				{Name: "product", Does: Changes, Why: "wmic product makes Windows Installer check and repair every product"},
				{Name: "environment", Does: Changes, Why: "wmic environment shows the lasting environment variables, which may hold secrets"}},
			Mentions: win32Product,
			// global switches: another computer, an output file, a stylesheet
			// (XSL runs script: from the network it is code from the network)
			Opts: []Opt{{Name: "/node", Does: Sends, Why: "asks another computer (wmic /node)"}, {Name: "/user", Does: Sends}, {Name: "/password", Does: Sends},
				{Name: "/output", Does: Writes, Why: "writes its output to a file (wmic /output)"}, {Name: "/append", Does: Writes, Why: "appends its output to a file (wmic /append)"},
				{Name: "/format", ValueHas: ".xsl", Does: Runs, Why: "runs a stylesheet's script (wmic /format)"},
				{Name: "/format", ValueHas: "://", Does: Dangerous, Why: "runs a stylesheet's script from the network (wmic /format)"},
				{Name: "/format", ValueHas: `\\`, Does: Dangerous, Why: "runs a stylesheet's script from another computer (wmic /format)"}}},
		{Name: "qprocess", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/server", Does: Sends, Why: "asks another computer (/server)"}}},
		{Name: "query", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/server", Does: Sends, Why: "asks another computer (/server)"}}},
		{Name: "quser", Args: TextArgs, In: Both, Does: Reads, Opts: []Opt{{Name: "/server", Does: Sends, Why: "asks another computer (/server)"}}},
		{Name: "gpresult", Args: TextArgs, In: Both, Does: Reads, Values: []string{"/h", "/x", "/s", "/u", "/p", "/user", "/scope"},
			Opts: []Opt{{Name: "/s", Does: Sends, Why: "asks another computer (/s)"},
				{Name: "/h", Does: Writes, Why: "writes its report to a file (gpresult /h)"}, {Name: "/x", Does: Writes, Why: "writes its report to a file (gpresult /x)"}}},
		{Name: "powercfg", Args: TextArgs, In: Both, Does: Changes, Opts: []Opt{{Name: "/change", Does: Changes}, {Name: "/x", Does: Changes},
			{Name: "/setactive", Does: Changes}, {Name: "/s", Does: Changes}, {Name: "/delete", Does: Changes}, {Name: "/d", Does: Changes},
			{Name: "/import", Does: Changes}, {Name: "/hibernate", Does: Changes}, {Name: "/h", Does: Changes}, {Name: "/setacvalueindex", Does: Changes},
			{Name: "/setdcvalueindex", Does: Changes}, {Name: "/duplicatescheme", Does: Changes}, {Name: "/export", Does: Writes}, {Name: "/list", Does: Reads}, {Name: "/l", Does: Reads}, {Name: "/query", Does: Reads}, {Name: "/q", Does: Reads}, {Name: "/a", Does: Reads}, {Name: "/availablesleepstates", Does: Reads}}},
		{Name: "w32tm", Args: TextArgs, In: Both, Does: Changes, Opts: []Opt{{Name: "/query", Does: Reads}, {Name: "/tz", Does: Reads},
			{Name: "/resync", Does: Changes}, {Name: "/config", Does: Changes}, {Name: "/register", Does: Changes}, {Name: "/unregister", Does: Changes},
			{Name: "/stripchart", Does: Sends}, {Name: "/monitor", Does: Sends}}, Why: "changes the time service"},
		{Name: "klist", Args: TextArgs, In: Both, Does: Reads, Words: []Opt{{Name: "purge", Does: Changes, Why: "deletes Kerberos tickets"},
			{Name: "get", Does: Sends, Why: "asks a domain controller for a ticket"}, {Name: "add_bind", Does: Changes}, {Name: "purge_bind", Does: Changes}}},
		{Name: "cmdkey", Args: TextArgs, In: Both, Does: Changes, Opts: []Opt{{Name: "/list", Does: Reads},
			{Name: "/add", Does: Changes}, {Name: "/generic", Does: Changes}, {Name: "/smartcard", Does: Changes},
			{Name: "/delete", Does: Dangerous, Why: "deletes stored credentials"}}, Why: "stores credentials"},
		{Name: "openfiles", In: Both, Does: Reads, Opts: []Opt{{Name: "/s", Does: Sends, Why: "asks another computer (/s)"}, {Name: "/disconnect", Does: Changes}, {Name: "/local", Does: Changes}}},
		{Name: "schtasks", Args: TextArgs, In: Both, Does: Changes, Values: []string{"/rl", "/sc", "/ru", "/tn", "/tr", "/st", "/sd", "/mo", "/rp"},
			Opts: []Opt{{Name: "/query", Does: Reads},
				// a task started at sign-in or boot, or with the highest rights,
				// is a program that starts itself with power
				{Name: "/rl", Value: "highest", Does: Dangerous, Why: "makes a task run with the highest rights (schtasks /rl highest)"},
				{Name: "/sc", Value: "onlogon", Does: Dangerous, Why: "makes a program start at every sign-in (schtasks /sc onlogon)"},
				{Name: "/sc", Value: "onstart", Does: Dangerous, Why: "makes a program start at every boot (schtasks /sc onstart)"},
				{Name: "/ru", Value: "system", Does: Dangerous, Why: "makes a task run as SYSTEM (schtasks /ru system)"},
				// the operations that change, so /query beside them lowers nothing
				{Name: "/create", Does: Changes}, {Name: "/change", Does: Changes}, {Name: "/run", Does: Runs}, {Name: "/end", Does: Changes}, {Name: "/s", Does: Sends, Why: "asks another computer (/s)"},
				{Name: "/delete", Does: Dangerous, Why: "deletes scheduled tasks (schtasks /delete)"}}, Why: "creates, changes or runs scheduled tasks",
			Examples: Examples{
				Allow: []string{"schtasks /query /fo list"},
				Ask:   []string{"schtasks /create /tn t /tr C:\\x.exe /sc daily", "schtasks /run /tn t"},
				Warn:  []string{"schtasks /create /tn t /tr C:\\x.exe /sc onlogon /rl highest", "schtasks /delete /tn t /f"},
			}},
		{Name: "sc", Args: TextArgs, In: Both, Does: Unknown, NoArgs: Reads, Subs: []Sub{
			{Name: "query", Does: Reads}, {Name: "queryex", Does: Reads}, {Name: "qc", Does: Reads}, {Name: "qdescription", Does: Reads},
			{Name: "qfailure", Does: Reads}, {Name: "getdisplayname", Does: Reads}, {Name: "getkeyname", Does: Reads}, {Name: "enumdepend", Does: Reads},
			{Name: "start", Does: Changes}, {Name: "stop", Does: Changes}, {Name: "pause", Does: Changes}, {Name: "continue", Does: Changes},
			{Name: "config", Does: Changes}, {Name: "create", Does: Changes}, {Name: "failure", Does: Changes},
			{Name: "delete", Does: Dangerous, Why: "deletes a service (sc delete)"}, {Name: "sdset", Does: Dangerous, Why: "changes a service's security (sc sdset)"}}},
		// net's reading subcommands change what they show given an option they
		// do not list (net user NAME /passwordreq:no, net accounts /minpwlen:0)
		// or a NAME=PATH (net share docs=C:\)
		{Name: "net", Args: TextArgs, In: Both, Does: Unknown, Mentions: []Opt{{Name: "=", Does: Changes, Why: "creates or changes what it names (net … NAME=VALUE)"}}, Subs: []Sub{
			{Name: "user", Does: Reads, MaxOps: 1, More: Dangerous, MoreWhy: "sets a user's password (net user NAME PASSWORD)",
				Other: Changes, OtherWhy: "changes a user account (net user /OPTION)", Opts: []Opt{{Name: "/add", Does: Dangerous, Why: "creates a user account (net user /add)"},
					{Name: "/delete", Does: Dangerous, Why: "deletes a user account"}, {Name: "/active", Does: Dangerous, Why: "enables or disables a user account (net user /active)"},
					{Name: "/passwordreq", Does: Dangerous, Why: "lets a user account have no password (net user /passwordreq)"}, {Name: "/domain", Does: Reads}}},
			{Name: "localgroup", Does: Reads, MaxOps: 1, More: Dangerous, MoreWhy: "changes a local group's members (net localgroup GROUP NAME)",
				Other: Changes, OtherWhy: "changes a local group (net localgroup /OPTION)", Opts: []Opt{{Name: "/add", Does: Dangerous, Why: "adds to a local group (net localgroup /add)"},
					{Name: "/delete", Does: Dangerous, Why: "removes from a local group"}, {Name: "/domain", Does: Reads}}},
			{Name: "group", Does: Reads, Other: Changes, OtherWhy: "changes a group (net group /OPTION)",
				Opts: []Opt{{Name: "/add", Does: Dangerous}, {Name: "/delete", Does: Dangerous}, {Name: "/domain", Does: Reads}}},
			{Name: "accounts", Does: Reads, Other: Dangerous, OtherWhy: "changes the password and lockout policy (net accounts /OPTION)",
				Opts: []Opt{{Name: "/domain", Does: Reads}}},
			{Name: "config", Does: Reads, Other: Changes, OtherWhy: "changes the server or workstation settings (net config /OPTION)"},
			{Name: "statistics", Does: Reads}, {Name: "view", Does: Sends},
			{Name: "share", Does: Reads, Other: Changes, OtherWhy: "changes a share (net share /OPTION)", Opts: []Opt{{Name: "/delete", Does: Changes}, {Name: "/grant", Does: Changes}}},
			{Name: "session", Does: Reads, Other: Changes, OtherWhy: "ends sessions (net session /OPTION)", Opts: []Opt{{Name: "/delete", Does: Changes}}},
			{Name: "use", Does: Sends}, {Name: "start", Does: Changes}, {Name: "stop", Does: Changes},
			{Name: "pause", Does: Changes}, {Name: "continue", Does: Changes}, {Name: "time", Does: Changes}}},
		{Name: "netsh", Args: TextArgs, In: Both, Does: Changes, Why: "netsh changes network settings",
			Mentions: []Opt{{Name: "action=allow", Does: Dangerous, Why: "opens the firewall to connections (netsh … action=allow)"},
				// key=clear however written (key=cle, key="clear"), or a key
				// the next word gives
				{Name: "key=", Does: Changes, Why: "shows a saved Wi-Fi password (netsh … key=clear)"}},
			Words: []Opt{{Name: "show", Does: Reads}, {Name: "off", Does: Dangerous, Why: "turns a firewall or interface off (netsh … off)"},
				{Name: "disabled", Does: Dangerous, Why: "turns a firewall or interface off (netsh … disabled)"},
				{Name: "disable", Does: Dangerous, Why: "turns a firewall or interface off (netsh … disable)"}, {Name: "reset", Does: Dangerous, Why: "resets network settings (netsh … reset)"},
				{Name: "key=clear", Does: Changes, Why: "shows a saved Wi-Fi password (netsh … key=clear)"},
				{Name: "key", Does: Changes, Why: "shows a saved Wi-Fi password (netsh … key=clear)"}},
			Examples: Examples{
				Allow: []string{"netsh interface ip show config"},
				Ask:   []string{"netsh wlan show profile name=x key=clear", "netsh interface ip set dns x static 1.1.1.1"},
				Warn: []string{"netsh advfirewall firewall add rule name=x dir=in action=allow protocol=TCP localport=4444",
					"netsh advfirewall set allprofiles state off"},
			}},
		{Name: "reg", Args: TextArgs, In: Both, Does: Unknown, Subs: []Sub{
			{Name: "query", Does: Reads, Opts: []Opt{{Name: "/s", Recurse: true}}}, {Name: "compare", Does: Reads},
			{Name: "add", Does: Changes, Why: "changes the registry"}, {Name: "copy", Does: Changes, Why: "changes the registry"},
			{Name: "import", Does: Changes, Why: "changes the registry"}, {Name: "load", Does: Changes}, {Name: "unload", Does: Changes},
			{Name: "restore", Does: Dangerous, Why: "overwrites a registry key (reg restore)"},
			{Name: "export", Does: Writes}, {Name: "save", Does: Writes},
			{Name: "delete", Does: Dangerous, Why: "deletes registry keys (reg delete)"}},
			Examples: Examples{
				Allow: []string{"reg query HKCU\\Software\\App", "reg query HKLM\\Software\\Microsoft\\Windows\\CurrentVersion /s"},
				Ask:   []string{"reg add HKCU\\Software\\App /v X /d 1 /f"},
				Warn: []string{"reg delete HKCU\\Software\\App /f", "reg export HKCU\\Software\\App app.reg",
					"reg add HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d C:\\x.exe"},
			}},
		// changing files
		{Name: "xcopy", In: Both, Does: Writes, Cat: CatCopy, Opts: []Opt{{Name: "/s", Recurse: true}, {Name: "/e", Recurse: true}}},
		{Name: "robocopy", In: Both, Does: Writes, Opts: []Opt{
			{Name: "/mir", Does: Dangerous, Why: "robocopy /mir deletes what the source lacks"}, {Name: "/purge", Does: Dangerous, Why: "robocopy /purge deletes files"},
			{Name: "/move", Does: Dangerous, Why: "robocopy /move deletes the source"}, {Name: "/mov", Does: Dangerous, Why: "robocopy /mov deletes the source files"}}},
		{Name: "replace", In: Both, Does: Writes},
		{Name: "expand", In: Both, Does: Writes},
		{Name: "compact", In: Both, Does: Writes, NoArgs: Reads},
		{Name: "clip", Args: TextArgs, In: Both, Does: Changes, Why: "replaces the clipboard"},
		// winget lists what is installed; it installs and removes programs
		{Name: "winget", Args: TextArgs, In: Both, Does: Unknown, Subs: []Sub{{Name: "list", Does: Reads}, {Name: "ls", Does: Reads},
			{Name: "search", Does: Sends}, {Name: "find", Does: Sends}, {Name: "show", Does: Sends}, {Name: "view", Does: Sends},
			{Name: "install", Does: Runs, Why: "installs a program (winget install)"}, {Name: "upgrade", Does: Runs, Why: "upgrades programs (winget upgrade)"},
			{Name: "uninstall", Does: Dangerous, Why: "removes a program (winget uninstall)"}, {Name: "import", Does: Runs}, {Name: "source", Does: Changes}}},
		{Name: "setx", Args: TextArgs, In: Both, Does: Changes, Why: "sets a persistent environment variable",
			Opts: []Opt{{Name: "/m", Does: Dangerous, Why: "sets a machine-wide environment variable (setx /m)"}}},
		{Name: "icacls", In: Both, Does: Reads, Opts: []Opt{
			{Name: "/grant", Does: Dangerous, Why: "grants permissions (icacls /grant)"}, {Name: "/deny", Does: Dangerous, Why: "changes permissions (icacls /deny)"},
			{Name: "/setowner", Does: Dangerous, Why: "changes an owner (icacls /setowner)"}, {Name: "/reset", Does: Changes}, {Name: "/remove", Does: Changes},
			{Name: "/inheritance", Does: Changes}, {Name: "/restore", Does: Dangerous, Why: "replaces permissions (icacls /restore)"},
			{Name: "/save", Does: Writes}, {Name: "/setintegritylevel", Does: Changes}}},
		{Name: "cacls", In: Both, Does: Reads, Opts: []Opt{{Name: "/g", Does: Dangerous, Why: "grants permissions"}, {Name: "/e", Does: Changes}, {Name: "/p", Does: Dangerous}, {Name: "/d", Does: Dangerous}}},
		{Name: "takeown", In: Both, Does: Dangerous, Why: "takes ownership of files (takeown)"},
		{Name: "cipher", In: Both, Does: Changes, NoArgs: Reads, Opts: []Opt{{Name: "/w", Does: Dangerous, Why: "overwrites free disk space (cipher /w)"}}},
		// the system and its disks
		{Name: "format", In: Both, Does: Dangerous, Why: "formats a disk"},
		{Name: "diskpart", In: Both, Does: Dangerous, Why: "partitions disks (diskpart)"},
		// bcdedit /enum lists the boot entries; every other operation changes them
		{Name: "bcdedit", In: Both, Does: Dangerous, Why: "changes the boot configuration (bcdedit)",
			Opts: append([]Opt{{Name: "/enum", Does: Reads}, {Name: "/v", Does: Reads}}, bootChanges("/set", "/deletevalue", "/delete", "/create",
				"/copy", "/import", "/export", "/default", "/bootsequence", "/displayorder", "/timeout", "/toolsdisplayorder", "/bootems", "/ems",
				"/debug", "/bootdebug", "/dbgsettings", "/hypervisorsettings", "/emssettings", "/eventsettings", "/event", "/mirror", "/store",
				"/createstore", "/sysstore")...)},
		{Name: "bcdboot", In: Both, Does: Dangerous, Why: "rewrites boot files"},
		{Name: "vssadmin", Args: TextArgs, In: Both, Does: Unknown, Subs: []Sub{{Name: "list", Does: Reads},
			{Name: "delete", Does: Dangerous, Why: "deletes shadow copies (vssadmin delete)"}, {Name: "resize", Does: Dangerous, Why: "can delete shadow copies (vssadmin resize)"},
			{Name: "create", Does: Changes}}},
		{Name: "wbadmin", In: Both, Does: Changes, Words: []Opt{{Name: "delete", Does: Dangerous, Why: "deletes backups (wbadmin delete)"}, {Name: "get", Does: Reads}}},
		{Name: "wevtutil", Args: TextArgs, In: Both, Does: Unknown, Opts: []Opt{{Name: "/r", Does: Sends, Why: "asks another computer (wevtutil /r)"}}, Subs: []Sub{{Name: "qe", Does: Reads}, {Name: "query-events", Does: Reads}, {Name: "el", Does: Reads}, {Name: "enum-logs", Does: Reads},
			{Name: "gl", Does: Reads}, {Name: "get-log", Does: Reads}, {Name: "cl", Does: Dangerous, Why: "clears an event log (wevtutil cl)"}, {Name: "clear-log", Does: Dangerous, Why: "clears an event log"}}},
		{Name: "shutdown", Args: TextArgs, In: Both, Does: Dangerous, Why: "shuts down or restarts the computer"},
		{Name: "chkdsk", In: Both, Does: Reads, Opts: []Opt{{Name: "/f", Does: Dangerous, Why: "repairs a disk in place (chkdsk /f)"}, {Name: "/r", Does: Dangerous, Why: "repairs a disk in place (chkdsk /r)"}, {Name: "/x", Does: Dangerous},
			{Name: "/b", Does: Dangerous, Why: "repairs a disk in place (chkdsk /b)"}, {Name: "/spotfix", Does: Dangerous, Why: "repairs a disk in place (chkdsk /spotfix)"},
			{Name: "/offlinescanandfix", Does: Dangerous, Why: "repairs a disk in place (chkdsk /offlinescanandfix)"}, {Name: "/forceofflinefix", Does: Dangerous, Why: "repairs a disk in place"},
			{Name: "/sdcclean", Does: Changes}, {Name: "/l", Does: Changes}}},
		{Name: "convert", In: Both, Does: Dangerous, Why: "converts a volume's file system"},
		{Name: "label", In: Both, Does: Changes},
		// fsutil fsinfo only queries; its other subcommands change volumes and files
		{Name: "fsutil", Args: TextArgs, In: Both, Does: Changes, Subs: []Sub{{Name: "fsinfo", Does: Reads}}},
		{Name: "sfc", In: Both, Does: Changes},
		{Name: "dism", In: Both, Does: Changes},
		{Name: "manage-bde", In: Both, Does: Dangerous, Why: "changes disk encryption (manage-bde)", Opts: []Opt{{Name: "-status", Does: Reads},
			{Name: "-off", Does: Dangerous, Why: "turns disk encryption off (manage-bde -off)"}, {Name: "-on", Does: Dangerous, Why: "encrypts a disk (manage-bde -on)"},
			{Name: "-protectors", Does: Dangerous, Why: "changes or shows a disk's key protectors (manage-bde -protectors)"},
			{Name: "-forcerecovery", Does: Dangerous, Why: "forces BitLocker recovery (manage-bde -forcerecovery)"}, {Name: "-lock", Does: Dangerous, Why: "locks an encrypted disk"},
			{Name: "-unlock", Does: Dangerous, Why: "unlocks an encrypted disk"}, {Name: "-changepassword", Does: Dangerous, Why: "changes a disk's password"},
			{Name: "-wipefreespace", Does: Dangerous, Why: "wipes free space (manage-bde -wipefreespace)"}, {Name: "-w", Does: Dangerous, Why: "wipes free space"}}},
		{Name: "runas", In: Both, Does: Dangerous, Why: "runs a program as another user (privilege escalation)"},
		{Name: "taskkill", Args: TextArgs, In: Both, Does: Changes, Why: "ends processes"},
		{Name: "mountvol", In: Both, Does: Changes, NoArgs: Reads, Opts: []Opt{{Name: "/d", Does: Dangerous}, {Name: "/p", Does: Dangerous}}},
		// running code
		{Name: "cmd", Shell: true, In: Both, Does: Runs, Wraps: JudgedInner, Why: "runs cmd.exe commands (judged on their own)"},
		{Name: "powershell", Shell: true, Aliases: []string{"pwsh"}, In: Both, Does: Runs, Wraps: JudgedInner, Why: "runs PowerShell commands (judged on their own)"},
		{Name: "wscript", Aliases: []string{"cscript"}, In: Both, Does: Runs, Why: "runs code"},
		{Name: "bitsadmin", In: Both, Does: Sends, Saves: []string{""}, Why: "transfers files over the network (bitsadmin)"},
		{Name: "wsl", In: Both, Does: Runs, Linux: true, Why: "runs a command in WSL"},
		// given a URL or another computer's path they run code from the network
		{Name: "mshta", Aliases: []string{"rundll32", "regsvr32", "msiexec"}, In: Both, Does: Runs, RunsURL: true, Why: "runs code"},
		// network
		{Name: "ping", Args: TextArgs, Aliases: []string{"tracert", "pathping", "nslookup", "ftp", "tftp", "telnet"}, In: Both, Does: Sends},
	}
})

// attribFlags are attrib's attribute switches with the sign given: each
// changes the attributes of the files named.
func attribFlags(sign byte) []Opt {
	var out []Opt
	for _, c := range "rasiohxvpub" {
		out = append(out, Opt{Name: string(sign) + string(c), Does: Writes, Why: "changes file attributes"})
	}
	return out
}

// bootChanges are bcdedit's operations that change the boot
// configuration.
func bootChanges(names ...string) []Opt {
	out := make([]Opt, len(names))
	for i, n := range names {
		out[i] = Opt{Name: n, Does: Dangerous, Why: "changes the boot configuration (bcdedit " + n + ")"}
	}
	return out
}
