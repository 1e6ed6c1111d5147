package redact

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// The red team's question: a command the policy wrongly allowed
// transforms a secret nb knows of (a secret variable's value, a token of
// a secret file) or one of a known shape, cheaply, with the programs any
// machine has; does any of it reach the model? Each probe runs the real
// programs twice, once on the canary and once on a dummy of the same
// length that differs in every letter and digit (and in both halves of
// every such byte), and compares the outputs: every byte of the output
// that depends on the secret must be withheld, but for the few an
// encoding shares between the secret and its neighbours.

// Canaries of the probes: made up, each a kind the detector learns
// differently.
const (
	// probeEnv is the value of a secret environment variable.
	probeEnv = "cnry-Env-7fQ2xLp9ZkW4vB8tR3mY"
	// probeAWS is the secret of an AWS credentials file, with the / and
	// + its alphabet holds.
	probeAWS = "Zq8/Lm3+Xv7Wk2Pn9Rt4Yb6Hc1Jd5Fg0SaEuTiOo"
	// probeShape is a token of a forge's shape in a file nb does not
	// know.
	probeShape = "ghp_R8vKq2Lx7Wm4Zt9Pb3Nc6Yh1Jd5Fs0GaEuTi"
)

// edgeSlack is how many secret-dependent bytes of an output may stay:
// the characters at either edge of an encoding that mix bits of the
// secret with bits of its neighbours (base64, base32).
const edgeSlack = 4

// dummyOf is a value of s's length differing from it in every letter and
// digit, in both halves of the byte, keeping the other characters.
func dummyOf(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !isAlnum(c) {
			continue
		}
		for k := 0; ; k++ {
			d := alnum[(17*i+k)%len(alnum)]
			if (c^d)&0xf0 != 0 && (c^d)&0x0f != 0 {
				b[i] = d
				break
			}
		}
	}
	return string(b)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// probeDetector knows probeEnv as $PROBE_TOKEN and the AWS credentials
// file dir/credentials holding probeAWS.
func probeDetector(t *testing.T, dir string) *Detector {
	creds := filepath.Join(dir, "credentials")
	if err := os.WriteFile(creds, []byte(awsFile(probeAWS)), 0o600); err != nil {
		t.Fatal(err)
	}
	return New(Options{
		Values: func() []Value { return []Value{{Kind: "$PROBE_TOKEN", Value: probeEnv}} },
		Files:  func() []File { return []File{{Path: creds, Label: "~/.aws/credentials"}} },
	})
}

func awsFile(secret string) string {
	return "[default]\naws_access_key_id = AKIAEXAMPLEEXAMPLE12\naws_secret_access_key = " + secret + "\nregion = eu-west-1\n"
}

// probeCase is one transformation: script reads the input from the file
// $IN (printf's %s of the input) and prints what the model would get.
type probeCase struct {
	name   string
	tools  []string
	script string
}

