package secrets

import (
	"net/url"
	"testing"
)

func TestEnv(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        bool
	}{
		{"OPENAI_API_KEY", "sk-x", true},
		{"ANTHROPIC_API_KEY", "x", true},
		{"GITHUB_TOKEN", "ghp_x", true},
		{"AWS_SECRET_ACCESS_KEY", "x", true},
		{"AWS_ACCESS_KEY_ID", "AKIA", true},
		{"DB_PASSWORD", "x", true},
		{"PGPASSWD", "x", true},
		{"GOOGLE_APPLICATION_CREDENTIALS", "/x.json", true},
		{"MYAPITOKEN", "x", true},
		{"DATABASE_URL", "postgres://app:hunter2@db/app", true},
		{"HTTPS_PROXY", "http://user:pw@proxy:3128", true},
		{"REDIS_URL", "redis://:pw@cache:6379", true},
		{"HTTPS_PROXY", "http://proxy:3128", false},
		{"DATABASE_URL", "postgres://db/app", false},
		{"HOME", "/root", false},
		{"PATH", "/usr/bin", false},
		{"SSH_AUTH_SOCK", "/tmp/agent", false},
		{"KEYTIMEOUT", "1", false},
		{"TERM", "xterm", false},
		{"PWD", "/x", false},
		{"OLDPWD", "/x", false},
		{"_PWD", "/x", false},
		{"PWD_DIR", "/x", false},
		{"MYSQL_PWD", "x", true},
		{"mysql_pwd", "x", true},
		{"DB_PWD", "x", true},
		{"GITHUB_PAT", "x", true},
		{"AZURE_DEVOPS_PAT", "x", true},
		{"PAT", "x", false},
		{"API_JWT", "x", true},
		{"JWT", "x", false},
		{"JWT_ALGORITHM", "HS256", false},
		{"WIFI_PSK", "x", true},
		{"GITLAB_OTP", "x", true},
		{"GPG_PASSPHRASE", "x", true},
		{"SERVICE_BEARER", "x", true},
		{"GIT_ASKPASS", "/usr/bin/x", false},
	} {
		if got := Env(c.name, c.value); got != c.want {
			t.Errorf("Env(%q, %q) = %v, want %v", c.name, c.value, got, c.want)
		}
	}
}

// URLWithCredentials reads user information as net/url does.
func TestURLWithCredentialsAgreesWithNetURL(t *testing.T) {
	for _, s := range []string{
		"postgres://app:hunter2@db/app", "https://tok@github.com/x", "https://github.com/x@y", "https://@host/",
		"http://proxy:3128", "redis://:pw@cache:6379", "ftp://a:b@c:d@host/", "https://host?x=a@b", "https://host#a@b",
		"mysql://u@h", "x://a@b", "no url", "https://h/p@q:r", "https://user%40x:p@h",
	} {
		want := false
		if u, err := url.Parse(s); err == nil && u.User != nil {
			_, hasPass := u.User.Password()
			want = hasPass || u.User.Username() != ""
		}
		// the rule is plainer than net/url's (the remote scrubber applies
		// it in awk): it may only call more URLs credentialed
		if want && !URLWithCredentials(s) {
			t.Errorf("URLWithCredentials(%q) = false, net/url finds user information", s)
		}
	}
}

func TestURLWithCredentials(t *testing.T) {
	for s, want := range map[string]bool{
		"https://u:p@h/x":           true,
		"https://tok@h":             true,
		"https://@h":                true,
		"x y://u@h":                 true,
		"https://h/x@y":             false,
		"https://h?u=a@b":           false,
		"https://h#a@b":             false,
		"mailto:a@b":                false,
		"://u@h":                    false,
		"postgres://a:b@db:5432/ap": true,
	} {
		if got := URLWithCredentials(s); got != want {
			t.Errorf("URLWithCredentials(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestEnvMayHoldSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"DATABASE_URL": true, "HTTPS_PROXY": true, "http_proxy": true, "ALL_PROXY": true, "MONGODB_URI": true,
		"SENTRY_DSN": true, "GITHUB_TOKEN": true, "NO_PROXY": false, "HOME": false, "PATH": false, "USER": false,
		"PWD": false, "SHELL": false, "EDITOR": false, "SSH_CONNECTION": false, "no_proxy": false, "DB_CONN": true,
	} {
		if got := EnvMayHoldSecret(name); got != want {
			t.Errorf("EnvMayHoldSecret(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestNameRulesDecideLikeEnvName(t *testing.T) {
	words, frags, except := NameRules()
	if len(words) == 0 || len(frags) == 0 || len(except) == 0 {
		t.Fatal("empty rules")
	}
	for _, n := range except {
		if EnvName(n) {
			t.Errorf("%s is an exception but EnvName says secret", n)
		}
	}
	for _, w := range words {
		if !EnvName("X_" + w) {
			t.Errorf("word %s does not make X_%s secret", w, w)
		}
	}
	for _, w := range LastWords() {
		if !EnvName("X_"+w) || EnvName(w) {
			t.Errorf("last word %s: X_%s must be secret and %s alone not", w, w, w)
		}
	}
	for _, p := range ProviderEnv() {
		if !EnvName(p) {
			t.Errorf("provider key %s not secret by name", p)
		}
	}
}
