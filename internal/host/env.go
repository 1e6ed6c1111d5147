package host

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/secrets"
)

// EnvPolicy says which of nb's environment variables reach the commands it
// runs. By default every variable that looks secret (secrets.Env: a name
// with KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL…, or a value that is a URL
// with credentials) is removed. Pass keeps variables that would be removed
// by that rule; Exclude removes variables that would be kept; Exclude wins
// over Pass. nb's own provider keys (secrets.ProviderEnv) and the variables
// named in Always are removed whatever Pass says.
//
// Patterns are globs over names, compared case-insensitively: letters,
// digits and "_", with "*" for any run of characters and "?" for one
// (ValidEnvGlob).
type EnvPolicy struct {
	Pass    []string
	Exclude []string
	// Always names further variables never passed (the key variables of
	// configured model providers).
	Always []string
}

var envGlob = regexp.MustCompile(`^[A-Za-z0-9_*?]+$`)

// ValidEnvGlob checks one Pass or Exclude pattern.
func ValidEnvGlob(p string) error {
	if !envGlob.MatchString(p) {
		return fmt.Errorf("bad variable pattern %q: use letters, digits, _, * and ?", p)
	}
	return nil
}

// globRegex turns a valid pattern into an anchored, upper-case regular
// expression that Go's regexp and POSIX awk read alike. An invalid
// pattern matches nothing.
func globRegex(p string) string {
	if ValidEnvGlob(p) != nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range strings.ToUpper(p) {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("$")
	return b.String()
}

// alternation joins the patterns' expressions into one, "" for none.
func alternation(patterns []string) string {
	var parts []string
	for _, p := range patterns {
		if re := globRegex(p); re != "" {
			parts = append(parts, re)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, "|") + ")"
}

// always is the set of names never passed, upper-case.
func (p EnvPolicy) always() []string {
	out := secrets.ProviderEnv()
	for _, n := range p.Always {
		out = append(out, strings.ToUpper(n))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Keep reports whether variable name with value reaches commands.
func (p EnvPolicy) Keep(name, value string) bool {
	return p.compile().keep(name, value)
}

// envMatcher is an EnvPolicy with its patterns compiled, for judging a
// whole environment.
type envMatcher struct {
	always        []string
	exclude, pass *regexp.Regexp
}

func (p EnvPolicy) compile() envMatcher {
	m := envMatcher{always: p.always()}
	if alt := alternation(p.Exclude); alt != "" {
		m.exclude = regexp.MustCompile(alt)
	}
	if alt := alternation(p.Pass); alt != "" {
		m.pass = regexp.MustCompile(alt)
	}
	return m
}

func (m envMatcher) keep(name, value string) bool {
	n := strings.ToUpper(name)
	switch {
	case slices.Contains(m.always, n):
		return false
	case m.exclude != nil && m.exclude.MatchString(n):
		return false
	case m.pass != nil && m.pass.MatchString(n):
		return true
	}
	return !secrets.Env(name, value)
}

// CommandEnv is the environment commands run with: environ (KEY=VALUE
// entries, os.Environ() when nil) without the variables p does not keep.
// Every host builds its commands' environment through it, and hosts whose
// shell starts elsewhere (ssh, containers) also run RemoteScrub there.
func CommandEnv(environ []string, p EnvPolicy) []string {
	if environ == nil {
		environ = os.Environ()
	}
	m := p.compile()
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if k == "" || m.keep(k, v) {
			// "" keeps Windows' per-drive "=C:=C:\x" entries.
			out = append(out, kv)
		}
	}
	return out
}

// RemoteScrub is POSIX shell code that unsets, in the shell it runs in,
// every exported variable p does not keep: the same decision as Keep,
// written in awk (which reads the whole environment through ENVIRON,
// values with newlines included). Where awk is missing it refuses to run
// the command rather than run it with the environment unscrubbed. The
// code holds no single quote, ends with "; " and can prefix a script.
func (p EnvPolicy) RemoteScrub() string {
	words, frags, except := secrets.NameRules()
	set := func(name string, items []string) string {
		return fmt.Sprintf(`n = split("%s", t, " "); for (i = 1; i <= n; i++) %s[t[i]] = 1; `, strings.Join(items, " "), name)
	}
	var b strings.Builder
	b.WriteString(`BEGIN { `)
	b.WriteString(set("word", words))
	b.WriteString(set("except", except))
	b.WriteString(set("always", p.always()))
	b.WriteString(set("last", secrets.LastWords()))
	b.WriteString(`nf = split("` + strings.Join(frags, " ") + `", frag, " "); `)
	b.WriteString(`for (k in ENVIRON) if (k ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && drop(k, ENVIRON[k])) print k } `)
	b.WriteString(`function drop(k, v,   K, n, i, p, r, j) { K = toupper(k); `)
	b.WriteString(`if (K in always) return 1; `)
	if alt := alternation(p.Exclude); alt != "" {
		b.WriteString(`if (K ~ /` + alt + `/) return 1; `)
	}
	if alt := alternation(p.Pass); alt != "" {
		b.WriteString(`if (K ~ /` + alt + `/) return 0; `)
	}
	b.WriteString(`if (!(K in except)) { n = split(K, p, "_"); for (i = 1; i <= n; i++) if (p[i] in word) return 1; `)
	b.WriteString(`if (n > 1 && p[n-1] != "" && (p[n] in last)) return 1; `)
	b.WriteString(`for (i = 1; i <= nf; i++) if (index(K, frag[i])) return 1 } `)
	b.WriteString(`i = index(v, "://"); if (i <= 1) return 0; r = substr(v, i + 3); j = match(r, /[\/?#]/); if (j) r = substr(r, 1, j - 1); `)
	b.WriteString(`return index(r, "@") > 0 }`)
	return `if command -v awk >/dev/null 2>&1; then unset $(awk '` + b.String() + `' </dev/null) 2>/dev/null; ` +
		`else echo "nb: awk is missing here, so secret environment variables cannot be removed; not running the command" >&2; exit 126; fi; `
}
