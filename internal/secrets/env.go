package secrets

import (
	"slices"
	"strings"
)

// secretWords are the words of an environment variable's name (split at
// underscores, upper-cased) that mark its value as a secret.
var secretWords = map[string]bool{
	"KEY": true, "KEYS": true, "APIKEY": true, "TOKEN": true, "TOKENS": true, "SECRET": true,
	"SECRETS": true, "PASSWORD": true, "PASSWD": true, "PASS": true,
	"CREDENTIAL": true, "CREDENTIALS": true, "CREDS": true, "AUTH": true, "SESSION": false,
	"PRIVATE": true, "SIGNATURE": false, "COOKIE": true, "DSN": true, "PASSPHRASE": true, "PASSCODE": true,
}

// lastWords mark a name as secret when they end it after another word:
// MYSQL_PWD, GITHUB_PAT, API_JWT, WIFI_PSK. Alone, or before another
// word, they name something else (PWD is the working directory,
// JWT_ALGORITHM a setting).
var lastWords = []string{"PWD", "PAT", "JWT", "PSK", "OTP", "TOTP", "BEARER"}

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
// CREDENTIAL in it, or a last word such as PWD, PAT or JWT after another.
func EnvName(name string) bool {
	n := strings.ToUpper(name)
	if notSecret[n] {
		return false
	}
	ws := strings.Split(n, "_")
	for _, w := range ws {
		if secretWords[w] {
			return true
		}
	}
	if len(ws) > 1 && ws[len(ws)-2] != "" && slices.Contains(lastWords, ws[len(ws)-1]) {
		return true
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

// URLWithCredentials reports whether s holds a URL whose authority carries
// user information (postgres://u:p@db, https://tok@host): an "@" between
// the first "://" and the next "/", "?" or "#". The rule is plain on
// purpose: the remote environment scrubber (host.EnvPolicy) applies the
// same one in awk.
func URLWithCredentials(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	rest := s[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	return strings.Contains(rest, "@")
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
	upper := strings.ToUpper(name)
	if notURL[upper] {
		return false
	}
	words := strings.Split(upper, "_")
	return urlWords[words[len(words)-1]] || strings.HasSuffix(upper, "PROXY")
}

// notURL are well-known variables whose names end like a URL's but hold
// none (addresses and ports, host lists).
var notURL = map[string]bool{"NO_PROXY": true, "SSH_CONNECTION": true, "SSH_CLIENT": true}

// NameRules returns the data EnvName decides by, sorted: the words of a
// name (split at underscores) that mark a secret, the fragments that mark
// one anywhere in the name, and the names that are never secret. Hosts
// that scrub a remote environment in shell code build it from these and
// LastWords.
func NameRules() (words, fragments, exceptions []string) {
	for w, on := range secretWords {
		if on {
			words = append(words, w)
		}
	}
	for n, on := range notSecret {
		if on {
			exceptions = append(exceptions, n)
		}
	}
	slices.Sort(words)
	slices.Sort(exceptions)
	return words, slices.Clone(secretFragments), exceptions
}

// LastWords returns the words that mark a name as secret when they end it
// after another, non-empty word (MYSQL_PWD, not PWD or _PWD).
func LastWords() []string { return slices.Clone(lastWords) }

// providerEnv are the variables nb itself reads its model providers' keys
// from. Commands never see them, whatever the configuration passes.
var providerEnv = []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "AZURE_OPENAI_API_KEY"}

// ProviderEnv returns the names of the environment variables holding nb's
// own provider keys.
func ProviderEnv() []string { return slices.Clone(providerEnv) }
