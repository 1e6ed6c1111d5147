package redact

import (
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/nb-cli/nb/internal/regular"
)

// Known secrets: the values of the secret environment variables, found
// wherever they appear, and fingerprints (64-bit hashes) of the values on
// the token lines of the secret files, matched against every token of the
// text. Values too short or too plain to be told from ordinary words
// (true, 8080, /home/me) are not searched for.

// minValue is the length below which a value is not searched for.
const minValue = 8

// EnvValues returns, from environ (KEY=VALUE entries), the values of the
// variables secret reports as secret, each named "$NAME", and for a URL
// with credentials its password as well.
func EnvValues(environ []string, secret func(name, value string) bool) []Value {
	var out []Value
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || !secret(k, v) {
			continue
		}
		out = append(out, Value{Kind: "$" + k, Value: v})
		if u, err := url.Parse(strings.TrimSpace(v)); err == nil && u.User != nil {
			if pw, ok := u.User.Password(); ok {
				out = append(out, Value{Kind: "$" + k, Value: pw})
			}
		}
	}
	return out
}

// valueSet holds the values searched for, each also as it reads inside a
// JSON string.
type valueSet []Value

// usableValues keeps the values that can be told from ordinary text.
func usableValues(vs []Value) valueSet {
	var out valueSet
	seen := map[string]bool{}
	for _, v := range vs {
		if !secretLooking(v.Value) {
			continue
		}
		forms := []string{v.Value}
		if b, err := json.Marshal(v.Value); err == nil {
			if q := string(b[1 : len(b)-1]); q != v.Value {
				forms = append(forms, q)
			}
		}
		for _, f := range forms {
			if !seen[f] {
				seen[f] = true
				out = append(out, Value{Kind: v.Kind, Value: f})
			}
		}
	}
	return out
}

// secretLooking reports whether a value can be searched for without
// taking ordinary words for it: long enough, not a path, a number or one
// word of letters.
func secretLooking(v string) bool {
	v = strings.TrimSpace(v)
	if len(v) < minValue || strings.ContainsAny(v, "\n\r") && len(v) < 16 {
		return false
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "./") || len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/') {
		return false // a path
	}
	classes := 0
	for _, f := range []func(rune) bool{unicode.IsLower, unicode.IsUpper, unicode.IsDigit, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }} {
		if strings.IndexFunc(v, f) >= 0 {
			classes++
		}
	}
	return classes >= 2 || len(v) >= 16 && entropy(v) >= 3
}

func (vs valueSet) find(text string, spans []span) []span {
	for _, v := range vs {
		for off := 0; ; {
			i := strings.Index(text[off:], v.Value)
			if i < 0 {
				break
			}
			spans = append(spans, span{start: off + i, end: off + i + len(v.Value), kind: v.Kind})
			off += i + len(v.Value)
		}
	}
	return spans
}

// fingerprints are the hashes of the values of secret files' token lines,
// in lower case and reversed too, with the label of the file each came
// from: a token of a text equal to one is withheld. Values long and
// varied enough are searched for in all their spellings as well
// (knownset.go); fingerprints catch the short and plain ones as words.
type fingerprints struct {
	labels map[uint64]string
}

// Limits of the secret files read for fingerprints.
const (
	maxFileBytes  = 1 << 20
	maxTotalBytes = 16 << 20
	minToken      = 6
	// minAssigned is the least length of a value that ends an
	// assignment (password = abcd).
	minAssigned = 4
)

// fingerprintFiles reads the files and keeps the fingerprints of their
// token lines' values, adding the values that can be searched for to
// known.
func fingerprintFiles(files []File, known *knownSet) *fingerprints {
	fp := &fingerprints{labels: map[uint64]string{}}
	seen := map[string]bool{}
	total := 0
	for _, f := range files {
		if total >= maxTotalBytes {
			break
		}
		data, err := readHead(f.Path, maxFileBytes)
		if err != nil || strings.IndexByte(data, 0) >= 0 {
			continue // unreadable or binary (a keyring, a database)
		}
		total += len(data)
		for _, line := range strings.Split(data, "\n") {
			for _, v := range lineSecrets(line) {
				if seen[v] {
					continue
				}
				seen[v] = true
				fp.add(v, f.Label)
				if secretLooking(v) {
					known.add(v, f.Label)
				}
			}
		}
	}
	return fp
}

