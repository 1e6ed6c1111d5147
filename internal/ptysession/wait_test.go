//go:build unix

package ptysession

import (
	"strings"
	"testing"
)

// startBash starts an interactive bash and reads up to its first prompt.
func startBash(t *testing.T, m *Manager) string {
	t.Helper()
	out, err := m.Start(testCtx(t), "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndPrompt {
		t.Fatalf("start ended by %v, want a prompt: %q", out.Ended, out.Text)
	}
	return out.ID
}

func TestReadWaitsPastTheEchoOfSilentCommands(t *testing.T) {
	// A settle interval far shorter than the silences: a read that stops
	// at the echo returns without "one"/"five" and fails.
	p := fast
	p.SettleInterval = 0.3
	p.MaxInterval = 15
	m := newManager(t, p)
	id := startBash(t, m)
	for _, c := range []struct{ cmd, want string }{
		{"sleep 1; echo one\n", "\none\n"},
		{"sleep 5; echo five\n", "\nfive\n"},
	} {
		out, err := m.Continue(testCtx(t), id, c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.Text, c.want) || out.Ended != EndPrompt {
			t.Fatalf("%q: ended by %v with %q, want the output and the next prompt", c.cmd, out.Ended, out.Text)
		}
	}
}

func TestSilentForeverEndsAtMaxInterval(t *testing.T) {
	p := fast
	p.MaxInterval = 1.5
	m := newManager(t, p)
	id := startBash(t, m)
	out, err := m.Continue(testCtx(t), id, "sleep 1000\n")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndMaxInterval || strings.TrimSpace(out.Text) != "sleep 1000" {
		t.Fatalf("ended by %v with %q, want the max interval and only the echo", out.Ended, out.Text)
	}
	// A poll with nothing new waits for output too, up to the max.
	out, err = m.Continue(testCtx(t), id, "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndMaxInterval || out.Text != "" {
		t.Fatalf("poll ended by %v with %q", out.Ended, out.Text)
	}
	// Ctrl+C: the shell's prompt ends the next read.
	out, err = m.Continue(testCtx(t), id, "\x03")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndPrompt {
		t.Fatalf("^C ended by %v with %q", out.Ended, out.Text)
	}
}

func TestReadEndsEarlyForInputAndExit(t *testing.T) {
	// Settle and max are long: only a prompt or the exit can end these
	// reads, and each says so.
	p := fast
	p.SettleInterval = 10
	p.MaxInterval = 20
	m := newManager(t, p)
	id := startBash(t, m)

	out, err := m.Continue(testCtx(t), id, "read -p 'Overwrite? [y/N] ' answer\n")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndPrompt || !strings.HasSuffix(out.Text, "[y/N] ") {
		t.Fatalf("question: ended by %v with %q", out.Ended, out.Text)
	}
	// Answered, the shell prompts again.
	out, err = m.Continue(testCtx(t), id, "n\n")
	if err != nil || out.Ended != EndPrompt {
		t.Fatalf("answer: %v %+v", err, out)
	}
	// A poll while the shell waits at its prompt returns at once.
	out, err = m.Continue(testCtx(t), id, "")
	if err != nil || out.Ended != EndPrompt || out.Text != "" {
		t.Fatalf("poll at a prompt: %v %+v", err, out)
	}
	out, err = m.Continue(testCtx(t), id, "exit 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndExit || !out.Complete || out.ExitCode != 3 {
		t.Fatalf("exit: %+v", out)
	}
}

func TestOutputBeyondTheEchoSettles(t *testing.T) {
	p := fast
	p.MaxInterval = 20
	m := newManager(t, p)
	id := startBash(t, m)
	out, err := m.Continue(testCtx(t), id, "echo started; sleep 1000\n")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndSettled || !strings.Contains(out.Text, "\nstarted\n") {
		t.Fatalf("ended by %v with %q, want settled output", out.Ended, out.Text)
	}
	// A program just started that writes nothing returns after a while.
	out, err = m.Start(testCtx(t), "sleep 1000", "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Ended != EndQuiet {
		t.Fatalf("silent start ended by %v", out.Ended)
	}
}

func TestBeyondEcho(t *testing.T) {
	cases := []struct {
		out, in string
		want    bool
	}{
		{"sleep 5\n", "sleep 5\n", false},
		{"sleep 5\n\n", "sleep 5\n", false},
		{"sleep 5\nfive\n", "sleep 5\n", true},
		{"", "secret\n", false}, // no echo (a password)
		{"\n", "secret\n", false},
		{"a\nb\n", "a\nb\n", false},
		{"a\nout\nb\n", "a\nb\n", true},
		{"$ ls\n", "ls\n", true}, // a prompt before the echo
		{"print(1)\n1\n>>> ", "print(1)\n", true},
		{"jj", "jj", false},
	}
	for _, c := range cases {
		if got := beyondEcho(c.out, c.in); got != c.want {
			t.Errorf("beyondEcho(%q, %q) = %v, want %v", c.out, c.in, got, c.want)
		}
	}
}
