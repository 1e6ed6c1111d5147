//go:build unix

package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyKillGrace is how long Close waits after SIGTERM before SIGKILL.
const ptyKillGrace = 1500 * time.Millisecond

// StartPTY implements Host. The program runs as `shell -c script` on a new
// pseudo-terminal, in its own session (and so its own process group) with
// the terminal as its controlling terminal. It is killed if nb dies.
func (l *Local) StartPTY(ctx context.Context, c *PTYCommand) (Terminal, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start pty: %w", err)
	}
	sh, err := l.shell()
	if err != nil {
		return nil, fmt.Errorf("start pty: %w", err)
	}
	launch, err := l.wrap([]string{sh, "-c", c.Script}, c.Dir)
	if err != nil {
		return nil, fmt.Errorf("start pty: %w", err)
	}
	defer launch.close()
	argv := launch.Argv
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	cmd.ExtraFiles = launch.Files
	base := CommandEnv(l.Env, l.EnvPolicy)
	// The run marker finds the session's descendants that leave its
	// process group and session (setsid, double forks) when it closes.
	runID := l.runID()
	cmd.Env = append(append(append([]string{}, base...), c.Env...), RunIDEnv+"="+runID)
	startGuard()
	rows, cols := c.Rows, c.Cols
	if rows <= 0 {
		rows = 24
	}
	if cols <= 0 {
		cols = 80
	}
	// If nb dies, the kernel signals the program. An interactive shell gets
	// SIGHUP, which it passes on to its jobs before exiting; anything else
	// gets SIGKILL, which it cannot ignore or treat as "reload".
	death := syscall.SIGKILL
	if interactiveShell(c.Script) {
		death = syscall.SIGHUP
	}
	attrs := &syscall.SysProcAttr{Setsid: true, Setctty: true}
	setDeathSignal(attrs, death)
	if l.ProcAttr != nil {
		l.ProcAttr(attrs)
	}
	master, err := pty.StartWithAttrs(cmd, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}, attrs)
	if err != nil {
		return nil, fmt.Errorf("start pty: %w", err)
	}
	t := &localTerminal{cmd: cmd, pid: cmd.Process.Pid, runID: runID, done: make(chan struct{})}
	// The master returned by creack/pty is in blocking mode, where Close does
	// not interrupt a pending Read. A non-blocking duplicate lets the runtime
	// poller wake readers on Close.
	f, err := pollable(master)
	_ = master.Close()
	if err != nil {
		_ = unix.Kill(-t.pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return nil, fmt.Errorf("start pty: %w", err)
	}
	t.f = f
	go t.wait()
	return t, nil
}

// interactiveShell reports whether script just starts an interactive shell
// (`bash`, `exec zsh -l`, `/bin/sh -i`): a shell name followed by options
// only. It picks the signal sent when nb dies, nothing else.
func interactiveShell(script string) bool {
	f := strings.Fields(script)
	if len(f) > 0 && f[0] == "exec" {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	switch filepath.Base(f[0]) {
	case "bash", "sh", "zsh", "dash", "fish", "ksh", "mksh", "ash":
	default:
		return false
	}
	for _, a := range f[1:] {
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "-c") || (!strings.HasPrefix(a, "--") && strings.Contains(a, "c")) {
			return false
		}
	}
	return true
}

func pollable(f *os.File) (*os.File, error) {
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		return nil, fmt.Errorf("dup pty: %w", err)
	}
	unix.CloseOnExec(fd)
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return nil, fmt.Errorf("pty non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

// localTerminal is a program on a local PTY.
type localTerminal struct {
	f     *os.File
	cmd   *exec.Cmd
	pid   int
	runID string // the NB_RUN_ID of the session's processes
	done  chan struct{}
	code  int

	wmu       sync.Mutex
	closeOnce sync.Once
	closeErr  error
}

func (t *localTerminal) wait() {
	err := t.cmd.Wait()
	code := 0
	if err != nil {
		code = -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		}
	}
	t.code = code
	close(t.done)
}

