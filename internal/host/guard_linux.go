package host

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

var (
	guardOnce sync.Once
	// guardPipe is the pipe's write end, open for nb's lifetime (held
	// here so no finalizer closes it): the guard sees it close when nb
	// ends.
	//lint:ignore U1000 only held, never used
	guardPipe *os.File
)

// startGuard starts the guard once, when enabled. Failures are silent: the
// guard only adds to the cleanup nb does on a normal exit.
func startGuard() {
	if !guardEnabled.Load() {
		return
	}
	guardOnce.Do(func() {
		r, w, err := os.Pipe()
		if err != nil {
			return
		}
		defer r.Close()
		cmd := &exec.Cmd{
			Path:  "/proc/self/exe",
			Args:  []string{"nb", GuardArg, ownPrefix()},
			Stdin: r,
			// Its own process group: Ctrl+C or a hang-up aimed at nb's
			// group does not reach it.
			SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
		}
		if err := cmd.Start(); err != nil {
			w.Close()
			return
		}
		guardPipe = w
		// Reap it if it ends early; it normally outlives nb.
		go func() { _ = cmd.Wait() }()
	})
}

// GuardMain runs the guard: args are the marker prefix. It ignores the
// signals that end nb, waits until its standard input (nb's pipe) closes,
// then kills every process carrying the marker, a few times over to catch
// processes forked meanwhile.
func GuardMain(args []string) int {
	if len(args) != 1 || len(args[0]) < len(RunIDEnv)+3 {
		return 2
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	_, _ = io.Copy(io.Discard, os.Stdin)
	for range 5 {
		killMarkedPrefix(args[0])
		time.Sleep(20 * time.Millisecond)
	}
	return 0
}
