package redact

import (
	"slices"
	"strings"
)

// Shapes the rule set does not cover: credentials in URLs
// (scheme://user:password@host, the rule secrets.URLWithCredentials
// applies to environment values), .netrc entries, and the halves of a
// private key block that a cut (the head and tail nb keeps of long
// output) left without their other end.

// urlCredentials returns the spans of the passwords of the URLs in text
// that carry one, and of user parts that look like tokens
// (https://ghp_…@github.com).
func urlCredentials(text string) []span {
	var at []int
	for off := 0; ; {
		i := strings.Index(text[off:], "://")
		if i < 0 {
			break
		}
		at = append(at, off+i)
		off += i + 3
	}
	return urlCredentialsAt(text, at)
}

// urlCredentialsAt is urlCredentials for the URLs whose "://" is at the
// positions at.
func urlCredentialsAt(text string, at []int) []span {
	var out []span
	for _, i := range at {
		if !schemeBefore(text, i) {
			continue
		}
		auth := i + 3
		end := auth
		for end < len(text) && !authorityEnd(text[end]) {
			end++
		}
		at := strings.LastIndexByte(text[auth:end], '@')
		if at < 0 {
			continue
		}
		user := text[auth : auth+at]
		if c := strings.IndexByte(user, ':'); c >= 0 {
			if c+1 < len(user) {
				out = append(out, span{start: auth + c + 1, end: auth + at, kind: "url-credentials"})
			}
		} else if randomLooking(user) {
			out = append(out, span{start: auth, end: auth + at, kind: "url-credentials"})
		}
	}
	return out
}

// schemeBefore reports whether a URL scheme (a letter, then letters,
// digits, +, - or .) ends at position i.
func schemeBefore(text string, i int) bool {
	j := i
	for j > 0 {
		c := text[j-1]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' {
			j--
			continue
		}
		break
	}
	if j == i {
		return false
	}
	c := text[j]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// authorityEnd reports a byte that ends a URL's authority, or the URL.
func authorityEnd(c byte) bool {
	switch c {
	case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '\\', '(', ')', '[', ']', '{', '}', ',', ';':
		return true
	}
	return c < ' '
}

func findURLCredentials(text string, at []int, rs *ruleSet, spans []span) []span {
	for _, s := range urlCredentialsAt(text, at) {
		if !placeholder(text[s.start:s.end], rs) {
			spans = append(spans, s)
		}
	}
	return spans
}

// findNetrc finds the passwords of .netrc entries at the positions of
// the words password and passwd: "password VALUE" after "login" in an
// entry that "machine HOST" or "default" begins, on its line or one of
// the two before.
func findNetrc(text string, at []int, rs *ruleSet, spans []span) []span {
	lower := ""
	for _, i := range at {
		n := len("password")
		if !hasPrefixFold(text[i:], "password") {
			n = len("passwd")
		}
		off := i + n
		if i > 0 && !blank(text[i-1]) || off >= len(text) || !blank(text[off]) {
			continue
		}
		vs := off
		for vs < len(text) && (text[vs] == ' ' || text[vs] == '\t') {
			vs++
		}
		ve := vs
		for ve < len(text) && !tokenEnd(text[ve]) {
			ve++
		}
		if ve == vs || placeholder(text[vs:ve], rs) {
			continue
		}
		if lower == "" {
			lower = strings.ToLower(text)
		}
		if netrcEntry(lower, i) {
			spans = append(spans, span{start: vs, end: ve, kind: "netrc-password"})
		}
	}
	return spans
}

// netrcEntry reports whether the password at i belongs to a .netrc
// entry: in its line and the two before it, "login" and a value before
// it, and before that "default", or "machine" and a host name.
func netrcEntry(lower string, i int) bool {
	before := escapes.Replace(lower[max(0, i-512):i])
	if lines := strings.Split(before, "\n"); len(lines) > 3 {
		before = strings.Join(lines[len(lines)-3:], "\n")
	}
	ws := strings.Fields(before)
	login := slices.Index(ws, "login")
	if login < 0 || login+1 >= len(ws) {
		return false
	}
	for j := login - 1; j >= 0; j-- {
		switch ws[j] {
		case "default":
			return true
		case "machine":
			return j+1 < login && hostLike(ws[j+1])
		}
	}
	return false
}

// escapes turns the line and tab escapes of a JSON string into the
// characters they stand for.
var escapes = strings.NewReplacer(`\n`, "\n", `\r`, "\n", `\t`, " ")

// hostLike reports a word that may be a host name: it holds a dot or a
// colon, or is localhost.
func hostLike(w string) bool {
	return strings.ContainsAny(w, ".:") || w == "localhost"
}

func blank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// tokenEnd reports a byte that ends a .netrc value.
func tokenEnd(c byte) bool {
	return blank(c) || c == '"' || c == '\'' || c == '\\' || c < ' '
}

// findPrivateKeyParts withholds what is left of a private key block whose
// other end is missing from the text: the base64 lines after a BEGIN …
// PRIVATE KEY line, and before an END … PRIVATE KEY line. Whole blocks
// are the rule set's.
func findPrivateKeyParts(text string, at []int, spans []span) []span {
	for _, i := range at {
		// a key's armour line is short: a long line is looked at only
		// around the keyword (each keyword of it would read it whole)
		line := lineWithin(text, i, i-armourLine, i+armourLine)
		if !strings.Contains(strings.ToLower(text[line.start:line.end]), "private key") {
			continue
		}
		if hasPrefixFold(text[i:], "-----begin") {
			spans = append(spans, span{start: line.start, end: base64After(text, line.end), kind: "private-key"})
		} else {
			spans = append(spans, span{start: base64Before(text, line.start), end: line.end, kind: "private-key"})
		}
	}
	return spans
}

// armourLine bounds the part of a BEGIN or END line read around its
// keyword.
const armourLine = 256

// base64After is the end of the run of base64 lines (and key headers such
// as Proc-Type) after position i, the end of a line.
func base64After(text string, i int) int {
	end := i
	for {
		s := skipBreak(text, end)
		if s >= len(text) {
			return end
		}
		w := lineAround(text, s)
		if w.end == w.start || !keyLine(text[w.start:w.end]) {
			return end
		}
		end = w.end
	}
}

// base64Before is the start of the run of base64 lines before position
// i, the start of a line.
func base64Before(text string, i int) int {
	start := i
	for start > 0 {
		e := start
		switch {
		case e >= 2 && text[e-2] == '\\' && (text[e-1] == 'n' || text[e-1] == 'r'):
			e -= 2
		case text[e-1] == '\n' || text[e-1] == '\r':
			e--
		default:
			return start
		}
		if e == 0 {
			return start
		}
		w := lineAround(text, e-1)
		if w.end == w.start || !keyLine(text[w.start:w.end]) {
			return start
		}
		start = w.start
	}
	return start
}

// skipBreak skips the line break (or JSON \n escape) at i.
func skipBreak(text string, i int) int {
	switch {
	case i+1 < len(text) && text[i] == '\\' && (text[i+1] == 'n' || text[i+1] == 'r'):
		return i + 2
	case i < len(text) && (text[i] == '\n' || text[i] == '\r'):
		return i + 1
	}
	return i
}

// keyLine reports a line of a key block's body: base64 (or a header
// line such as "Proc-Type: 4,ENCRYPTED").
func keyLine(l string) bool {
	l = strings.TrimSpace(l)
	if l == "" || strings.Contains(l, ": ") {
		return l != ""
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}
