package secrets

import (
	"net/url"
	"strings"
)

// secretWords are the words of an environment variable's name (split at
// underscores, upper-cased) that mark its value as a secret.
var secretWords = map[string]bool{
	"KEY": true, "KEYS": true, "APIKEY": true, "TOKEN": true, "TOKENS": true, "SECRET": true,
	"SECRETS": true, "PASSWORD": true, "PASSWD": true, "PASS": true, "PWD": false,
	"CREDENTIAL": true, "CREDENTIALS": true, "CREDS": true, "AUTH": true, "SESSION": false,
	"PRIVATE": true, "SIGNATURE": false, "COOKIE": true, "DSN": true,
}

// secretFragments mark a name as secret wherever they appear in it
// (GITHUB_PAT has no separator before the word that matters in
// MYAPITOKEN).
var secretFragments = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY", "API_KEY", "PRIVATE_KEY", "ACCESS_KEY"}

// notSecret are names that look secret by their words but are well-known
// settings holding none.
var notSecret = map[string]bool{
	"SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "KEYTIMEOUT": true, "XAUTHORITY": false,
	"GIT_ASKPASS": true, "SSH_ASKPASS": true, "SUDO_ASKPASS": true, "PASSWORD_STORE_DIR": true,
}

// EnvName reports whether an environment variable's name says its value
// is a secret: a word such as KEY, TOKEN, SECRET, PASSWORD, PASSWD or
// CREDENTIAL in it.
func EnvName(name string) bool {
	n := strings.ToUpper(name)
	if notSecret[n] {
		return false
	}
	for _, w := range strings.Split(n, "_") {
		if secretWords[w] {
			return true
		}
	}
	for _, f := range secretFragments {
		if strings.Contains(n, f) {
			return true
		}
	}
	return false
}

// Env reports whether an environment variable holds a secret: its name
// says so (EnvName), or its value is a URL carrying credentials
// (https://user:pass@host, as *_URL and *_PROXY variables often do).
func Env(name, value string) bool {
	return EnvName(name) || URLWithCredentials(value)
}

// URLWithCredentials reports whether s is a URL whose user information
// holds a password or token (postgres://u:p@db, https://tok@host).
func URLWithCredentials(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		// An unparsable URL with an @ before its path may still carry a password.
		rest := s[i+3:]
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[:j]
		}
		return strings.Contains(rest, "@")
	}
	if u.User == nil {
		return false
	}
	_, hasPass := u.User.Password()
	return hasPass || u.User.Username() != ""
}
