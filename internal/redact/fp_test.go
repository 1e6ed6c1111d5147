package redact

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/sandwich"
)

// maxTouched is the share of real outputs the detector may change.
const maxTouched = 0.005

// output is one recorded output the model could receive.
type output struct {
	name string
	text string // as the model receives it
}

// recordedOutputs reads testdata/outputs.gz (scripts/redact-corpus.sh):
// the outputs of the policy's real-world read-only commands, each shaped
// as run_cmd returns it (stdout and stderr cut to their head and tail,
// in the JSON result), and the go test -v logs of several packages, cut
// into the 10 KB pieces a model reads one at a time.
func recordedOutputs(t *testing.T) []output {
	f, err := os.Open("testdata/outputs.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(z)
	var outs []output
	for {
		head, err := r.ReadString('\n')
		if err == io.EOF && head == "" {
			return outs
		}
		if err != nil {
			t.Fatal(err)
		}
		fields := strings.SplitN(strings.TrimSuffix(head, "\n"), " ", 7)
		read := func(s string) string {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("bad record %q", head)
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(r, b); err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		switch {
		case len(fields) == 7 && fields[1] == "cmd":
			stdout, stderr := read(fields[4]), read(fields[5])
			code, _ := strconv.Atoi(fields[3])
			doc, err := json.Marshal(map[string]any{"stdout": sandwiched(stdout), "stderr": sandwiched(stderr), "exitCode": code})
			if err != nil {
				t.Fatal(err)
			}
			outs = append(outs, output{name: fields[6], text: string(doc)})
		case len(fields) == 4 && fields[1] == "log":
			log := read(fields[3])
			for i := 0; i < len(log); i += 10 << 10 {
				outs = append(outs, output{name: fmt.Sprintf("go test -v ./internal/%s (bytes %d-)", fields[2], i), text: log[i:min(len(log), i+10<<10)]})
			}
		default:
			t.Fatalf("bad record %q", head)
		}
	}
}

// sandwiched is a stream as run_cmd shows it to the model.
func sandwiched(s string) string {
	c := sandwich.New(sandwich.Options{Limits: sandwich.DefaultLimits()})
	c.Write([]byte(s))
	res, _ := c.Close()
	return res.Text
}

// TestFalsePositives: on real command output (the policy's real-world
// read-only corpus, run in a sandbox) and the repository's own test logs,
// the detector changes at most 0.5 % of the outputs, with the rule set
// and nb's own shapes, and no known values or files.
func TestFalsePositives(t *testing.T) {
	outs := recordedOutputs(t)
	if len(outs) < 500 {
		t.Fatalf("only %d recorded outputs", len(outs))
	}
	d := New(Options{})
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	// the same outputs with a secret planted are all touched
	planted := canary("ghp_", alnum, 36, 99)
	for _, o := range outs[:50] {
		if res := d.Redact(strings.Replace(o.text, `"stdout":"`, `"stdout":"`+planted+`\n`, 1), nil); len(res.Found) == 0 && strings.Contains(o.text, `"stdout":"`) {
			t.Errorf("%s: a planted token was not found", o.name)
		}
	}
	checkTouched(t, d, outs, "")
}

// checkTouched fails the test when d changes more than maxTouched of the
// outputs, and logs the ones it changes.
func checkTouched(t *testing.T, d *Detector, outs []output, note string) {
	touched := 0
	for _, o := range outs {
		if res := d.Redact(o.text, nil); len(res.Found) > 0 {
			touched++
			var what []string
			for _, f := range res.Found {
				what = append(what, fmt.Sprintf("%s %q", f.Kind, f.Value))
			}
			t.Logf("touched: %s: %s", o.name, strings.Join(what, ", "))
		}
	}
	rate := float64(touched) / float64(len(outs))
	t.Logf("%d of %d real outputs touched (%.2f %%)%s", touched, len(outs), 100*rate, note)
	if rate > maxTouched {
		t.Errorf("%.2f %% of real outputs touched, want at most %.1f %%", 100*rate, 100*maxTouched)
	}
}
