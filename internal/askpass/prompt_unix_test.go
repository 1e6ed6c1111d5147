//go:build linux

package askpass

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/nb-cli/nb/internal/iostreams"
)

// screen collects what the prompt draws on a real terminal.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func (s *screen) waitFor(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("%q never appeared; screen:\n%q", text, s.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// onPTY runs the prompt on a real pseudo-terminal; keys are typed by type.
func onPTY(t *testing.T) (p *Prompt, master *os.File, slave *os.File, scr *screen) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close(); slave.Close() })
	scr = &screen{}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			scr.Write(b[:n])
			if err != nil {
				return
			}
		}
	}()
	io := &iostreams.IO{In: slave, Err: slave, InTTY: true, ErrTTY: true, InFd: int(slave.Fd()), Width: func() int { return 100 }}
	return NewPrompt(io), master, slave, scr
}

func TestPromptOnATerminal(t *testing.T) {
	p, master, slave, scr := onPTY(t)
	before, err := term.GetState(int(slave.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	// typed before the prompt: never part of the password
	master.Write([]byte("early keys"))
	time.Sleep(50 * time.Millisecond)
	type res struct {
		a   Answer
		err error
	}
	done := make(chan res, 1)
	go func() {
		a, err := p.AskPassword(context.Background(), Question{Command: "sudo systemctl restart nginx", Prompt: "[sudo] password for alice: "})
		done <- res{a, err}
	}()
	scr.waitFor(t, "[sudo] password for alice:")
	master.Write([]byte("s3cret pw"))
	master.Write([]byte("\t"))
	scr.waitFor(t, "remembered for this session")
	master.Write([]byte("\r"))
	r := <-done
	if r.err != nil || string(r.a.Password) != "s3cret pw" || !r.a.Remember {
		t.Fatalf("answer %q remember=%v err=%v", r.a.Password, r.a.Remember, r.err)
	}
	scr.waitFor(t, "password given, remembered for this session")
	// what the terminal echoed before the prompt took it is not the prompt's
	_, out, _ := strings.Cut(scr.String(), "🔒")
	for _, want := range []string{"sudo asks for a password to run: ", "sudo systemctl restart nginx", "Tab: remember for this session", "password given, remembered for this session"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%q", want, out)
		}
	}
	if strings.Contains(out, "s3cret") || strings.Contains(out, "early") {
		t.Errorf("typed text was echoed:\n%q", out)
	}
	after, err := term.GetState(int(slave.Fd()))
	if err != nil || *after != *before {
		t.Error("the terminal's mode was not restored")
	}
}

func TestPromptCancelAndInterrupt(t *testing.T) {
	for _, c := range []struct {
		keys string
		want error
	}{{"pw\x1b", ErrCancelled}, {"pw\x03", ErrInterrupted}} {
		p, master, _, scr := onPTY(t)
		done := make(chan error, 1)
		go func() {
			_, err := p.AskPassword(context.Background(), Question{Command: "sudo true", Hosts: []string{"web-01", "web-02"}, PerHost: true})
			done <- err
		}()
		scr.waitFor(t, "Password for web-01, web-02:")
		master.Write([]byte(c.keys))
		if err := <-done; !errors.Is(err, c.want) {
			t.Fatalf("%q: %v", c.keys, err)
		}
		scr.waitFor(t, "password not given")
		out := scr.String()
		if !strings.Contains(out, "sudo on 2 hosts") || !strings.Contains(out, "Ctrl+E: one password per host") || !strings.Contains(out, "password not given") {
			t.Errorf("screen:\n%q", out)
		}
	}
}

func TestPromptWithoutTerminal(t *testing.T) {
	io, _, _, _ := iostreams.Test(nil)
	if _, err := NewPrompt(io).AskPassword(context.Background(), Question{Command: "sudo true"}); !errors.Is(err, ErrNoTerminal) {
		t.Fatalf("err %v", err)
	}
}
