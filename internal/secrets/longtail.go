package secrets

import (
	"path"
	"strings"
	"sync"
)

// The long tail of credential files, as data. Most entries are
// transcribed from PEASS-ng's list of files that hold credentials
// (build_lists/sensitive_files.yaml of github.com/peass-ng/PEASS-ng, the
// entries it greps for passwords, tokens and keys or lists as credential
// stores); the rest, marked below, come from the documentation of the
// program that writes the file. Editors' backup and swap names come from
// GitHub's gitignore templates (github.com/github/gitignore:
// Global/Backup.gitignore, Global/Vim.gitignore, Global/Emacs.gitignore).

// tailNames are more names that hold credentials wherever they are.
var tailNames = []string{
	// PEASS-ng: mail, FTP and remote-desktop clients, directory services,
	// Kerberos, Erlang, one-time passwords, Wi-Fi, web servers, Windows
	// answer files, browser password stores, password managers, cloud CLIs
	".msmtprc", ".wgetrc", ".ldaprc", ".erlang.cookie", ".google_authenticator", ".rhosts", ".k5login",
	"sitemanager.xml", "recentservers.xml", "filezilla.xml", "winscp.ini", "ws_ftp.ini", "wcx_ftp.ini",
	"ffftp.ini", "kcpassword", "tomcat-users.xml", "jetty-realm.properties", "hostapd.conf", "psk.txt",
	"azureprofile.json", "azurermcontext.json", "rdcman.settings", "unattend.inf", "unattended.xml",
	"sysprep.inf", "sysprep.xml", "logins.json", "key3.db", "key4.db", "cookies.sqlite", "login data",
	"web data", "credentials.db", "keepass.ini", "ntds.dit",
	// mail clients (mutt, fetchmail, isync, OfflineIMAP documentation)
	".muttrc", ".fetchmailrc", ".mbsyncrc", ".offlineimaprc",
	// databases (MySQL login paths, cqlsh, unixODBC, pgAdmin on Windows,
	// mycli and pgcli histories)
	".mylogin.cnf", ".cqlshrc", ".odbc.ini", "pgpass.conf", ".mycli-history", ".pgcli-history",
	// package managers and cloud tools (NuGet, OpenStack, Sentry, s3fs,
	// Talos, R's startup environment, Firefox's old password store,
	// Safari's cookies, PowerShell's history on every system)
	"nuget.config", "clouds.yaml", ".sentryclirc", ".passwd-s3fs", "talosconfig", ".renviron",
	"signons.sqlite", "cookies.binarycookies", "consolehost_history.txt",
	// Cloudflare Wrangler's local secrets; the cluster administrator's
	// kubeconfig k3s and RKE2 write (their documentation)
	".dev.vars", "k3s.yaml", "rke2.yaml",
}

// tailExtensions mark more key, password and connection files (PEASS-ng:
// pre-shared keys, FTP client configurations, RDCMan groups, keyrings,
// PGP files).
var tailExtensions = []string{".psk", ".ftpconfig", ".rdg", ".keyring", ".pgp"}

// nameGlobs are lower-case patterns of one name (PEASS-ng: pgAdmin's
// saved servers, KeePass's configuration; MIT Kerberos' ticket caches,
// /tmp/krb5cc_UID, from its documentation).
var nameGlobs = []string{"pgadmin*.db", "keepass.config*", "keepass.enforced*", "krb5cc_*"}

// tailHomePaths are more files and directories below the home directory
// that hold credentials or histories, relative to it. They join
// homePaths, so the sandbox hides them too.
var tailHomePaths = []string{
	// PEASS-ng: VNC passwords, cloudflared's tunnel credentials
	".vnc", ".cloudflared",
	// mail clients (their documentation): configurations with account
	// passwords
	".mutt", ".config/mutt", ".config/neomutt", ".config/aerc", ".getmail", ".config/evolution",
	".local/share/evolution", ".purple", ".weechat/sec.conf", ".config/weechat/sec.conf",
	// package managers
	".m2/settings-security.xml", ".nuget/NuGet", ".config/NuGet", ".config/pypoetry/auth.toml",
	".config/jfrog", ".jfrog", ".sbt/.credentials", ".condarc",
	// cloud command-line tools' logins
	".pulumi", ".ibmcloud", ".config/linode-cli", ".config/scw", ".config/exoscale", ".config/openstack",
	".aliyun", ".tccli", ".minikube", ".talos", ".railway", ".doppler", ".mc", ".s3ql",
	// other shells' and REPLs' histories (nushell, xonsh, elvish,
	// PowerShell, IPython, Julia, Neovim's ShaDa, Emacs' savehist, pgcli)
	".config/nushell/history.txt", ".config/nushell/history.sqlite3", ".local/share/xonsh",
	".local/state/elvish", ".elvish", ".local/share/powershell/PSReadLine", ".ipython/profile_default/history.sqlite",
	".julia/logs", ".local/share/nvim/shada", ".emacs.d/history", ".config/pgcli",
	// keyrings, chat applications' stores
	".gnome2/keyrings", ".local/share/kwalletd", ".kde/share/apps/kwallet", ".local/share/TelegramDesktop",
	".config/Signal", "Library/Keychains", "Library/Cookies",
}

