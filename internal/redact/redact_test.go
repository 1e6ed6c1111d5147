package redact

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// canary returns a made-up secret: prefix, then n characters drawn from
// alphabet by a generator seeded with seed, so that tests hold no real
// key and every run the same one.
func canary(prefix, alphabet string, n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	b := []byte(prefix)
	for range n {
		b = append(b, alphabet[r.IntN(len(alphabet))])
	}
	return string(b)
}

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper2 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64    = alnum + "+/"
)

// pemKey is a made-up private key block of lines of 64 base64
// characters.
func pemKey(seed uint64) string {
	var b strings.Builder
	b.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for i := range 12 {
		b.WriteString(canary("", b64, 64, seed+uint64(i)))
		b.WriteString("\n")
	}
	b.WriteString("-----END RSA PRIVATE KEY-----\n")
	return b.String()
}

// jwt is a made-up JSON Web Token.
func jwt(seed uint64) string {
	return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + canary("", alnum, 40, seed) + "." + canary("", alnum+"_-", 43, seed+1)
}

// shapes are secrets of the rule set's shapes and nb's own, each with the
// kind it must be withheld as.
func shapes() []struct{ text, secret, kind string } {
	gh := canary("ghp_", alnum, 36, 1)
	aws := canary("AKIA", upper2, 16, 2)
	slack := "xoxb-" + canary("", "0123456789", 12, 3) + "-" + canary("", "0123456789", 13, 4) + "-" + canary("", alnum, 24, 5)
	stripe := canary("sk_live_", alnum, 32, 6)
	tok := jwt(7)
	pw := canary("", alnum, 14, 8)
	return []struct{ text, secret, kind string }{
		{"export GITHUB_TOKEN=" + gh + "\n", gh, "github-pat"},
		{"aws_access_key_id = " + aws + "\n", aws, "aws-access-token"},
		{"SLACK=" + slack + "\n", slack, "slack-bot-token"},
		{"stripe: " + stripe + "\n", stripe, "stripe-access-token"},
		{"Authorization: Bearer " + tok + "\n", tok, "jwt"},
		{"DATABASE_URL=postgres://app:" + pw + "@db.internal:5432/app\n", pw, "url-credentials"},
		{"machine api.example.com login bob password " + pw + "x\n", pw + "x", "netrc-password"},
		{"machine api.example.com\n  login bob\n  password " + pw + "y\n", pw + "y", "netrc-password"},
	}
}

func TestShapes(t *testing.T) {
	d := New(Options{})
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	for _, c := range shapes() {
		res := d.Redact("before\n"+c.text+"after\n", nil)
		if strings.Contains(res.Text, c.secret) {
			t.Errorf("%s: not withheld: %q", c.kind, res.Text)
			continue
		}
		if !strings.Contains(res.Text, Marker(c.kind)) {
			t.Errorf("%s: marker missing: %q (found %v)", c.kind, res.Text, res.Counts())
		}
		if !strings.HasPrefix(res.Text, "before\n") || !strings.HasSuffix(res.Text, "after\n") {
			t.Errorf("%s: text around the secret changed: %q", c.kind, res.Text)
		}
		ok := false
		for _, f := range res.Found {
			ok = ok || strings.Contains(f.Value, c.secret)
		}
		if !ok {
			t.Errorf("%s: Found does not hold the value: %+v", c.kind, res.Found)
		}
	}
}

func TestPrivateKeys(t *testing.T) {
	d := New(Options{})
	key := pemKey(10)
	lines := strings.Split(strings.TrimSuffix(key, "\n"), "\n")
	head := strings.Join(lines[:6], "\n") + "\n[... 40 lines omitted (2.3 KB total) - use grep/tail/head to filter ...]\nlater output\n"
	tail := "earlier output\n[... 40 lines omitted ...]\n" + strings.Join(lines[7:], "\n") + "\n"
	for name, text := range map[string]string{"whole": "key:\n" + key + "done\n", "head only": head, "tail only": tail} {
		res := d.Redact(text, nil)
		for _, l := range lines[1 : len(lines)-1] {
			if strings.Contains(res.Text, l[:32]) {
				t.Errorf("%s: a line of the key body was kept: %q", name, res.Text)
				break
			}
		}
		if !strings.Contains(res.Text, Marker("private-key")) {
			t.Errorf("%s: no marker: %q", name, res.Text)
		}
	}
	if res := d.Redact(head, nil); !strings.Contains(res.Text, "later output") {
		t.Errorf("the lines after a cut key were withheld too: %q", res.Text)
	}
}