// transformations are the cheap ways a command can rewrite a value.
var transformations = []probeCase{
	{"cat", nil, `cat "$IN"`},
	{"base64", []string{"base64"}, `base64 "$IN"`},
	{"base64 -w0", []string{"base64"}, `base64 -w0 "$IN"`},
	{"base64 -w 76, offset 1", []string{"base64"}, `{ printf x; cat "$IN"; } | base64 -w 76`},
	{"base64, offset 2", []string{"base64"}, `{ printf xy; cat "$IN"; } | base64`},
	{"base64 without padding", []string{"base64"}, `base64 -w0 "$IN" | tr -d =`},
	{"base64 url-safe", []string{"basenc"}, `basenc --base64url "$IN"`},
	{"base32", []string{"base32"}, `base32 "$IN"`},
	{"base32, offset 3", []string{"base32"}, `{ printf xyz; cat "$IN"; } | base32 -w0`},
	{"base32hex", []string{"basenc"}, `basenc --base32hex "$IN"`},
	{"xxd", []string{"xxd"}, `xxd "$IN"`},
	{"xxd -p", []string{"xxd"}, `xxd -p "$IN"`},
	{"xxd -u -g1", []string{"xxd"}, `xxd -u -g1 "$IN"`},
	{"xxd -c4", []string{"xxd"}, `xxd -c4 "$IN"`},
	{"xxd -i", []string{"xxd"}, `xxd -i < "$IN"`},
	{"od -c", []string{"od"}, `od -c "$IN"`},
	{"od -c -w4", []string{"od"}, `od -c -w4 "$IN"`},
	{"od -x", []string{"od"}, `od -x "$IN"`},
	{"od -x, offset 1", []string{"od"}, `{ printf x; cat "$IN"; } | od -x`},
	{"od -t x1z", []string{"od"}, `od -A x -t x1z "$IN"`},
	{"od -b", []string{"od"}, `od -b "$IN"`},
	{"od -An -tx1, joined", []string{"od"}, `od -An -tx1 "$IN" | tr -d ' \n'`},
	{"hexdump", []string{"hexdump"}, `hexdump "$IN"`},
	{"hexdump -C", []string{"hexdump"}, `hexdump -C "$IN"`},
	{"hex with colons", []string{"hexdump"}, `hexdump -v -e '/1 "%02X:"' "$IN"`},
	{"\\x escapes", []string{"xxd"}, `xxd -p -c1 "$IN" | sed 's/^/\\x/' | tr -d '\n'`},
	{"percent-encoding", []string{"jq"}, `jq -rR @uri < "$IN"`},
	{"percent-encoding of every byte", []string{"xxd"}, `xxd -p -c1 "$IN" | sed 's/^/%/' | tr -d '\n'`},
	{"JSON string", []string{"jq"}, `jq -Rs . < "$IN"`},
	{"shell quoting", nil, `printf '%q\n' "$(cat "$IN")"`},
	{"backslash before every character", []string{"sed"}, `sed 's/./\\&/g' "$IN"`},
	{"quoted-printable", []string{"python3"}, `python3 -c 'import quopri,sys; sys.stdout.buffer.write(quopri.encodestring(open(sys.argv[1],"rb").read()))' "$IN"`},
	{"rev", []string{"rev"}, `rev "$IN"`},
	{"upper case", []string{"tr"}, `tr a-z A-Z < "$IN"`},
	{"lower case", []string{"tr"}, `tr A-Z a-z < "$IN"`},
	{"rot13", []string{"tr"}, `tr a-zA-Z n-za-mN-ZA-M < "$IN"`},
	{"fold -w3", []string{"fold"}, `fold -w3 "$IN"`},
	{"a space after every character", []string{"sed"}, `sed 's/./& /g' "$IN"`},
	{"one character a line", []string{"grep"}, `grep -o . "$IN"`},
	{"UTF-16", []string{"iconv"}, `iconv -f UTF-8 -t UTF-16LE "$IN"`},
	{"every character doubled", []string{"sed"}, `sed 's/./&&/g' "$IN"`},
	{"a letter after every character", []string{"sed"}, `sed 's/./&q/g' "$IN"`},
	{"two characters before every character", []string{"sed"}, `sed 's/./Z9&/g' "$IN"`},
	{"another rotation of the alphabet", []string{"tr"}, `tr a-zA-Z d-za-cD-ZA-C < "$IN"`},
	{"xxd -b", []string{"xxd"}, `xxd -b "$IN"`},
	{"decimal codes", []string{"od"}, `od -An -tu1 "$IN"`},
	{"HTML entities", []string{"perl"}, `perl -pe 's/(.)/sprintf("&#%d;",ord($1))/ge' "$IN"`},
	{"HTML hex entities", []string{"perl"}, `perl -pe 's/(.)/sprintf("&#x%x;",ord($1))/ge' "$IN"`},
	{"fold -w5 | cat -n", []string{"fold", "cat"}, `fold -w5 "$IN" | cat -n`},
	{"fold -w4 | grep -n", []string{"fold", "grep"}, `fold -w4 "$IN" | grep -n .`},
}