// add keeps the fingerprints of v: lower-cased, and reversed.
func (fp *fingerprints) add(v, label string) {
	for _, s := range []string{v, string(reversed([]byte(v)))} {
		if h := hashLower(s); fp.labels[h] == "" {
			fp.labels[h] = label
		}
	}
}

func readHead(p string, limit int64) (string, error) {
	f, err := regular.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	return string(b), err
}

// secretLabels are the words that make a line's values secrets: the line
// names a password, token, key or credential.
var secretLabels = []string{"pass", "pwd", "secret", "token", "key", "auth", "cred", "private", "bearer", "cookie", "session", "signature"}

// notValueSuffixes end the names of settings whose value is not the
// secret but names, locates or describes it.
var notValueSuffixes = []string{"id", "file", "path", "dir", "name", "type", "len", "length", "size", "helper", "cmd",
	"command", "url", "uri", "env", "store", "format", "algorithm", "alg"}

// lineSecrets returns the values of one line of a secret file worth a
// fingerprint: the value after a label such as password or token (the
// next token, of at least minToken bytes, that is not itself a label);
// anywhere, every token that looks random (a key's body, a bare token);
// a URL's password; a .pgpass line's password.
func lineSecrets(line string) []string {
	var out []string
	labelled := false
	for _, t := range tokens(line) {
		switch {
		case randomLooking(t):
			out = append(out, t)
			labelled = false
		case isLabel(t):
			labelled = true
		case labelled:
			if len(t) >= minToken && !placeholder(t, nil) && !plainWord(t) {
				out = append(out, t)
			}
			labelled = false
		}
	}
	for _, c := range urlCredentials(line) {
		if pw := line[c.start:c.end]; len(pw) >= minToken {
			out = append(out, pw)
		}
	}
	// .pgpass lines: host:port:database:user:password
	if f := strings.Split(line, ":"); len(f) == 5 && len(f[4]) >= minToken && !strings.ContainsAny(line, " \t=") {
		out = append(out, f[4])
	}
	return append(out, assignedValues(line)...)
}

// assignedValues returns the values assigned to labels on a line (NAME =
// VALUE, "name": "value", name: value), whole, whatever separators they
// hold (a base64 secret's / and +, a password's @ or :): of at least
// minToken bytes and not a plain word, or, when the value ends the
// assignment and the line, of at least minAssigned bytes.
func assignedValues(line string) []string {
	var out []string
	eachToken(line, func(start, end int) {
		if !isLabel(line[start:end]) {
			return
		}
		i := end
		for i < len(line) && (line[i] == '"' || line[i] == '\'') {
			i++ // the name's closing quote
		}
		i = skipBlanks(line, i)
		if i >= len(line) || line[i] != '=' && line[i] != ':' {
			return
		}
		i = skipBlanks(line, i+1)
		quote := byte(0)
		if i < len(line) && (line[i] == '"' || line[i] == '\'') {
			quote = line[i]
			i++
		}
		j := i
		if quote != 0 {
			k := strings.IndexByte(line[i:], quote)
			if k < 0 {
				return
			}
			j = i + k
		} else {
			for j < len(line) && !blank(line[j]) {
				j++
			}
		}
		v, rest := line[i:j], line[j:]
		if quote != 0 {
			rest = rest[1:]
		}
		ends := strings.Trim(rest, " \t\r,;)]}") == ""
		if keptValue(v, ends) {
			out = append(out, v)
		}
	})
	return out
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// notSecrets are values of settings named like secrets that are not
// secrets (always-auth = true).
var notSecrets = []string{"true", "false", "yes", "no", "on", "off", "null", "nil", "none", "auto", "default", "empty", "required", "optional", "prompt"}

// keptValue reports whether an assigned value is worth a fingerprint.
func keptValue(v string, ends bool) bool {
	if len(v) < minAssigned || placeholder(v, nil) || slices.Contains(notSecrets, strings.ToLower(v)) ||
		strings.Trim(v, "0123456789") == "" && len(v) < minValue {
		return false
	}
	return ends || len(v) >= minToken && !plainWord(v)
}

// plainWord reports a value that reads as a word (lower-case letters,
// shorter than 12): after a label in a log or a history it is prose
// ("password outside", "token expired"), and a password that is one
// short word is not told from the words around it.
func plainWord(t string) bool {
	if len(t) >= 12 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return false
		}
	}
	return true
}

