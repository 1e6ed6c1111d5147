package approval

import (
	"errors"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/redact"
)

var withheld = []redact.Found{{Kind: "github-pat", Value: "ghp_secretvalue"}, {Kind: "$AWS_KEY", Value: "aws\x1b[31mvalue"}}

// TestRelease: one key answers; only y sends; Enter, n, Esc and Ctrl+C
// keep the secrets withheld; ? shows the values, escaped.
func TestRelease(t *testing.T) {
	for keys, want := range map[string]bool{"y": true, "Y": true, "\r": false, "n": false, "\x1b": false, "xzq\r": false, "?y": true} {
		p, scr := prompter(keys, 80)
		got, err := p.Release(ctxT(t), "the result of run: cat .env", withheld)
		if err != nil || got != want {
			t.Errorf("keys %q: got %v, %v; want %v", keys, got, err, want)
		}
		raw := scr.Raw()
		if !strings.Contains(raw, "withheld 2 secrets (github-pat, $AWS_KEY) from the result of run: cat .env") || !strings.Contains(raw, "send them to the model?") {
			t.Errorf("keys %q: prompt %q", keys, raw)
		}
		if released := strings.Contains(raw, "released to the model: 2 secrets"); released != want {
			t.Errorf("keys %q: the release is shown: %v", keys, released)
		}
		if strings.HasPrefix(keys, "?") {
			if !strings.Contains(raw, "github-pat: ghp_secretvalue") || strings.Contains(raw, "\x1b[31mvalue") || !strings.Contains(raw, `aws\x1b[31mvalue`) {
				t.Errorf("? shows %q", raw)
			}
		} else if strings.Contains(raw, "ghp_secretvalue") {
			t.Errorf("keys %q: a value was shown without ?: %q", keys, raw)
		}
		scr.Close()
	}
	p, scr := prompter("\x03", 80)
	defer scr.Close()
	if got, err := p.Release(ctxT(t), "x", withheld); got || !errors.Is(err, ErrInterrupted) {
		t.Errorf("Ctrl+C: %v, %v", got, err)
	}
	if got, err := (&Prompter{}).Release(ctxT(t), "x", withheld); got || !errors.Is(err, ErrNoTerminal) {
		t.Errorf("no terminal: %v, %v", got, err)
	}
}

// A terminal that goes away at the release question (its input ends,
// before any key or after ?) keeps the secrets withheld and says so.
func TestReleaseTerminalGone(t *testing.T) {
	for _, keys := range []string{"", "?", "\x1b["} {
		p, scr := prompter(keys, 80)
		got, err := p.Release(ctxT(t), "x", withheld)
		if got || err == nil {
			t.Errorf("input %q then its end: released %v, %v", keys, got, err)
		}
		if !strings.Contains(scr.Raw(), "withheld") {
			t.Errorf("input %q: the outcome is not shown: %q", keys, scr.Raw())
		}
		scr.Close()
	}
}
