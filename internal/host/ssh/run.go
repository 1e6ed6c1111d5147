package ssh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/shwrap"
)

// activity counts bytes seen on a stream.
type activity struct {
	w io.Writer
	n *atomic.Int64
}

func (a activity) Write(p []byte) (int, error) {
	a.n.Add(int64(len(p)))
	if a.w == nil {
		return len(p), nil
	}
	return a.w.Write(p)
}

// startWait bounds the wait for a stopped command's process id.
const startWait = 5 * time.Second

// orphanGrace is how long output may keep flowing after the shell exited
// before the processes still holding it are ended.
const orphanGrace = 300 * time.Millisecond

// Run implements host.Host.
func (h *Host) Run(ctx context.Context, c *host.Command) (*host.Exit, error) {
	ex, _, err := h.run(ctx, c, nil)
	return ex, err
}

// RunSudo runs c after sudo accepted password (shwrap.SudoPrelude: sudo
// -S -v reads it from the command's standard input, in the shell that
// then runs the script). accepted is false when sudo refused it; the
// script did not run then. The caller wipes password.
func (h *Host) RunSudo(ctx context.Context, c *host.Command, password []byte) (ex *host.Exit, accepted bool, err error) {
	line := make([]byte, 0, len(password)+1)
	line = append(append(line, password...), '\n')
	defer clear(line)
	return h.run(ctx, c, line)
}

// commandLine is c's remote command line: the environment cleaned, sudo
// validated first when it is given a password, the script tracked.
func (h *Host) commandLine(c *host.Command, marker string, sudo bool) (string, error) {
	env := append(append([]string{}, host.NonInteractiveEnv...), c.Env...)
	prelude := h.envPolicy.RemoteScrub()
	if sudo {
		prelude += shwrap.SudoPrelude
	}
	return shwrap.CommandLine(h.shell, marker, c.Dir, c.Script, env, true, prelude)
}

func (h *Host) run(ctx context.Context, c *host.Command, sudoLine []byte) (*host.Exit, bool, error) {
	start := time.Now()
	marker := shwrap.NewMarker()
	cmdline, err := h.commandLine(c, marker, sudoLine != nil)
	if err != nil {
		return nil, false, err
	}
	s, client, err := h.session(ctx)
	if err != nil {
		return nil, false, err
	}
	defer s.Close()
	var n atomic.Int64
	filter := shwrap.NewFilter(c.Stderr, marker)
	s.Stdout = activity{c.Stdout, &n}
	s.Stderr = activity{filter, &n}
	if sudoLine != nil {
		s.Stdin = bytes.NewReader(sudoLine) // written from the line itself: no copy left
	}
	if err := s.Start(cmdline); err != nil {
		return nil, false, fmt.Errorf("ssh run: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()

	timeout, stopTimeout := c.Deadline()
	defer stopTimeout()
	grace := c.Grace()
	ex := &host.Exit{}
	var waitErr error
	exitCh := filter.Exited()
	finished := false
	for !finished {
		select {
		case waitErr = <-done:
			finished = true
		case <-exitCh:
			exitCh = nil
			// The shell has exited: give its output time to drain, then
			// end whatever still holds it open.
			if !drained(done, &n, &waitErr) {
				ex.Orphans = true
				h.killGroup(client, filter, gossh.SIGKILL)
				_ = s.Close()
				waitErr = <-done
			}
			finished = true
		case <-timeout:
			ex.TimedOut = true
			waitErr = h.stop(client, s, filter, done, grace)
			finished = true
		case <-ctx.Done():
			ex.Interrupted = true
			waitErr = h.stop(client, s, filter, done, grace)
			finished = true
		}
	}
	filter.Flush()
	_, exited, code, cwd := filter.State()
	var ee *gossh.ExitError
	if waitErr != nil && !exited && !ex.TimedOut && !ex.Interrupted && !errors.As(waitErr, &ee) {
		// The remote command may live on without its connection: end it
		// over a new one.
		if c, err := h.conn(ctx, client); err == nil {
			h.killGroup(c, filter, gossh.SIGKILL)
		}
		return nil, false, fmt.Errorf("ssh run: connection lost: %w", waitErr)
	}
	switch {
	case exited && !ex.TimedOut && !ex.Interrupted:
		ex.Code, ex.Cwd = code, cwd
	default:
		ex.Code = exitCode(waitErr)
		if exited {
			ex.Cwd = cwd
		}
	}
	if (ex.TimedOut || ex.Interrupted) && ex.Code == 0 {
		ex.Code = 128 + 15
	}
	ex.Duration = time.Since(start)
	return ex, !filter.SudoRefused(), nil
}

// drained waits for the session to end while output keeps arriving; it
// is false when output is held open by processes that outlived the shell.
func drained(done <-chan error, n *atomic.Int64, err *error) bool {
	last := n.Load()
	t := time.NewTimer(orphanGrace)
	defer t.Stop()
	for {
		select {
		case *err = <-done:
			return true
		case <-t.C:
			cur := n.Load()
			if cur == last {
				return false
			}
			last = cur
			t.Reset(orphanGrace)
		}
	}
}

// stop ends a run: SIGTERM to the remote process group, SIGKILL after
// grace, then the session is closed.
func (h *Host) stop(client *gossh.Client, s *gossh.Session, f *shwrap.Filter, done <-chan error, grace time.Duration) error {
	_ = s.Signal(gossh.SIGTERM)
	// The remote shell may still be reading the user's rc files: wait a
	// little for it to say which process group to end.
	wait := time.NewTimer(startWait)
	select {
	case <-f.Started():
	case err := <-done:
		wait.Stop()
		return err
	case <-wait.C:
	}
	wait.Stop()
	h.killGroup(client, f, gossh.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		h.killGroup(client, f, gossh.SIGKILL)
		return err
	case <-t.C:
	}
	_ = s.Signal(gossh.SIGKILL)
	h.killGroup(client, f, gossh.SIGKILL)
	_ = s.Close()
	return <-done
}

// killGroup signals the remote wrapper's process group over a separate
// session (servers do not all honour signal requests, and background
// children are in the group too).
func (h *Host) killGroup(client *gossh.Client, f *shwrap.Filter, sig gossh.Signal) {
	pid, _, _, _ := f.State()
	if pid <= 1 {
		return
	}
	s, err := client.NewSession()
	if err != nil {
		return
	}
	defer s.Close()
	_ = s.Run(fmt.Sprintf("kill -%s -- -%d %d 2>/dev/null", sig, pid, pid))
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *gossh.ExitError
	if errors.As(err, &ee) {
		return ee.ExitStatus()
	}
	return -1
}
