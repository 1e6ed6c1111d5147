package secrets

import "strings"

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
// holds a password or token (postgres://u:p@db, https://tok@host): the
// authority (after "://", up to the first "/", "?" or "#") has a
// non-empty part before its last "@". The package reads no URL library
// so that the pure policy may use it; a test holds it against net/url.
func URLWithCredentials(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	rest := s[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	at := strings.LastIndexByte(rest, '@')
	return at > 0
}

// urlWords are the last words of names of variables that usually hold a
// URL or address, which may carry a user and password
// (DATABASE_URL=postgres://u:p@db, HTTPS_PROXY=http://u:p@proxy).
var urlWords = map[string]bool{
	"URL": true, "URLS": true, "URI": true, "URIS": true, "DSN": true, "PROXY": true, "CONN": true,
	"CONNECTION": true, "CONNSTR": true, "ENDPOINT": true, "REMOTE": true,
}

// EnvMayHoldSecret reports whether an expansion of the variable named
// may print a secret when its value is not known: its name says it is
// one (EnvName), or names a URL or proxy, which often carries
// credentials.
func EnvMayHoldSecret(name string) bool {
	if EnvName(name) {
		return true
	}
	words := strings.Split(strings.ToUpper(name), "_")
	last := words[len(words)-1]
	if urlWords[last] && strings.ToUpper(name) != "NO_PROXY" {
		return true
	}
	return strings.HasSuffix(strings.ToUpper(name), "PROXY") && strings.ToUpper(name) != "NO_PROXY"
}