// isLabel reports a token naming a secret (password, _authToken,
// aws_secret_access_key), not what names or points to one
// (aws_access_key_id, --passphrase-file, credential.helper, key_type).
func isLabel(t string) bool {
	lower := strings.ToLower(t)
	for _, suffix := range notValueSuffixes {
		if strings.HasSuffix(lower, suffix) && len(lower) > len(suffix) {
			return false
		}
	}
	for _, l := range secretLabels {
		if strings.Contains(lower, l) {
			return true
		}
	}
	return false
}

// randomLooking reports a token that looks generated: long, mixing
// lower case, upper case and digits, with high entropy (a commit hash or
// checksum, of hexadecimal digits, does not).
func randomLooking(t string) bool {
	if len(t) < 20 {
		return false
	}
	lower, upper, digit := false, false, false
	for _, c := range t {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	n := 0
	for _, b := range []bool{lower, upper, digit} {
		if b {
			n++
		}
	}
	return n == 3 && entropy(t) >= 4
}

// tokenSep reports the bytes that end a token: blanks, quotes, brackets
// and the separators of assignments, URLs and lists.
func tokenSep(c byte) bool { return sepTable[c] }

var sepTable = func() (t [256]bool) {
	for _, c := range []byte(" \t\n\r\"'`=:,;<>()[]{}|@/?&#\\") {
		t[c] = true
	}
	for c := range ' ' {
		t[c] = true
	}
	t[0x7f] = true
	return t
}()

// tokens splits text into tokens at tokenSep bytes; the two bytes of an
// escape such as \n of a JSON string end a token too.
func tokens(text string) []string {
	var out []string
	eachToken(text, func(start, end int) { out = append(out, text[start:end]) })
	return out
}

// eachToken calls f with the bounds of every token of text.
func eachToken(text string, f func(start, end int)) {
	start := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !tokenSep(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f(start, i)
			start = -1
		}
		if c == '\\' && i+1 < len(text) {
			switch text[i+1] {
			case 'n', 'r', 't', '"', '\\', '/', 'b', 'f':
				i++
			case 'u':
				i += min(5, len(text)-1-i)
			}
		}
	}
	if start >= 0 {
		f(start, len(text))
	}
}

// find adds every token of text whose fingerprint is known, and the same
// token with a final full stop, comma or similar trimmed.
func (fp *fingerprints) find(text string, spans []span) []span {
	if fp == nil || len(fp.labels) == 0 {
		return spans
	}
	eachToken(text, func(start, end int) {
		for end-start >= minToken {
			if label, ok := fp.labels[hashLower(text[start:end])]; ok {
				spans = append(spans, span{start: start, end: end, kind: label})
				return
			}
			if c := text[end-1]; c != '.' && c != '!' && c != '*' && c != '~' {
				return
			}
			end--
		}
	})
	return spans
}

// hashLower is the hash of s in lower case (ASCII), without an
// allocation: FNV-1a, 64 bits.
func hashLower(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(lowerTable[s[i]])
		h *= 1099511628211
	}
	return h
}