// Read implements io.Reader. The end of the program's output (the slave
// side closed by every process) reads as io.EOF.
func (t *localTerminal) Read(p []byte) (int, error) {
	n, err := t.f.Read(p)
	if err != nil && (errors.Is(err, syscall.EIO) || errors.Is(err, os.ErrClosed)) {
		err = io.EOF
	}
	return n, err
}

// Write implements io.Writer: it types p into the terminal.
func (t *localTerminal) Write(p []byte) (int, error) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	n, err := t.f.Write(p)
	if err != nil {
		return n, fmt.Errorf("write pty: %w", err)
	}
	return n, nil
}

// Resize implements Terminal.
func (t *localTerminal) Resize(rows, cols int) error {
	rc, err := t.f.SyscallConn()
	if err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		ierr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)})
	}); err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	if ierr != nil {
		return fmt.Errorf("resize pty: %w", ierr)
	}
	return nil
}

// Done implements Terminal.
func (t *localTerminal) Done() <-chan struct{} { return t.done }

// ExitCode implements Terminal; valid once Done is closed.
func (t *localTerminal) ExitCode() int {
	select {
	case <-t.done:
		return t.code
	default:
		return -1
	}
}

// Foreground reports the program in the terminal's foreground: its command
// name and whether it is the program nb started (rather than a job that
// program launched). ok is false when it cannot be told.
func (t *localTerminal) Foreground() (name string, leader bool, ok bool) {
	rc, err := t.f.SyscallConn()
	if err != nil {
		return "", false, false
	}
	pgrp := -1
	if err := rc.Control(func(fd uintptr) {
		pgrp, err = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	}); err != nil || pgrp <= 0 {
		return "", false, false
	}
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pgrp) + "/comm")
	if err != nil {
		return "", false, false
	}
	return strings.TrimSpace(string(comm)), pgrp == t.pid, true
}

// Dir reports the working directory of the program nb started on the
// terminal (the shell a typed cd moves); ok is false when it cannot be
// told (no /proc).
func (t *localTerminal) Dir() (dir string, ok bool) {
	d, err := os.Readlink("/proc/" + strconv.Itoa(t.pid) + "/cwd")
	if err != nil || !strings.HasPrefix(d, "/") {
		return "", false
	}
	return d, true
}

// Close implements Terminal: SIGHUP and SIGTERM to every process of the
// terminal's session, SIGKILL to what remains after a grace period, then the
// terminal is freed.
func (t *localTerminal) Close() error {
	t.closeOnce.Do(func() {
		t.closeErr = t.stop()
	})
	return t.closeErr
}

func (t *localTerminal) stop() error {
	select {
	case <-t.done:
	default:
		signalSession(t.pid, syscall.SIGHUP)
		signalSession(t.pid, syscall.SIGTERM)
		timer := time.NewTimer(ptyKillGrace)
		select {
		case <-t.done:
		case <-timer.C:
		}
		timer.Stop()
	}
	// Whatever is left of the session (jobs in other process groups,
	// background children that outlived the leader, descendants that
	// left the session) is killed.
	signalSession(t.pid, syscall.SIGKILL)
	killMarked(RunIDEnv + "=" + t.runID)
	<-t.done
	// SIGKILL is delivered asynchronously; wait (briefly, bounded) until
	// the session has no live process left.
	for deadline := time.Now().Add(2 * time.Second); len(sessionMembers(t.pid)) > 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		signalSession(t.pid, syscall.SIGKILL)
	}
	if err := t.f.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("close pty: %w", err)
	}
	return nil
}

// signalSession sends sig to the process group sid and to every process
// whose session is sid.
func signalSession(sid int, sig syscall.Signal) {
	_ = unix.Kill(-sid, sig)
	for _, pid := range sessionMembers(sid) {
		_ = unix.Kill(pid, sig)
	}
}

// sessionMembers lists the live (not zombie) processes of session sid from
// /proc.
func sessionMembers(sid int) []int {
	want := []byte(strconv.Itoa(sid))
	all, _ := pids()
	var out []int
	for _, pid := range all {
		f, ok := statFields(pid)
		if !ok || len(f) < 4 || zombie(f[0]) || !bytes.Equal(f[3], want) {
			continue
		}
		n, _ := strconv.Atoi(pid)
		out = append(out, n)
	}
	return out
}