// runProbe runs script on input and returns its output.
func runProbe(t *testing.T, script, input string) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.Tool(t, "bash"), "-c", script)
	cmd.Env = append(os.Environ(), "IN="+in, "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return string(out)
}

// withheldMask reports which bytes of text res withheld, from its markers
// and values in order.
func withheldMask(t *testing.T, text string, res Result) []bool {
	t.Helper()
	mask := make([]bool, len(text))
	rest, at := res.Text, 0
	for _, f := range res.Found {
		m := Marker(f.Kind)
		i := strings.Index(rest, m)
		if i < 0 {
			t.Fatalf("marker %s missing from %q", m, res.Text)
		}
		at += i
		for k := at; k < at+len(f.Value) && k < len(mask); k++ {
			mask[k] = true
		}
		at += len(f.Value)
		rest = rest[i+len(m):]
	}
	return mask
}

// leaked returns the bytes of out (the output on the secret) that differ
// from dummy (the output on the dummy) and were not withheld.
func leaked(t *testing.T, out, dummy string, res Result) (n int, shown string) {
	t.Helper()
	mask := withheldMask(t, out, res)
	depends := dependent(out, dummy)
	var b strings.Builder
	for i := range out {
		if depends[i] && !mask[i] {
			n++
			b.WriteByte(out[i])
		}
	}
	return n, b.String()
}

// dependent reports which bytes of out depend on the secret: those that
// differ from dummy's; where the lengths differ (codes of varying width,
// compressed data), every byte but blanks of the lines that differ, or of
// all lines when their number differs too.
func dependent(out, dummy string) []bool {
	d := make([]bool, len(out))
	if len(out) == len(dummy) {
		for i := range out {
			d[i] = out[i] != dummy[i]
		}
		return d
	}
	lo, ld := strings.SplitAfter(out, "\n"), strings.SplitAfter(dummy, "\n")
	at := 0
	for i, l := range lo {
		if len(lo) != len(ld) || l != ld[i] {
			for k := range len(l) {
				d[at+k] = !blank(l[k])
			}
		}
		at += len(l)
	}
	return d
}

// probe runs one transformation of a secret placed in input and reports
// what reached the model.
func probe(t *testing.T, d *Detector, c probeCase, input, secret string) {
	t.Helper()
	for _, tool := range c.tools {
		testenv.Tool(t, tool)
	}
	out := runProbe(t, c.script, input)
	dummy := runProbe(t, c.script, strings.ReplaceAll(input, secret, dummyOf(secret)))
	res := d.Redact(out, nil)
	n, shown := leaked(t, out, dummy, res)
	if n > 0 {
		t.Logf("%d edge bytes stay: %q", n, shown)
	}
	if n > edgeSlack {
		t.Errorf("%d bytes of the secret reached the model: %q\noutput: %q\nsent:   %q", n, shown, out, res.Text)
	}
}

// TestProbeKnownValue: a secret variable's value, transformed.
func TestProbeKnownValue(t *testing.T) {
	d := probeDetector(t, t.TempDir())
	for _, c := range transformations {
		t.Run(c.name, func(t *testing.T) {
			probe(t, d, c, "deploying with "+probeEnv+" now\n", probeEnv)
		})
	}
}

// TestProbeSecretFile: a secret file read whole, transformed.
func TestProbeSecretFile(t *testing.T) {
	d := probeDetector(t, t.TempDir())
	for _, c := range transformations {
		t.Run(c.name, func(t *testing.T) {
			probe(t, d, c, awsFile(probeAWS), probeAWS)
		})
	}
}

