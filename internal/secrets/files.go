package secrets

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// The secret-file list as data. A name on it marks a secret wherever it
// appears in a path; the home paths (secrets.go) are secret only below
// the home directory. Add a credential file here and the policy (reads,
// globs, recursive reads) and the sandbox's hidden list both learn it.

// names are file and directory names that hold credentials or history
// wherever they are.
var names = []string{
	// directories
	".ssh", ".aws", ".gnupg", ".kube", ".docker", ".password-store", ".azure", ".gcloud", ".vault-token",
	".terraform.d", ".pki", "keyrings",
	// credential and configuration files
	".netrc", ".git-credentials", ".pgpass", ".npmrc", ".pypirc", ".yarnrc.yml",
	"credentials", "shadow", "gshadow", "shadow-", "gshadow-", "environ", "opasswd", "sudoers",
	"btmp", // failed logins: passwords typed as user names
	"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".envrc", ".boto", ".s3cfg", ".dockercfg", ".Xauthority",
	"master.key", ".my.cnf", "secrets.yml", "secrets.yaml", "secrets.json", ".htpasswd", "debian.cnf",
	"wp-config.php", "rclone.conf", "kubeconfig", "auth.json", "service-account.json",
	"service_account.json", "application_default_credentials.json", "terraform.tfvars", ".tfvars",
	"terraform.tfstate", ".vault_pass", "vault.yml", "credentials.toml",
	".git-credential", "accessTokens.json", "access_tokens.db", "legacy_credentials",
	"password", "passwords", "password.txt", "passwords.txt", "passwords.csv", "passwords.json", ".passwords",
	// shells' and interpreters' histories
	".bash_history", ".zsh_history", ".sh_history", ".history", ".histfile", "fish_history",
	".python_history", ".node_repl_history", ".mysql_history", ".psql_history", ".sqlite_history",
	".rediscli_history", ".irb_history", ".pry_history", ".Rhistory", ".lesshst", ".viminfo",
	".mongoshrc.js", ".dbshell", ".scala_history", ".php_history", ".ts_node_repl_history",
}

// extensions mark files holding keys and certificates with their private
// parts, keystores and password databases.
var extensions = []string{".pem", ".key", ".p12", ".pfx", ".kdbx", ".keystore", ".jks", ".ppk", ".asc", ".gpg",
	".nmconnection", ".tfvars", ".tfstate", ".keytab", ".ovpn", ".age"}

// words mark a name as secret wherever they appear in it
// (github-token.txt, prod_credentials.json, my-secret.yaml).
var words = []string{"credential", "secret", "token", "apikey", "api_key", "private_key", "privatekey", "service-account", "service_account"}

// notSecretNames are names the words would catch that hold no secret
// (templates, the shell's own tokenizer sources).
var notSecretNames = map[string]bool{
	".env.example": true, ".env.sample": true, ".env.template": true, ".env.dist": true,
	"secrets.example.yml": true, "known_hosts": true,
}

// Names returns the names on the list (directories and files that hold
// secrets wherever they are).
func Names() []string { return append([]string(nil), names...) }

// nameSet holds the names lower-cased: a file system that ignores case
// (macOS, Windows, ext4 casefold directories) opens ~/.ssh as ~/.SSH, so
// a name is a secret in every case.
var nameSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
})

// Name reports whether one path segment names a secret: a name on the
// list, a .env file, a private key or keystore by its extension, or a
// name holding a word such as credential, secret or token.
func Name(seg string) bool {
	lower := strings.ToLower(seg)
	if seg == "" || notSecretNames[lower] {
		return false
	}
	if nameOnList(lower) {
		return true
	}
	// an editor's backup, swap or autosave copy of a secret is one
	for _, orig := range backupOf(lower) {
		if !notSecretNames[orig] && nameOnList(orig) {
			return true
		}
	}
	return false
}

// nameOnList reports whether a lower-case name is on the list, its long
// tail included.
func nameOnList(lower string) bool {
	if nameSet()[lower] || tailName(lower) {
		return true
	}
	if lower == ".env" || strings.HasPrefix(lower, ".env.") || strings.HasSuffix(lower, ".env") {
		return true
	}
	if strings.HasSuffix(lower, "_history") || strings.HasSuffix(lower, "_history.txt") {
		return true // a REPL's or shell's history (.node_repl_history, fish_history)
	}
	for _, w := range words {
		if strings.Contains(lower, w) {
			return true
		}
	}
	for _, pre := range []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"} {
		if strings.HasPrefix(lower, pre) {
			return true
		}
	}
	for _, e := range extensions {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}

// Samples are names a glob is tested against: a glob that can match one
// can name a secret (~/.*history, *.pem, .e*).
func Samples() []string {
	out := append([]string(nil), names...)
	for _, e := range extensions {
		out = append(out, "x"+e)
	}
	out = append(out, ".env", ".env.local", ".env.production", "prod.env", "id_rsa.old")
	for _, w := range words {
		out = append(out, w, "x"+w+".json", "x-"+w+".txt")
	}
	for _, p := range homeAll {
		out = append(out, path.Base(p))
	}
	return append(out, tailSamples()...)
}

