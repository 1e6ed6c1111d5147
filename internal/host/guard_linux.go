package host

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
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
		args := []string{"nb", GuardArg, ownPrefix()}
		if rec := writeRecord(); rec != "" {
			args = append(args, rec)
		}
		cmd := guardCmd(args, r)
		if err := cmd.Start(); err != nil {
			w.Close()
			return
		}
		guardPipe = w
		// Reap it if it ends early; it normally outlives nb.
		go func() { _ = cmd.Wait() }()
	})
}

// guardCmd is the guard's command: nb's own binary with args, reading r.
func guardCmd(args []string, r *os.File) *exec.Cmd {
	return &exec.Cmd{
		Path:  "/proc/self/exe",
		Args:  args,
		Stdin: r,
		// At the root: the guard outlives nb a little, and must not hold
		// the launch directory (an unmount right after nb would fail).
		Dir: "/",
		// Its own process group: Ctrl+C or a hang-up aimed at nb's
		// group does not reach it.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
}

var (
	recordMu  sync.Mutex
	recordDir string
)

// KeepRecords makes this nb leave a record in dir (a file named after its
// pid and start time) once it starts commands; the guard removes it after
// its cleanup. Records left behind (nb and its guard were both killed)
// are reaped here: the processes still marked by an nb that is gone are
// killed and the record removed. The composition root calls it once.
func KeepRecords(dir string) {
	recordMu.Lock()
	recordDir = dir
	recordMu.Unlock()
	reapRecords(dir)
}

// writeRecord creates this process's record and returns its path ("" when
// records are off or it cannot be written).
func writeRecord() string {
	recordMu.Lock()
	dir := recordDir
	recordMu.Unlock()
	start, ok := startTime(os.Getpid())
	if dir == "" || !ok || os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	p := filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+start)
	if os.WriteFile(p, nil, 0o600) != nil {
		return ""
	}
	return p
}

// reapRecords kills the marked processes of every recorded nb that no
// longer runs. A pid now used by another process (its start time differs)
// only loses its record: its marked processes might be the new one's.
func reapRecords(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pidStr, start, ok := strings.Cut(e.Name(), "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid == os.Getpid() {
			continue
		}
		now, alive := startTime(pid)
		switch {
		case alive && now == start:
			continue // that nb still runs
		case !alive:
			for range 3 {
				killMarkedPrefix(RunIDEnv + "=" + pidStr + ".")
			}
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// startTime reads process pid's start time (clock ticks since boot) from
// /proc; ok is false when there is no such process.
func startTime(pid int) (string, bool) {
	f, ok := statFields(strconv.Itoa(pid))
	// after the command: state is field 3, starttime field 22
	if !ok || len(f) < 20 {
		return "", false
	}
	return string(f[19]), true
}

// ownPrefix is the NB_RUN_ID value prefix of every process this nb starts.
func ownPrefix() string { return RunIDEnv + "=" + strconv.Itoa(os.Getpid()) + "." }
