package ssh

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/shwrap"
)

// StartPTY implements host.Host with a remote pseudo-terminal.
func (h *Host) StartPTY(ctx context.Context, c *host.PTYCommand) (host.Terminal, error) {
	cmdline, err := shwrap.CommandLine(h.shell, "", c.Dir, c.Script, c.Env, false, h.envPolicy.RemoteScrub())
	if err != nil {
		return nil, err
	}
	s, _, err := h.session(ctx)
	if err != nil {
		return nil, err
	}
	rows, cols := c.Rows, c.Cols
	if rows <= 0 {
		rows = 24
	}
	if cols <= 0 {
		cols = 80
	}
	modes := gossh.TerminalModes{gossh.ECHO: 1, gossh.TTY_OP_ISPEED: 38400, gossh.TTY_OP_OSPEED: 38400}
	if err := s.RequestPty("xterm-256color", rows, cols, modes); err != nil {
		s.Close()
		return nil, fmt.Errorf("ssh pty: %w", err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("ssh pty: %w", err)
	}
	out, err := s.StdoutPipe()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("ssh pty: %w", err)
	}
	if err := s.Start(cmdline); err != nil {
		s.Close()
		return nil, fmt.Errorf("ssh pty: %w", err)
	}
	t := &terminal{s: s, in: in, out: out, done: make(chan struct{}), code: -1}
	go t.wait()
	return t, nil
}

// terminal is a program on a remote PTY.
type terminal struct {
	s    *gossh.Session
	in   io.WriteCloser
	out  io.Reader
	done chan struct{}
	code int

	wmu       sync.Mutex
	closeOnce sync.Once
}

func (t *terminal) wait() {
	err := t.s.Wait()
	t.code = exitCode(err)
	close(t.done)
}

func (t *terminal) Read(p []byte) (int, error) { return t.out.Read(p) }

func (t *terminal) Write(p []byte) (int, error) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	n, err := t.in.Write(p)
	if err != nil {
		return n, fmt.Errorf("write pty: %w", err)
	}
	return n, nil
}

func (t *terminal) Resize(rows, cols int) error {
	if err := t.s.WindowChange(rows, cols); err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	return nil
}

func (t *terminal) Done() <-chan struct{} { return t.done }

func (t *terminal) ExitCode() int {
	select {
	case <-t.done:
		return t.code
	default:
		return -1
	}
}

// Close ends the remote program: closing the channel makes the server hang
// up the terminal, which sends SIGHUP to its session.
func (t *terminal) Close() error {
	t.closeOnce.Do(func() {
		_ = t.s.Signal(gossh.SIGHUP)
		err := t.s.Close()
		<-t.done
		if err != nil && !errors.Is(err, io.EOF) {
			_ = err
		}
	})
	return nil
}
