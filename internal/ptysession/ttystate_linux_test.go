package ptysession

import (
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

// The session's own shell reading a password (`read -s`) is told from the
// terminal: echo off while a line is read. Nothing typed there is echoed.
func TestSecretReadByTheShell(t *testing.T) {
	testenv.Tool(t, "bash")
	m := newManager(t, fast)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := m.Get(out.ID); info.SecretRead {
		t.Fatalf("a shell at its prompt reads no secret: %+v", info)
	}
	out, err = m.Continue(ctx, out.ID, "read -s -p 'Password: ' pw; echo got:${#pw}\n")
	if err != nil || !out.Prompt {
		t.Fatalf("read -s: %+v %v", out, err)
	}
	info, _ := m.Get(out.ID)
	if !info.SecretRead || info.Question != Secret || !info.Shell {
		// Both signals: echo off, and a prompt asking for a secret.
		t.Fatalf("read -s not seen as a secret read: %+v", info)
	}
	out, err = m.Continue(ctx, out.ID, "hunter2\n")
	if err != nil || !strings.Contains(out.Text, "got:7") || strings.Contains(out.Text, "hunter2") {
		t.Fatalf("after the password: %+v %v", out, err)
	}
	if info, _ := m.Get(out.ID); info.SecretRead {
		t.Fatalf("the read is over: %+v", info)
	}
	// A program reading with echo on is no secret read.
	if _, err := m.Continue(ctx, out.ID, "cat\n"); err != nil {
		t.Fatal(err)
	}
	if info, _ := m.Get(out.ID); info.SecretRead {
		t.Fatalf("cat reads no secret: %+v", info)
	}
}

// A program blocked reading the terminal with no prompt ends the read once
// its output pauses, not after the longest wait.
func TestBlockedReadEndsTheWait(t *testing.T) {
	testenv.Tool(t, "bash")
	p := fast
	p.MaxInterval = 20
	m := newManager(t, p)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	cmds := []string{"cat\n", "head -n 1\n"}
	testenv.Tool(t, "python3")
	cmds = append(cmds, "python3 -c 'input()'\n")
	for _, cmd := range cmds {
		began := time.Now()
		got, err := m.Continue(ctx, out.ID, cmd)
		if err != nil {
			t.Fatal(err)
		}
		if got.Ended != EndReading || !got.Prompt {
			t.Fatalf("%q: ended by %v after %v: %+v", cmd, got.Ended, time.Since(began), got)
		}
		if _, err := m.Continue(ctx, out.ID, "\x03"); err != nil {
			t.Fatal(err)
		}
	}
	// A program that sleeps is not waiting for input: the read goes on.
	p.MaxInterval = 1.5
	m2 := newManager(t, p)
	out, err = m2.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := m2.Continue(ctx, out.ID, "sleep 30\n")
	if err != nil || got.Ended != EndMaxInterval {
		t.Fatalf("sleep: %+v %v", got, err)
	}
}