// homeGlobs are patterns below the home directory, relative to it, with
// "*" for any part of one name and "**" for any run of directories:
// Chromium and every Electron application (Slack, Discord, Teams, Element,
// Signal…) keep their cookies and logged-in sessions in files named
// Cookies and directories named Local Storage, whatever the application
// (PEASS-ng lists them for Chrome and Opera).
var homeGlobs = []string{
	".config/**/Cookies", ".config/**/Cookies-journal", ".config/**/Local Storage",
	".var/app/**/Cookies", ".var/app/**/Local Storage", "snap/**/Cookies",
	"Library/Application Support/**/Cookies", "Library/Application Support/**/Local Storage",
}

// homeGlobSegs are homeGlobs lower-cased and split at their slashes,
// once.
var homeGlobSegs = sync.OnceValue(func() [][]string {
	out := make([][]string, len(homeGlobs))
	for i, g := range homeGlobs {
		out[i] = strings.Split(strings.ToLower(g), "/")
	}
	return out
})

// HomeGlobs returns the secret locations below a home directory that are
// patterns ("*" within a name, "**" for directories), relative to it,
// slash-separated. Unlike HomePaths they cannot be hidden by name; a
// sandbox hides what they match when it starts.
func HomeGlobs() []string { return append([]string(nil), homeGlobs...) }

// backupSuffixes are the endings editors and backup tools give a copy of
// a file (GitHub's gitignore templates: Backup, Vim, Emacs).
var backupSuffixes = []string{".bak", ".back", ".backup", ".gho", ".ori", ".orig", ".original", ".tmp", ".temp",
	".temporary", ".un~", ".~undo-tree~", "~"}

// backupOf returns the names a lower-case backup, swap or autosave name
// is a copy of: NAME~, NAME.bak, NAME.orig… (Backup.gitignore), .NAME.swp
// and its sister swap names .s[a-w][a-z] (Vim.gitignore), #NAME# and
// .#NAME (Emacs.gitignore). It returns nothing for another name.
func backupOf(lower string) []string {
	var out []string
	for _, s := range backupSuffixes {
		if len(lower) > len(s) && strings.HasSuffix(lower, s) {
			out = append(out, lower[:len(lower)-len(s)])
		}
	}
	if n := len(lower); n > 5 && (lower[0] == '.' || lower[0] == '_') && lower[n-4:n-2] == ".s" &&
		lower[n-2] >= 'a' && lower[n-2] <= 'w' && lower[n-1] >= 'a' && lower[n-1] <= 'z' {
		// Vim writes the swap file of x as .x.swp, of .x as .x.swp too
		orig := lower[1 : n-4]
		out = append(out, orig, "."+orig)
	}
	if len(lower) > 2 && lower[0] == '#' && lower[len(lower)-1] == '#' {
		out = append(out, lower[1:len(lower)-1])
	}
	if len(lower) > 2 && strings.HasPrefix(lower, ".#") {
		out = append(out, lower[2:])
	}
	return out
}

// tailName reports whether a lower-case name is on the long tail: a
// name, an extension or a name pattern.
func tailName(lower string) bool {
	if tailNameSet()[lower] {
		return true
	}
	for _, e := range tailExtensions {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	for _, g := range nameGlobs {
		if ok, _ := path.Match(g, lower); ok {
			return true
		}
	}
	return false
}

var tailNameSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range tailNames {
		m[strings.ToLower(n)] = true
	}
	return m
})

// tailSamples are names globs are tested against for the long tail.
func tailSamples() []string {
	out := append([]string(nil), tailNames...)
	for _, e := range tailExtensions {
		out = append(out, "x"+e)
	}
	for _, g := range nameGlobs {
		out = append(out, strings.ReplaceAll(g, "*", "x"))
	}
	for _, g := range homeGlobs {
		out = append(out, path.Base(g))
	}
	return out
}

// matchSegs reports whether the path segments name match the pattern's
// segments (lower-cased): each pattern segment is a path.Match pattern,
// "**" matches any run of segments; the name is compared lower-cased.
// With either set, a segment also matches when the name's segment,
// itself a pattern, matches the pattern's (a glob the user wrote against
// a pattern of the list).
func matchSegs(pat, name []string, either bool) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if matchSegs(pat[1:], name[i:], either) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	p, n := pat[0], strings.ToLower(name[0])
	ok, _ := path.Match(p, n)
	if !ok && either {
		ok, _ = path.Match(n, p)
	}
	return ok && matchSegs(pat[1:], name[1:], either)
}

// underHomeGlob reports whether rel, relative to the home directory, is
// or is below a match of a home glob.
func underHomeGlob(rel string, either bool) bool {
	segs := strings.Split(rel, "/")
	for _, gs := range homeGlobSegs() {
		for n := len(segs); n > 0; n-- {
			if matchSegs(gs, segs[:n], either) {
				return true
			}
		}
	}
	return false
}
