package secrets

import (
	"path"
	"strings"
	"testing"
)

func TestHomePathsAreRelativeAndClean(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range HomePaths() {
		if p == "" || path.IsAbs(p) || path.Clean(p) != p {
			t.Errorf("%q: want a clean relative path", p)
		}
		if seen[p] {
			t.Errorf("%q listed twice", p)
		}
		seen[p] = true
	}
	for _, must := range []string{".ssh", ".aws", ".config/gh", ".vault-token", ".npmrc"} {
		if !seen[must] {
			t.Errorf("%s missing", must)
		}
	}
}

func TestValueFile(t *testing.T) {
	for p, want := range map[string]bool{
		".env": true, "config/.env.production": true, "deploy/service-account.json": true, "prod.tfvars": true,
		"certs/server.key": true, "home/.ssh/config": true, "github-token.txt": true, "secrets.yaml": true,
		"internal/auth/token.go": false, "internal/secrets/env.go": false, "docs/secrets.md": false,
		"testdata/no_history.txtar": false, ".env.example": false, "README.md": false, "token_test.py": false,
	} {
		if got := ValueFile(p); got != want {
			t.Errorf("ValueFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestContentShape(t *testing.T) {
	for s, want := range map[string]bool{
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl":                                      true,
		"-----BEGIN CERTIFICATE-----\nMIIB":                                              false,
		`{"type": "service_account", "private_key_id": "1", "private_key": ""}`:          true,
		"[default]\naws_access_key_id = AKIAXXXXXXXXXXXXXXXX\naws_secret_access_key = x": true,
		"github.com:\n    oauth_token: gho_x\n":                                          true,
		"//registry.npmjs.org/:_authToken=npm_x\n":                                       true,
		"token = ghp_" + "0123456789abcdefghijABCDEFGHIJ012345":                          true,
		"package main\n\nfunc main() {}\n":                                               false,
		`{"name": "x", "version": "1.0.0"}`:                                              false,
		"# ~/.bashrc\nalias ll='ls -l'\nexport OPENAI_API_KEY=sk-abcdefghijkl\n":         true,
		"SECRET_KEY = 'django-insecure-0123456789'\n":                                    true,
		"export GITHUB_TOKEN=$(pass show gh)\n":                                          false,
		"TOKEN_TYPE = 'bearer'\n":                                                        false,
		"export PATH=$HOME/bin:$PATH\n":                                                  false,
		// prefixed keys of other services, whatever the file's name
		"# created: 2024\nAGE-SECRET-KEY-1" + strings.Repeat("Q", 58) + "\n": true,
		"hf_" + strings.Repeat("a", 34):                                      true,
		"host = x\ntoken = dapi" + strings.Repeat("0", 32):                   true,
		"STRIPE=sk_live_" + strings.Repeat("a", 24):                          true,
		"key: AIza" + strings.Repeat("b", 35):                                true,
		"the hf_ prefix marks Hugging Face tokens":                           false,
		// WireGuard's and OpenVPN's keys under any name
		"[Interface]\nPrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=\nAddress = 10.0.0.1/24\n": true,
		"[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n":                              false,
		"-----BEGIN OpenVPN Static key V1-----\n0123":                                                     true,
	} {
		if got := ContentShape([]byte(s)); got != want {
			t.Errorf("ContentShape(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestNamesIgnoreCase: a file system that ignores case (macOS, Windows,
// ext4 casefold directories) opens ~/.SSH/config as ~/.ssh/config, so
// every spelling of a secret name is a secret.
func TestNamesIgnoreCase(t *testing.T) {
	for _, n := range []string{".ENV", ".Env.local", "PROD.ENV", ".NETRC", ".Ssh", ".Bash_History", "SHADOW", "ID_RSA", "Credentials", "KEY.PEM"} {
		if !Name(n) {
			t.Errorf("Name(%q) = false", n)
		}
	}
	for _, n := range []string{".ENV.EXAMPLE", "Known_Hosts", "README.md"} {
		if Name(n) {
			t.Errorf("Name(%q) = true", n)
		}
	}
	for _, rel := range []string{".SSH/id_rsa", ".Config/GH/hosts.yml", ".NETRC", ".Docker/config.json"} {
		if !UnderHome(rel) {
			t.Errorf("UnderHome(%q) = false", rel)
		}
	}
	if !ValueFile("deploy/.ENV") || !ValueFile(".AWS/config") {
		t.Error("ValueFile is case-sensitive")
	}
}

// TestLongTail: the long tail of credential files, one example of every
// class, and names that look alike but hold none.
func TestLongTail(t *testing.T) {
	for _, n := range []string{
		// other shells' and tools' histories
		".zsh_history", "fish_history", ".mycli-history", "ConsoleHost_history.txt",
		// mail
		".msmtprc", ".muttrc", ".fetchmailrc", ".mbsyncrc",
		// databases
		".pgpass", ".mylogin.cnf", ".cqlshrc", ".odbc.ini", "pgadmin4.db",
		// package managers and cloud command-line tools
		"NuGet.Config", "clouds.yaml", ".sentryclirc", ".passwd-s3fs", "azureProfile.json", "credentials.db",
		// browsers' and applications' stores
		"cookies.sqlite", "logins.json", "key4.db", "Login Data", "Web Data", "Cookies.binarycookies",
		// FTP, remote desktop, password managers
		"sitemanager.xml", "winscp.ini", "work.rdg", "KeePass.config.xml", "vpn.psk",
		// Wrangler's local secrets, k3s' and RKE2's admin kubeconfigs, Kerberos' ticket caches
		".dev.vars", "k3s.yaml", "rke2.yaml", "krb5cc_1000",
	} {
		if !Name(n) {
			t.Errorf("Name(%q) = false", n)
		}
	}
	for rel, want := range map[string]bool{
		".config/google-chrome/Default/Cookies":                                true,
		".config/BraveSoftware/Brave-Browser/Default/Network/Cookies":          true,
		".config/Slack/Cookies":                                                true,
		".config/discord/Local Storage/leveldb/000003.log":                     true,
		"Library/Application Support/Slack/Cookies":                            true,
		".var/app/com.discordapp.Discord/config/discord/Local Storage/leveldb": true,
		".local/share/TelegramDesktop/tdata/key_datas":                         true,
		".config/nushell/history.txt":                                          true,
		".local/share/xonsh/xonsh-history-1.json":                              true,
		".vnc/passwd":                   true,
		".pulumi/credentials.json":      true,
		".config/openstack/clouds.yaml": true,
		".mutt/muttrc":                  true,
		".config/Cookies.txt":           false,
		"projects/web/cookies/index.js": false,
		".config/nushell/config.nu":     false,
		".local/share/fonts":            false,
	} {
		if got := UnderHome(rel) || nameAnywhere(rel); got != want {
			t.Errorf("%s: secret = %v, want %v", rel, got, want)
		}
	}
	for _, g := range [][]string{{".config", "*", "Cookies"}, {".config", "google-chrome", "*", "Cookies"}, {".config", "*"}, {".c*"}} {
		if !GlobReachesHome(g) {
			t.Errorf("GlobReachesHome(%q) = false", g)
		}
	}
	if GlobReachesHome([]string{"projects", "*", "cookies"}) {
		t.Error("a glob in a project reaches the cookie stores")
	}
}

// nameAnywhere reports whether some segment of rel is a secret name.
func nameAnywhere(rel string) bool {
	for _, s := range strings.Split(rel, "/") {
		if Name(s) {
			return true
		}
	}
	return false
}

// TestBackups: editors' backup, swap and autosave copies of secret files
// are secrets; those of other files are not.
func TestBackups(t *testing.T) {
	for _, n := range []string{".env~", ".env.bak", "id_rsa.orig", "credentials.backup", ".netrc.tmp", ".env.swp",
		"..env.swp", ".id_rsa.swo", "#.pgpass#", ".#.netrc", ".npmrc.un~", "server.key.bak", ".ENV.BAK", "KEY4.DB~"} {
		if !Name(n) {
			t.Errorf("Name(%q) = false", n)
		}
	}
	for _, n := range []string{"notes.txt~", "main.go.orig", "README.md.bak", ".vimrc.swp", "#scratch#", ".#main.go",
		"~", ".bak", "_config.sql", "known_hosts.bak"} {
		if Name(n) {
			t.Errorf("Name(%q) = true", n)
		}
	}
	for rel, want := range map[string]bool{".gitconfig~": true, ".aws/credentials.bak": true, ".config/gh/hosts.yml.orig": true,
		".bashrc~": false, ".gitconfig.d": false} {
		if got := UnderHome(rel) || nameAnywhere(rel); got != want {
			t.Errorf("%s: secret = %v, want %v", rel, got, want)
		}
	}
}
