package secrets

import (
	"path"
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