// TestJSONDocument: a tool result is JSON whose output is one string; a
// secret in it is withheld and the document stays valid.
func TestJSONDocument(t *testing.T) {
	d := New(Options{})
	var out strings.Builder
	for _, c := range shapes() {
		out.WriteString(c.text)
	}
	out.WriteString(pemKey(20))
	out.WriteString("quote \" backslash \\ tab \t unicode é\n")
	doc, err := json.Marshal(map[string]any{"stdout": out.String(), "stderr": "", "exitCode": 0})
	if err != nil {
		t.Fatal(err)
	}
	res := d.Redact(string(doc), nil)
	var back map[string]any
	if err := json.Unmarshal([]byte(res.Text), &back); err != nil {
		t.Fatalf("withholding broke the JSON document: %v\n%s", err, res.Text)
	}
	stdout := back["stdout"].(string)
	for _, c := range shapes() {
		if strings.Contains(stdout, c.secret) {
			t.Errorf("%s: kept in the JSON document", c.kind)
		}
	}
	if strings.Contains(stdout, "-----BEGIN RSA PRIVATE KEY-----\n"+pemKey(20)[32:60]) || !strings.Contains(stdout, "quote \" backslash \\ tab") {
		t.Errorf("document after withholding: %q", stdout)
	}
}

// TestEscapeSafe: a marker never cuts a JSON escape, whatever the bounds
// of the finding.
func TestEscapeSafe(t *testing.T) {
	doc := `{"s":"a\"b\\c\u00e9d\ne"}`
	for start := 6; start < len(doc)-2; start++ {
		for end := start + 1; end <= len(doc)-2; end++ {
			res := apply(doc, []span{{start: start, end: end, kind: "k"}}, nil)
			var v map[string]string
			if err := json.Unmarshal([]byte(res.Text), &v); err != nil {
				t.Fatalf("[%d,%d): %v: %s", start, end, err, res.Text)
			}
		}
	}
}

// TestKnownValues: the values of secret environment variables are
// withheld wherever they appear, plainly or inside a JSON string; short
// and plain values are not searched for.
func TestKnownValues(t *testing.T) {
	secret := "zq9-Value-" + canary("", alnum, 6, 30)
	quoted := `pa"ss\word-` + canary("", alnum, 4, 31)
	vals := EnvValues([]string{"MY_TOKEN=" + secret, "Q_SECRET=" + quoted, "SHORT_KEY=abc", "WORD_PASSWORD=password",
		"PATH_TOKEN=/home/me/bin", "HOME=/root", "DB_URL=postgres://u:" + canary("", alnum, 10, 32) + "@h/db"},
		func(name, _ string) bool {
			return strings.Contains(name, "TOKEN") || strings.Contains(name, "SECRET") || strings.Contains(name, "KEY") || strings.Contains(name, "PASSWORD") || name == "DB_URL"
		})
	d := New(Options{Values: func() []Value { return vals }})
	doc, _ := json.Marshal(map[string]string{"stdout": "x" + secret + "y " + quoted + " " + canary("", alnum, 10, 32)})
	for _, text := range []string{"echo " + secret + ".", "prefix" + secret + "suffix", string(doc)} {
		res := d.Redact(text, nil)
		if strings.Contains(res.Text, secret) || strings.Contains(res.Text, canary("", alnum, 10, 32)) {
			t.Errorf("value kept: %q", res.Text)
		}
		if !strings.Contains(res.Text, Marker("$MY_TOKEN")) {
			t.Errorf("no $MY_TOKEN marker: %q", res.Text)
		}
	}
	// in fullwidth letters and digits, as a command can print it
	wide := strings.Map(func(r rune) rune {
		if r >= '!' && r <= '~' {
			return r - '!' + '！'
		}
		return r
	}, secret)
	if res := d.Redact("token: "+wide+" end", nil); strings.Contains(res.Text, wide[3:len(wide)-3]) || !utf8.ValidString(res.Text) || !strings.Contains(res.Text, Marker("$MY_TOKEN")) {
		t.Errorf("a value in fullwidth letters was kept: %q", res.Text)
	}
	if res := d.Redact(string(doc), nil); strings.Contains(res.Text, `pa\"ss\\word`) {
		t.Errorf("a value holding quotes was kept inside JSON: %q", res.Text)
	}
	for _, plain := range []string{"abc", "password", "/home/me/bin"} {
		if res := d.Redact("the "+plain+" here", nil); len(res.Found) != 0 {
			t.Errorf("%q withheld", plain)
		}
	}
}

