package guard

import (
	"bytes"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Main runs the guard: args are the marker prefix and, optionally, nb's
// record file. It ignores the signals that end nb, waits until its
// standard input (nb's pipe) closes, then kills every process carrying
// the marker, a few times over to catch processes forked meanwhile, and
// removes the record.
func Main(args []string) int {
	if len(args) < 1 || len(args) > 2 || len(args[0]) < len(RunIDEnv)+3 {
		return 2
	}
	if len(args) == 2 {
		defer os.Remove(args[1])
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	_, _ = io.Copy(io.Discard, os.Stdin)
	for range 5 {
		KillEnv(args[0])
		time.Sleep(20 * time.Millisecond)
	}
	return 0
}

// KillEnv kills every process (but this one) whose environment holds a
// variable starting with mark.
func KillEnv(mark string) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	m := []byte(mark)
	inner := append([]byte{0}, m...)
	self := os.Getpid()
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(d + "/environ")
		if err != nil {
			continue
		}
		if bytes.HasPrefix(env, m) || bytes.Contains(env, inner) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
