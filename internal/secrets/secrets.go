// Package secrets is nb's knowledge of where credentials live on disk, as
// data: the files and directories below a home directory that hold them.
// The policy judges reads against it, and the sandbox hides the same
// paths from the commands it runs, so the two lists cannot drift apart.
// Inventory lists the secret files that exist on this machine, and Links
// tells by identity which secret a file with several hard links is.
package secrets

import (
	"path"
	"slices"
	"strings"
)

// homePaths are files and directories, relative to the home directory,
// that hold credentials or history a command has no business reading.
var homePaths = []string{
	".ssh", ".aws", ".gnupg", ".gcloud", ".azure", ".kube", ".docker", ".password-store",
	".config/gcloud", ".config/gh", ".config/hub", ".config/rclone", ".config/op",
	".config/doctl", ".config/Bitwarden", ".config/keybase", ".config/nb",
	".local/share/keyrings", ".local/state/nb", ".terraform.d", ".pki", ".mozilla",
	".m2/settings.xml", ".gradle/gradle.properties", ".netrc", ".git-credentials",
	".pgpass", ".npmrc", ".pypirc", ".vault-token", ".bash_history", ".zsh_history",
	".python_history", ".mysql_history", ".psql_history", ".gitconfig", ".config/git/config", ".config/git/credentials",
	".sh_history", ".history", ".histfile", ".local/share/fish/fish_history", ".node_repl_history",
	".sqlite_history", ".rediscli_history", ".irb_history", ".lesshst", ".viminfo", ".yarnrc.yml",
	".gem/credentials", ".cargo/credentials.toml", ".cargo/credentials", ".config/hcloud", ".oci", ".bluemix", ".config/heroku", ".netlify",
	".config/netlify", ".vercel", ".local/share/com.vercel.cli", ".config/configstore", ".dbshell", ".mongoshrc.js",
	".config/git-credential-manager", ".config/Code/User/globalStorage", ".config/1Password", ".ansible/vault_pass",
	// command-line tools' logins and connection profiles (an API key, an
	// OAuth token or a password in a file of the tool's own format)
	".kaggle", ".databrickscfg", ".snowflake", ".dbt/profiles.yml", ".gemini", ".config/github-copilot",
	".terraformrc", ".circleci", ".fly", ".wrangler", ".config/.wrangler", ".ngrok2", ".config/ngrok",
	".config/stripe", ".config/helm", ".config/glab-cli", ".config/tea", ".config/Bitwarden CLI",
	".yarnrc", ".bundle/config", ".config/pip/pip.conf", ".pip/pip.conf", ".ivy2/.credentials",
	".config/sops", ".config/filezilla", ".config/remmina", ".local/share/remmina", ".config/transmission",
	".thunderbird", ".lftp", ".irssi/config", ".config/fish/fish_variables",
	// shell histories kept elsewhere (atuin, macOS Terminal sessions)
	".local/share/atuin", ".zsh_sessions", ".bash_sessions",
}

// HomePaths returns the secret locations below a home directory, relative
// to it, slash-separated (HomeGlobs holds the patterns).
func HomePaths() []string { return slices.Clone(homeAll) }

// homeAll are homePaths and their long tail.
var homeAll = slices.Concat(homePaths, tailHomePaths)

// UnderHome reports whether rel, a clean slash-separated path relative to
// the home directory, is one of the secret locations or below one.
// Case is ignored, as a file system that ignores it does (macOS, Windows).
func UnderHome(rel string) bool {
	if underHomePath(rel) || underHomeGlob(rel, false) {
		return true
	}
	// an editor's backup of a secret file (~/.gitconfig~, ~/.netrc.bak)
	dir, base := path.Split(rel)
	for _, orig := range backupOf(strings.ToLower(base)) {
		if underHomePath(dir + orig) {
			return true
		}
	}
	return false
}

func underHomePath(rel string) bool {
	for _, p := range homeAll {
		if len(rel) >= len(p) && strings.EqualFold(rel[:len(p)], p) && (len(rel) == len(p) || rel[len(p)] == '/') {
			return true
		}
	}
	return false
}
