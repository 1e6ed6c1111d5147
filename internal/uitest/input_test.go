//go:build unix

package uitest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm/llmtest"
)

// bracketed is a paste as a terminal with bracketed paste on sends it: the
// markers around the text, CR for each line break.
func bracketed(lines []string) string {
	return "\x1b[200~" + strings.Join(lines, "\r") + "\x1b[201~"
}

func TestPasteIsOneMessage(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "pasted line 50"}, Text: "Read three."},
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "pasted line 1\npasted line 2"}, Text: "Read fifty."},
	)
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")

	// Three lines: shown as one message, nothing sent before Enter.
	n.send(bracketed([]string{"Traceback (most recent call last):", `  File "x.py", line 1`, "ZeroDivisionError"}))
	n.waitText(ctx, "… ZeroDivisionError")
	if got := len(srv.Requests()); got != 0 {
		t.Fatalf("the paste sent %d requests before Enter", got)
	}
	n.send(" pasted line 50\r")
	n.waitText(ctx, "Read three.")
	n.waitPrompts(ctx, 2)
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("one paste made %d requests", len(reqs))
	}
	if got, want := typed(reqs[0]), "Traceback (most recent call last):\n  File \"x.py\", line 1\nZeroDivisionError pasted line 50"; got != want {
		t.Fatalf("message = %q, want %q", got, want)
	}

	// Fifty lines in a 24-row terminal: the end stays visible while
	// editing, and the whole paste is sent.
	var fifty []string
	for i := 1; i <= 50; i++ {
		fifty = append(fifty, fmt.Sprintf("pasted line %d", i))
	}
	n.send(bracketed(fifty))
	n.waitText(ctx, "… pasted line 50")
	n.send(" end")
	n.waitText(ctx, "… pasted line 50 end")
	screen := n.scr.String()
	if !strings.Contains(screen, "more lines") || strings.Count(screen, "pasted line 49") != 1 {
		t.Fatalf("editing window of a tall paste:\n%s", screen)
	}
	n.send("\r")
	n.waitText(ctx, "Read fifty.")
	n.waitPrompts(ctx, 1) // the fifty lines scrolled the first prompts away
	reqs = srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := typed(reqs[1]); strings.Count(got, "\n") != 49 || !strings.HasSuffix(got, "pasted line 50 end") {
		t.Fatalf("the 50-line paste arrived as %q", got)
	}

	// Recalling the tall entry, then the short one, leaves no stale rows.
	n.send("\x1b[A")
	n.waitText(ctx, "nb> pasted line 1")
	n.send("\x1b[A")
	if err := n.scr.WaitFor(ctx, "the three-line entry", func(s string) bool {
		return strings.Contains(s, "nb> Traceback") && !strings.Contains(s, "… pasted line") && !strings.Contains(s, "more lines")
	}); err != nil {
		t.Fatal(err)
	}
	n.send("\x03")
	n.send("exit\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// typed is the last user message as typed: without the facts nb adds.
func typed(r llmtest.Request) string {
	// the session facts travel after the message, as its own content part
	text, _, _ := strings.Cut(r.LastUserText(), "\n[nb: ")
	return strings.TrimSuffix(text, "\n")
}

// waitPrompts waits until the screen shows k input prompts: nb reads
// input again (keys sent earlier would be typeahead, echoed by the terminal).
func (n *nb) waitPrompts(ctx context.Context, k int) {
	n.t.Helper()
	if err := n.scr.WaitFor(ctx, fmt.Sprintf("%d prompts", k), func(s string) bool {
		return strings.Count(s, "nb>") >= k
	}); err != nil {
		n.t.Fatal(err)
	}
}