// TestFingerprints: a value of a secret file's token lines is withheld
// wherever it appears, even without the line around it; the file's other
// words are not.
func TestFingerprints(t *testing.T) {
	dir := t.TempDir()
	awsSecret := canary("", b64, 40, 40)
	ghTok := canary("gho_", alnum, 36, 41)
	pgpw := canary("", alnum, 12, 42)
	files := map[string]string{
		".aws/credentials": "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = " + awsSecret + "\nregion = us-east-1\n",
		"hosts.yml":        "github.com:\n    user: octocat\n    oauth_token: " + ghTok + "\n    git_protocol: https\n",
		".pgpass":          "db.internal:5432:app:app:" + pgpw + "\n",
		".netrc":           "machine example.com login me password hunter2hunter\n",
		".bash_history":    "ssh-keygen -t ed25519 -C me@example.com\ngpg --passphrase-file notes.txt --decrypt x\necho token expired\nexport DEPLOY_KEY=dk-" + pgpw + "\n",
	}
	fs := writeFiles(t, dir, files)
	calls := 0
	d := New(Options{Files: func() []File { calls++; return fs }})
	for _, c := range []struct{ text, secret, kind string }{
		{"the value is " + awsSecret + ".", awsSecret, "~/.aws/credentials"},
		{`{"stdout":"` + ghTok + `\n"}`, ghTok, "~/hosts.yml"},
		{"PGPASSWORD=" + pgpw, pgpw, "~/.pgpass"},
		{"pw: hunter2hunter", "hunter2hunter", "~/.netrc"},
		{"deploying with dk-" + pgpw, "dk-" + pgpw, "~/.bash_history"},
	} {
		res := d.Redact(c.text, nil)
		if strings.Contains(res.Text, c.secret) || !strings.Contains(res.Text, Marker(c.kind)) {
			t.Errorf("%s: %q", c.kind, res.Text)
		}
	}
	for _, plain := range []string{"region us-east-1", "user octocat", "git_protocol https", "db.internal:5432", "AKIAEXAMPLE",
		"key type ed25519", "mail me@example.com", "read notes.txt", "--decrypt", "the session expired"} {
		if res := d.Redact(plain, nil); len(res.Found) != 0 {
			t.Errorf("%q withheld as %v", plain, res.Counts())
		}
	}
	if calls != 1 {
		t.Errorf("the files were listed %d times", calls)
	}
}

func TestReleased(t *testing.T) {
	d := New(Options{})
	c := shapes()[0]
	res := d.Redact(c.text, nil)
	if len(res.Found) != 1 {
		t.Fatalf("found %v", res.Found)
	}
	v := res.Found[0].Value
	again := d.Redact(c.text+c.text, func(s string) bool { return s == v })
	if again.Text != c.text+c.text || len(again.Found) != 0 {
		t.Errorf("a released value was withheld: %q", again.Text)
	}
}

// TestOrdinaryText: what programs print every day is left alone.
func TestOrdinaryText(t *testing.T) {
	d := New(Options{})
	for _, s := range []string{
		"=== RUN   TestTokenRefresh\n--- PASS: TestTokenRefresh (0.00s)\n",
		"commit 3f9c2a1b7e5d4c6f8a9b0c1d2e3f4a5b6c7d8e9f\nAuthor: A <a@example.com>\n",
		"password: ********\n",
		"postgres://user:password@localhost:5432/db\n",
		"export GITHUB_TOKEN=$(gh auth token)\n",
		"machine learning login page password reset flow\n",
		"h1:Xc1P4g0y0Z3RrQ2uP9P0c4T6bH2P4vE7pQ8c1l2mN3o=\n",
		"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
		"git@github.com:nb-cli/nb.git\n",
		"api_key = os.environ[\"API_KEY\"]\n",
	} {
		if res := d.Redact(s, nil); len(res.Found) != 0 {
			t.Errorf("%q: withheld %v", s, res.Counts())
		}
	}
}

