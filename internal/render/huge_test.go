package render

import (
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/visible"
)

// hugeCall is a 10 MB command whose both ends hide escape sequences,
// with the display the policy gives it (escaped by package visible; the
// approval tests take it from the real engine).
func hugeCall(t *testing.T) *agent.Pending {
	t.Helper()
	command := "mycmd HEADMARK '\x1b[2J\x1b]0;x\x07 " + strings.Repeat("y", 10<<20) + " \x1b[8m' TAILMARK"
	d := &policy.Decision{Decision: policy.Ask, Display: "run: " + visible.String(command), Full: command, Subject: command}
	return &agent.Pending{Call: &tool.Call{ID: "1", Name: "run_cmd"}, Decision: d}
}

func checkHugeLine(t *testing.T, out string, max int, escapes bool) {
	t.Helper()
	if len(out) > max {
		t.Fatalf("wrote %d bytes for a 10 MB call, want at most %d", len(out), max)
	}
	want := []string{"HEADMARK", "TAILMARK", "bytes more"}
	if escapes {
		want = append(want, `\x1b[2J`, `\x1b[8m`)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, bad := range []string{"\x1b[2J", "\x1b[8m", "\x1b]0;", "\x07"} {
		if strings.Contains(out, bad) {
			t.Errorf("output carries the command's raw %q", bad)
		}
	}
}

// Without a terminal width the call line still shows only both ends,
// escaped.
func TestHugeCallLinePlain(t *testing.T) {
	io, _, errOut := plainIO()
	term := New(io, Options{})
	defer term.Close()
	p := hugeCall(t)
	v := term.ToolStart(p)
	v.Done(&tool.Result{ExitCode: exit(0), Duration: time.Second})
	term.Refused(p, "declined")
	checkHugeLine(t, errOut.String(), 4<<10, true)
}

// On a terminal the live line and the summary fit the width and keep
// both ends.
func TestHugeCallLineTerminal(t *testing.T) {
	p := hugeCall(t)
	ctx := ctxT(t)
	io, scr := ttyIO(80, false)
	defer scr.Close()
	term := New(io, Options{Frame: 5 * time.Millisecond, LiveDelay: time.Millisecond})
	defer term.Close()
	v := term.ToolStart(p)
	v.Output("stdout", []byte("working\n"))
	if err := scr.WaitText(ctx, "working"); err != nil {
		t.Fatal(err)
	}
	v.Done(&tool.Result{ExitCode: exit(0), Duration: time.Second})
	checkHugeLine(t, scr.Raw(), 64<<10, false)
	lines := strings.Split(scr.String(), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "HEADMARK") || !strings.Contains(last, "TAILMARK") || !strings.HasSuffix(last, "exit 0 · 1.0s") {
		t.Errorf("summary line = %q", last)
	}
}
