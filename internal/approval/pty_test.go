//go:build unix

package approval

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/nb-cli/nb/internal/agent"
)

// ptyPair opens a PTY; the prompter uses the terminal side, the test plays
// the user on the controlling side. Output is collected from ptmx.
type ptyPair struct {
	ptmx, tty *os.File
	mu        sync.Mutex
	out       strings.Builder
	seen      chan struct{}
	done      chan struct{}
}

func openPTY(t *testing.T) *ptyPair {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	_ = pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 80})
	p := &ptyPair{ptmx: ptmx, tty: tty, seen: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		b := make([]byte, 4096)
		for {
			n, err := ptmx.Read(b)
			if n > 0 {
				p.mu.Lock()
				p.out.Write(b[:n])
				p.mu.Unlock()
				select {
				case p.seen <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = tty.Close()
		_ = ptmx.Close()
		<-p.done
	})
	return p
}

func (p *ptyPair) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func (p *ptyPair) waitOutput(ctx context.Context, t *testing.T, s string) {
	t.Helper()
	for !strings.Contains(p.output(), s) {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %q: %v; output %q", s, ctx.Err(), p.output())
		case <-p.seen:
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (p *ptyPair) prompter() *Prompter {
	return &Prompter{In: p.tty, Fd: int(p.tty.Fd()), Out: p.tty, Width: func() int { return 80 }}
}

// waitQueued waits until the terminal side has input to read, so keys typed
// "before the prompt" really are queued when it starts.
func waitQueued(t *testing.T, fd int) {
	t.Helper()
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 5000); err != nil || n == 0 {
		t.Fatalf("typed keys never reached the terminal: %v", err)
	}
}

func TestTypeaheadDoesNotAnswer(t *testing.T) {
	ctx := ctxT(t)
	p := openPTY(t)
	before, err := term.GetState(int(p.tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	// The user types "y" and Enter while the model is still thinking, in
	// cooked mode, before any prompt is shown.
	if _, err := p.ptmx.Write([]byte("yy\r")); err != nil {
		t.Fatal(err)
	}
	waitQueued(t, int(p.tty.Fd()))

	type result struct {
		a   []agent.Answer
		err error
	}
	res := make(chan result, 1)
	go func() {
		a, err := p.prompter().Approve(ctx, []*agent.Pending{pending("run: make install", "", false)})
		res <- result{a, err}
	}()
	p.waitOutput(ctx, t, "[?]")
	select {
	case r := <-res:
		t.Fatalf("the prompt was answered by typeahead: %+v %v", r.a, r.err)
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := p.ptmx.Write([]byte("n")); err != nil {
		t.Fatal(err)
	}
	p.waitOutput(ctx, t, "reason")
	if _, err := p.ptmx.Write([]byte("no thanks\r")); err != nil {
		t.Fatal(err)
	}
	r := <-res
	if r.err != nil || len(r.a) != 1 || r.a[0].Approved || r.a[0].Reason != "no thanks" {
		t.Fatalf("got %+v, %v", r.a, r.err)
	}
	// Typed reason is echoed in raw mode by the prompt itself.
	p.waitOutput(ctx, t, "no thanks")
	after, err := term.GetState(int(p.tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	if *before != *after {
		t.Error("terminal mode not restored after the prompt")
	}
}

func TestCancelledContextEndsPrompt(t *testing.T) {
	p := openPTY(t)
	ctx, cancel := context.WithCancel(ctxT(t))
	res := make(chan error, 1)
	go func() {
		_, err := p.prompter().Approve(ctx, []*agent.Pending{pending("run: make", "", false)})
		res <- err
	}()
	p.waitOutput(ctxT(t), t, "[?]")
	cancel()
	select {
	case err := <-res:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("prompt did not end on cancel")
	}
	// Nothing keeps reading the terminal after the prompt: a key typed now
	// is still there for the next reader.
	if _, err := p.ptmx.Write([]byte("z\n")); err != nil {
		t.Fatal(err)
	}
	waitQueued(t, int(p.tty.Fd()))
	_ = unix.SetNonblock(int(p.tty.Fd()), true)
	b := make([]byte, 8)
	n, _ := unix.Read(int(p.tty.Fd()), b)
	_ = unix.SetNonblock(int(p.tty.Fd()), false)
	if n < 1 || !strings.Contains(string(b[:n]), "z") {
		t.Fatalf("the key typed after the prompt was consumed: %q", b[:n])
	}
}

func TestRawModeOneKey(t *testing.T) {
	// A single keypress answers: no Enter needed in raw mode.
	ctx := ctxT(t)
	p := openPTY(t)
	res := make(chan []agent.Answer, 1)
	go func() {
		a, _ := p.prompter().Approve(ctx, []*agent.Pending{pending("run: make", "", false)})
		res <- a
	}()
	p.waitOutput(ctx, t, "[?]")
	if _, err := p.ptmx.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-res:
		if !a[0].Approved {
			t.Fatalf("got %+v", a)
		}
	case <-ctx.Done():
		t.Fatal("a single y did not answer")
	}
}