// TestRulesCompile: every rule of the set nb uses compiles with Go's
// regexp (a rule that does not would silently find nothing).
func TestRulesCompile(t *testing.T) {
	rs, err := loadRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.rules) < 150 {
		t.Fatalf("only %d rules", len(rs.rules))
	}
	for _, r := range rs.rules {
		if r.regexp() == nil {
			t.Errorf("rule %s does not compile", r.id)
		}
		for _, a := range r.allow {
			if len(a.source) > 0 && a.regexp() == nil {
				t.Errorf("an allow-list of rule %s does not compile", r.id)
			}
		}
	}
	for _, a := range rs.global {
		if len(a.source) > 0 && a.regexp() == nil {
			t.Error("a global allow-list does not compile")
		}
	}
}

// TestJSONInJSON: a JSON file a command printed, inside the JSON result
// (its quotes escaped), is scanned as it was printed: the catch-all
// rule's "name": "value" finds its secret.
func TestJSONInJSON(t *testing.T) {
	d := New(Options{})
	secret := canary("", alnum, 32, 50)
	file := "{\n  \"service\": \"billing\",\n  \"api_key\": \"" + secret + "\"\n}\n"
	doc, _ := json.Marshal(map[string]any{"stdout": file, "stderr": "", "exitCode": 0})
	res := d.Redact(string(doc), nil)
	if strings.Contains(res.Text, secret) || len(res.Found) != 1 || res.Found[0].Kind != "generic-api-key" {
		t.Fatalf("%s: %v", res.Text, res.Counts())
	}
	var back struct{ Stdout string }
	if err := json.Unmarshal([]byte(res.Text), &back); err != nil || !strings.Contains(back.Stdout, `"api_key": "[withheld: generic-api-key]"`) || !strings.Contains(back.Stdout, `"service": "billing"`) {
		t.Errorf("decoded: %q, %v", back.Stdout, err)
	}
}

// A long line dense with keywords (hostile output, a minified file) is
// read by each rule a bounded number of times over, not once per keyword:
// "secret=" repeated over 64 KB had the generic rule read 1.3 KB around
// each of its 9,000 keywords (12 MB, half a minute), and every keyword
// looked for the ends of the whole line.
func TestLongKeywordLinesReadOnce(t *testing.T) {
	d := New(Options{})
	d.Warm()
	if d.Err() != nil {
		t.Fatal(d.Err())
	}
	ran := 0
	for _, unit := range []string{"secret=", "key ", "ghp_", "api_key = ", "-----BEGIN "} {
		text := strings.Repeat(unit, (64<<10)/len(unit))
		read := map[*rule]int{}
		d.rules.ran = func(r *rule, n int) { read[r] += n }
		d.Redact(text, nil)
		for r, n := range read {
			if n > 4*len(text)+maxMultiline+maxJoined {
				t.Errorf("%q over %d bytes: rule %s read %d bytes", unit, len(text), r.id, n)
			}
		}
		ran += len(read)
	}
	d.rules.ran = nil
	if ran == 0 {
		t.Error("no rule ran on windows")
	}
}

// TestEscapedJSONInText: a JSON document quoted inside text that is not
// JSON itself (a log line), its quotes escaped once or twice, is read by
// the catch-all rule as if unescaped.
func TestEscapedJSONInText(t *testing.T) {
	d := New(Options{})
	secret := canary("", alnum, 32, 77)
	for _, text := range []string{
		`2025-01-01 loaded {"env": "{\"api_key\": \"` + secret + `\"}"} ok`,
		`2025-01-01 loaded {"env": "{\\\"api_key\\\": \\\"` + secret + `\\\"}"} ok`,
		`\"api_key\": \"` + secret + `\"`,
		`echo '{\'api_key\': \'` + secret + `\'}'`,
	} {
		res := d.Redact(text, nil)
		if strings.Contains(res.Text, secret) || len(res.Found) != 1 || res.Found[0].Kind != "generic-api-key" {
			t.Errorf("%s: %s %v", text, res.Text, res.Counts())
		}
	}
}

