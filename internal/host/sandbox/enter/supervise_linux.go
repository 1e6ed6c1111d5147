//go:build linux

package enter

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// superviseGrace is how long the supervisor lets the command end after a
// SIGTERM (nb's timeout or interrupt, a terminal closed) before ending
// every process of the sandbox itself, unless nb passed the command's
// grace (GraceEnv): shorter than nb's own before its SIGKILL,
// which would end the supervisor too.
const superviseGrace = time.Second

// supervise is the helper's first stage. It becomes the child subreaper
// of everything the command starts (a process that leaves the process
// group with setsid is still reparented to it), runs the second stage
// (which restricts itself and executes the command) and, when the command
// has ended, kills every process left and reaps them before exiting with
// the command's status: nothing of the sandbox outlives the command, so
// the host's check after it (quarantine) cannot be raced. It returns only
// when the second stage could not start.
func supervise(s Spec, argv []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	s.Inner = true
	args, err := Argv(self, s, argv)
	if err != nil {
		return err
	}
	return runSupervised(exec.Command(args[0], args[1:]...))
}

// runSupervised becomes the child subreaper of everything cmd starts,
// starts cmd with the helper's standard streams and
// environment (less the grace it reads), waits for it, ends every
// process left and exits with cmd's status. The signals nb sends the
// process group reach the command directly; the supervisor only outlives
// them. It returns only when cmd could not start.
func runSupervised(cmd *exec.Cmd) error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return errors.New("cannot supervise the command's processes: " + err.Error())
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	grace := superviseGrace
	if ms, err := strconv.Atoi(os.Getenv(GraceEnv)); err == nil && ms >= 0 {
		grace = time.Duration(ms) * time.Millisecond
	}
	cmd.Env = slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, GraceEnv+"=") })
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var deadline <-chan time.Time
wait:
	for {
		select {
		case <-done:
			break wait
		case sig := <-sigs:
			if sig == syscall.SIGTERM && deadline == nil {
				deadline = time.After(grace)
			}
		case <-deadline:
			killChildren()
			deadline = nil
		}
	}
	reapAll()
	code := 0
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		switch {
		case st.Signaled():
			code = 128 + int(st.Signal())
		default:
			code = st.ExitStatus()
		}
	}
	os.Exit(code)
	return nil
}

// reapAll kills the supervisor's children until none is left: a killed
// process's own children are reparented to the supervisor and killed on
// the next round.
func reapAll() {
	for {
		killChildren()
		var ws unix.WaitStatus
		_, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.ECHILD) {
			return
		}
		if err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// killChildren sends SIGKILL to every child of this process.
func killChildren() {
	me := strconv.Itoa(os.Getpid())
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 || f[1] != me {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(st))); err == nil {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
}