// TestProbeShape: a token of a known shape in a file nb does not know,
// encoded; the encodings that can be decoded are.
func TestProbeShape(t *testing.T) {
	d := probeDetector(t, t.TempDir())
	for _, c := range []probeCase{
		{"cat", nil, `cat "$IN"`},
		{"base64", []string{"base64"}, `base64 "$IN"`},
		{"base64 -w0, offset 1", []string{"base64"}, `{ printf x; cat "$IN"; } | base64 -w0`},
		{"gzip | base64", []string{"gzip", "base64"}, `gzip -nc "$IN" | base64`},
		{"xxd -p", []string{"xxd"}, `xxd -p "$IN"`},
		{"xxd", []string{"xxd"}, `xxd "$IN"`},
		{"hexdump -C", []string{"hexdump"}, `hexdump -C "$IN"`},
		{"percent-encoding of every byte", []string{"xxd"}, `xxd -p -c1 "$IN" | sed 's/^/%/' | tr -d '\n'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			probe(t, d, c, "[github]\n\ttoken = "+probeShape+"\n", probeShape)
		})
	}
}

// TestDummyOf: the dummy differs from the canary in both halves of every
// letter and digit.
func TestDummyOf(t *testing.T) {
	for _, s := range []string{probeEnv, probeAWS, probeShape} {
		d := dummyOf(s)
		for i := range s {
			if isAlnum(s[i]) && ((s[i]^d[i])&0xf0 == 0 || (s[i]^d[i])&0x0f == 0) {
				t.Errorf("%s: byte %d: %q and %q", s, i, s[i], d[i])
			}
			if !isAlnum(s[i]) && s[i] != d[i] {
				t.Errorf("%s: byte %d changed", s, i)
			}
		}
	}
}

// TestProbeCut: a token of a known shape cut by run_cmd's limits (a line
// cut by its byte limit, the head cut before the lines left out) or by
// the end of a terminal read loses its shape; what is left of it is
// withheld all the same. The outputs are shaped by package sandwich, as
// run_cmd shapes them.
func TestProbeCut(t *testing.T) {
	d := New(Options{})
	cases := map[string]string{
		"a long line cut":   sandwiched(strings.Repeat(" ", 2030) + probeShape + " rest" + strings.Repeat("\nfiller", 5000) + "\n"),
		"the end of a read": "Output:\n" + strings.Repeat("building...\n", 8) + "got " + probeShape[:20],
	}
	// the head's budget ends in the token's line
	for n := 0; n < 200 && cases["the head's budget"] == ""; n++ {
		out := sandwiched(strings.Repeat(strings.Repeat("y", 139)+"\n", 49) + strings.Repeat("z", 10*n) + " " + probeShape + strings.Repeat("\nfiller", 5000) + "\n")
		if strings.Contains(out, probeShape[:12]) && !strings.Contains(out, probeShape) {
			cases["the head's budget"] = out
		}
	}
	if len(cases) != 3 {
		t.Fatalf("no output cut by the head's budget in the token")
	}
	for name, text := range cases {
		keep := 0
		for k := 8; k <= len(probeShape); k++ {
			if strings.Contains(text, probeShape[:k]) {
				keep = k
			}
		}
		if keep == 0 || keep == len(probeShape) {
			t.Fatalf("%s: the token is not cut in %q", name, text)
		}
		res := d.Redact(text, nil)
		if strings.Contains(res.Text, probeShape[4:min(keep, 12)]) {
			t.Errorf("%s: %d characters of the token were cut, and reached the model: %q", name, keep, res.Text)
		}
	}
}

// TestProbeANSI: terminal escape sequences put between the characters
// of a secret (a file a command wrote with them, read back as it is)
// hide neither a known secret nor a shape.
func TestProbeANSI(t *testing.T) {
	d := probeDetector(t, t.TempDir())
	colour := func(s string) string {
		var b strings.Builder
		for i, c := range s {
			b.WriteRune(c)
			if i%2 == 0 {
				b.WriteString("\x1b[0m")
			} else {
				b.WriteString("\x1b[38;5;12m\x1b]0;title\x07")
			}
		}
		return b.String()
	}
	for _, secret := range []string{probeEnv, probeShape} {
		text := "value: " + colour(secret) + "\n"
		res := d.Redact(text, nil)
		if len(res.Found) == 0 || strings.Contains(res.Text, colour(secret[len(secret)-8:])) {
			t.Errorf("%s: %q", secret, res.Text)
		}
	}
}