// TestMergedKindsNamed: one withheld span holding two different known
// secrets (two spellings run together in one word) names both, so the
// user releasing it knows what goes; the same secret found by several
// rules is named once, by its best name.
func TestMergedKindsNamed(t *testing.T) {
	a, b := canary("", alnum, 24, 61), canary("", alnum, 24, 62)
	d := New(Options{Values: func() []Value { return []Value{{Kind: "$A_TOKEN", Value: a}, {Kind: "$B_TOKEN", Value: b}} }})
	word := base64.StdEncoding.EncodeToString([]byte(a + b))
	res := d.Redact("blob "+word+"\n", nil)
	if len(res.Found) != 1 || res.Found[0].Kind != "$A_TOKEN, $B_TOKEN" {
		t.Errorf("found %+v", res.Found)
	}
	gh := canary("ghp_", alnum, 36, 63)
	d = New(Options{Values: func() []Value { return []Value{{Kind: "$GITHUB_TOKEN", Value: gh}} }})
	if res := d.Redact("GITHUB_TOKEN="+gh+"\n", nil); len(res.Found) != 1 || res.Found[0].Kind != "$GITHUB_TOKEN" {
		t.Errorf("found %+v", res.Found)
	}
}

// TestEveryStringOfAResult: a run_cmd result's stderr is screened like
// its stdout, and a spelling split across them is not needed whole in
// either: each string holds a run long enough.
func TestEveryStringOfAResult(t *testing.T) {
	v := canary("", alnum, 30, 64)
	d := New(Options{Values: func() []Value { return []Value{{Kind: "$V", Value: v}} }})
	h := hex.EncodeToString([]byte(v))
	doc, _ := json.Marshal(map[string]any{"stdout": "ok " + h[:len(h)/2] + "\n", "stderr": "warning: " + h[len(h)/2:] + "\n", "exitCode": 0})
	res := d.Redact(string(doc), nil)
	if strings.Contains(res.Text, h[:20]) || strings.Contains(res.Text, h[len(h)-20:]) || len(res.Found) != 2 {
		t.Errorf("%s: %v", res.Text, res.Counts())
	}
}

// TestInflateBounded: compressed blobs in a text are decompressed within
// a bound for the whole text (a bomb costs a few megabytes of scanning),
// and a token in one that fits is found.
func TestInflateBounded(t *testing.T) {
	var zeros bytes.Buffer
	z := gzip.NewWriter(&zeros)
	z.Write(make([]byte, 8<<20))
	z.Close()
	bomb := base64.StdEncoding.EncodeToString(zeros.Bytes())
	var tok bytes.Buffer
	z = gzip.NewWriter(&tok)
	z.Write([]byte("token = " + canary("ghp_", alnum, 36, 65) + "\n"))
	z.Close()
	text := strings.Repeat(bomb+"\n", 6) + base64.StdEncoding.EncodeToString(tok.Bytes()) + "\n"
	d := New(Options{})
	d.Warm()
	inflated := 0
	res := d.redactDepth(text, 0, &inflated, nil)
	if inflated > maxInflatedAll {
		t.Errorf("%d bytes inflated", inflated)
	}
	// the bound was spent on the bombs: the token's blob is left as it
	// is, which only a tool can decompress
	if len(res.Found) != 0 {
		t.Errorf("found %v", res.Counts())
	}
	if res := d.Redact(base64.StdEncoding.EncodeToString(tok.Bytes())+"\n", nil); len(res.Found) != 1 || res.Found[0].Kind != "github-pat" {
		t.Errorf("a compressed token alone: %v", res.Counts())
	}
}

// TestForgedMarker: a marker a command prints is text like any other:
// it is not taken for a withheld secret, and what is found and offered
// for release is only what the detector found, by value.
func TestForgedMarker(t *testing.T) {
	v := canary("", alnum, 24, 66)
	d := New(Options{Values: func() []Value { return []Value{{Kind: "$V", Value: v}} }})
	text := "ok " + Marker("$V") + " then " + v + " and " + Marker("github-pat") + "\n"
	res := d.Redact(text, nil)
	if len(res.Found) != 1 || res.Found[0].Value != v || res.Text != "ok "+Marker("$V")+" then "+Marker("$V")+" and "+Marker("github-pat")+"\n" {
		t.Errorf("%q %+v", res.Text, res.Found)
	}
	if again := d.Redact(res.Text, nil); len(again.Found) != 0 {
		t.Errorf("markers withheld: %+v", again.Found)
	}
	if released := d.Redact(text, func(s string) bool { return s == Marker("$V") }); len(released.Found) != 1 {
		t.Errorf("releasing a marker's text released the value: %+v", released.Found)
	}
}