// GlobReachesHome reports whether a glob written below the home
// directory (its segments after home, such as [".c*", "gh", "hosts.yml"])
// can name a secret home path or a file below one.
func GlobReachesHome(segs []string) bool {
	if underHomeGlob(strings.Join(segs, "/"), true) {
		return true
	}
	for _, hp := range homeAll {
		hs := strings.Split(hp, "/")
		if len(segs) < len(hs) {
			continue
		}
		ok := true
		for i, h := range hs {
			if m, err := path.Match(segs[i], h); err != nil || !m {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// ContentShape reports whether the start of a file's content has the
// shape of a secret whatever its name: a PEM private key, a Google Cloud
// service-account key, an AWS credentials file, a kubeconfig with user
// credentials.
func ContentShape(head []byte) bool {
	s := string(head)
	switch {
	case strings.Contains(s, "-----BEGIN") && strings.Contains(s, "PRIVATE KEY"):
		return true
	case strings.Contains(s, `"type"`) && strings.Contains(s, `"service_account"`) && strings.Contains(s, `"private_key`):
		return true
	case strings.Contains(s, "aws_secret_access_key"):
		return true
	case strings.Contains(s, "client-key-data:") || strings.Contains(s, "\n    token:") && strings.Contains(s, "kind: Config"):
		return true
	case strings.Contains(s, `"refresh_token"`) && strings.Contains(s, `"client_secret"`):
		return true
	case strings.Contains(s, "oauth_token:"), strings.Contains(s, "_authToken="), strings.Contains(s, `"auths"`) && strings.Contains(s, `"auth"`):
		return true // gh hosts.yml, .npmrc, docker config.json under any name
	case strings.Contains(s, "-----BEGIN OpenVPN Static key"):
		return true // an OpenVPN static (tls-auth) key: its PEM names no PRIVATE KEY
	case wireguardKey().MatchString(s):
		return true // a WireGuard configuration (wg0.conf) holds the interface's private key
	}
	return tokenShape().MatchString(s) || secretAssignment().MatchString(s)
}

// wireguardKey matches a WireGuard configuration's private or
// pre-shared key: 32 bytes in base64 (wg(8)).
var wireguardKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(PrivateKey|PresharedKey)[ \t]*=[ \t]*[A-Za-z0-9+/]{43}=`)
})

// secretAssignment matches a variable named like a secret assigned a
// literal value in a shell startup file, an env file under another name
// or a settings module (export GITHUB_TOKEN=ghp_…, SECRET_KEY = '…').
var secretAssignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(export[ \t]+)?[A-Za-z0-9_]*(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)[A-Za-z0-9_]*[ \t]*=[ \t]*['"]?[^\s'"$({]{8,}`)
})

// tokenShape matches access tokens whose form is unmistakable: GitHub
// (ghp_, gho_, github_pat_), Slack, AWS access key ids, OpenAI and
// Anthropic project keys, GitLab personal tokens, and the prefixed keys of
// the services listed in it.
var tokenShape = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{40,}|xox[baprs]-[A-Za-z0-9-]{20,}|AKIA[0-9A-Z]{16}|sk-(proj|ant-api03)-[A-Za-z0-9_-]{20,}|glpat-[A-Za-z0-9_-]{20}` +
		// age secret keys, Hugging Face, npm, PyPI, Stripe, Databricks,
		// DigitalOcean, Google API keys, Vault, Groq, Replicate, Slack apps
		`|AGE-SECRET-KEY-1[0-9A-Z]{50,}|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}` +
		`|[sr]k_(live|test)_[A-Za-z0-9]{20,}|dapi[0-9a-f]{32}|dop_v1_[0-9a-f]{64}|AIza[0-9A-Za-z_-]{35}|hvs\.[A-Za-z0-9_-]{24,}` +
		`|gsk_[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,}|xapp-[0-9]-[A-Za-z0-9-]{20,})\b`)
})

// codeExtensions are source and documentation files: a name such as
// token.go or secrets.md is about secrets, not one.
var codeExtensions = []string{".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".java", ".kt", ".kts",
	".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".rb", ".php", ".cs", ".swift", ".m", ".scala", ".sh", ".bash",
	".zsh", ".fish", ".ps1", ".md", ".rst", ".adoc", ".txtar", ".html", ".css", ".scss", ".vue", ".svelte",
	".lua", ".pl", ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".dart", ".r", ".jl", ".proto", ".graphql",
	".tf", ".snap", ".lock", ".sum", ".mod", ".golden", ".tmpl", ".j2", ".rego", ".sql", ".ipynb"}

// ValueFile reports whether a path in a repository names a file that
// probably holds secret values, for deciding whether the repository's
// history may show one: a directory on the list (.ssh, .aws…) on the
// way, or a base name on it (a name, a .env file, a key's extension, or
// a word such as token or secret in a data file — token.go and
// docs/secrets.md are code and documentation about secrets).
func ValueFile(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		if nameSet()[strings.ToLower(s)] {
			return true
		}
	}
	base := segs[len(segs)-1]
	if !Name(base) {
		return false
	}
	lower := strings.ToLower(base)
	if nameSet()[lower] || strings.HasPrefix(lower, ".env") || strings.HasSuffix(lower, ".env") {
		return true
	}
	for _, e := range codeExtensions {
		if strings.HasSuffix(lower, e) {
			return false
		}
	}
	return !strings.Contains(lower, "_test.") && !strings.Contains(lower, ".test.") && !strings.Contains(lower, ".spec.")
}

// PublicOnlyByContent reports extensions whose files are often public
// certificates, a secret only when their content holds a private key
// (ContentShape).
func PublicOnlyByContent(p string) bool {
	lower := strings.ToLower(p)
	for _, e := range []string{".pem", ".crt", ".cer", ".asc", ".gpg"} {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}
