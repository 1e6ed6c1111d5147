package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nb-cli/nb/internal/host/guard"
)

// Timing of Local.Run around the shell's exit.
var (
	// DefaultKillGrace is used when Command.KillGrace is zero.
	DefaultKillGrace = 2 * time.Second
	// DrainWindow is how long the output pipes may stay open after the
	// shell exits before the processes holding them are ended.
	DrainWindow = 150 * time.Millisecond
	// OrphanGrace is the time between SIGTERM and SIGKILL for background
	// processes left when the shell exits.
	OrphanGrace = 100 * time.Millisecond
)

// RunIDEnv names the variable marking every process of one Run (value
// "NBPID.INSTANCE.SEQ"); it finds processes that left the process group.
const RunIDEnv = guard.RunIDEnv

// bashPrologue is sourced through BASH_ENV before the user's script. It
// keeps the cwd file name in a shell (not exported) variable, restores the
// user's BASH_ENV (sourcing it, as bash would have) or removes ours so nested
// bash scripts do not source it, and writes the final directory on exit.
const bashPrologue = `__nb_cwd_file=$NB_CWD_FILE
unset NB_CWD_FILE
if [ -n "${NB_USER_BASH_ENV+x}" ]; then
	BASH_ENV=$NB_USER_BASH_ENV
	unset NB_USER_BASH_ENV
	if [ -n "$BASH_ENV" ]; then . "$BASH_ENV"; fi
else
	unset BASH_ENV
fi
if [ -n "${NB_OLDPWD+x}" ]; then OLDPWD=$NB_OLDPWD; fi
if [ -n "$NB_DIRSTACK" ]; then
	mapfile -t __nb_d <<<"$NB_DIRSTACK"
	for ((__nb_i = ${#__nb_d[@]} - 1; __nb_i >= 0; __nb_i--)); do builtin pushd -n "${__nb_d[__nb_i]}" >/dev/null 2>&1; done
	unset __nb_d __nb_i
fi
unset NB_OLDPWD NB_DIRSTACK
trap 'builtin pwd >| "$__nb_cwd_file" 2>/dev/null; { builtin printf "%s\n" "$OLDPWD"; builtin dirs -l -p; } >| "$__nb_cwd_file.dirs" 2>/dev/null' EXIT
`

// shWrapper runs the user's script ($1) under other shells, with the same
// trap. The script stays one argv element and is evaluated unchanged.
const shWrapper = `__nb_cwd_file=$NB_CWD_FILE
unset NB_CWD_FILE NB_OLDPWD NB_DIRSTACK
__nb_script=$1
shift
trap 'pwd >| "$__nb_cwd_file" 2>/dev/null' EXIT
eval "$__nb_script"`

// HelperDir returns the directory holding nb's per-run helper files (the
// bash prologue and the cwd files), creating it on first use. A Wrap that
// isolates the filesystem must bind it read-write at the same path, or the
// working directory cannot be measured (Exit.Cwd stays "").
func (l *Local) HelperDir() (string, error) { return l.runtimeDir() }

// runtimeDir returns the directory for helper files, creating it and the
// bash prologue on first use.
func (l *Local) runtimeDir() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return "", errClosed
	}
	if l.rtDir != "" {
		return l.rtDir, nil
	}
	dir := l.RuntimeDir
	own := false
	if dir == "" {
		d, err := os.MkdirTemp("", "nb-run-")
		if err != nil {
			return "", fmt.Errorf("runtime dir: %w", err)
		}
		dir, own = d, true
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("runtime dir: %w", err)
	}
	if err := writeHelpers(dir); err != nil {
		if own {
			os.RemoveAll(dir)
		}
		return "", fmt.Errorf("runtime dir: %w", err)
	}
	l.rtDir, l.ownRT = dir, own
	return dir, nil
}

var instances atomic.Uint64

// runID names one run: "NBPID.INSTANCE.SEQ".
func (l *Local) runID() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inst == 0 {
		l.inst = instances.Add(1)
	}
	l.seq++
	return fmt.Sprintf("%d.%d.%d", os.Getpid(), l.inst, l.seq)
}

func (l *Local) track(tree *procTree) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		tree.kill()
		return errClosed
	}
	if l.running == nil {
		l.running = map[*procTree]struct{}{}
	}
	l.running[tree] = struct{}{}
	return nil
}

func (l *Local) untrack(tree *procTree) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, tree)
}

// Run implements Host.
func (l *Local) Run(ctx context.Context, c *Command) (*Exit, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return &Exit{Code: 130, Interrupted: true}, nil
	}
	shell, err := l.shell()
	if err != nil {
		return nil, err
	}
	rt, err := l.runtimeDir()
	if err != nil {
		return nil, err
	}
	dir := c.Dir
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
	}
	runID := l.runID()
	cwdFile := filepath.Join(rt, "cwd-"+runID)
	defer os.Remove(cwdFile)
	defer os.Remove(cwdFile + ".dirs")

	env := CommandEnv(l.Env, l.EnvPolicy)
	env = append(env, NonInteractiveEnv...)
	env = append(env, "PWD="+dir, "NB_CWD_FILE="+cwdFile, RunIDEnv+"="+runID)
	env = append(env, dirsEnv(c.Dirs)...)
	inv := shellInvocation(shell, c.Script, rt, env)
	argv, env := inv.argv, append(inv.env, c.Env...)
	args0 := filepath.Base(shell)
	launch, err := l.wrap(argv, dir)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	defer launch.close()
	if !launch.Contained {
		// The guard's start competes with the command's for the
		// processors: a contained command is spared it.
		startGuard()
	}
	if l.Wrap != nil {
		argv = launch.Argv
		args0 = argv[0]
	}
	path := argv[0]
	if !filepath.IsAbs(path) && !strings.ContainsAny(path, `/\`) {
		if path, err = exec.LookPath(path); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
	}
	cmd := &exec.Cmd{Path: path, Args: append([]string{args0}, argv[1:]...), Dir: dir, Env: env, ExtraFiles: launch.Files}
	if l.ProcAttr != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
		l.ProcAttr(cmd.SysProcAttr)
	}
	if inv.cmdLine != "" && l.Wrap == nil {
		if err := setCmdLine(cmd, inv.cmdLine); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
	}

	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("run: %w", err)
	}
	growPipe(outW)
	growPipe(errW)
	cmd.Stdout, cmd.Stderr = outW, errW

	tree, err := startTree(cmd)
	launch.close()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("run: %w", err)
	}
	defer tree.release()
	if err := l.track(tree); err != nil {
		cmd.Wait()
		outR.Close()
		errR.Close()
		return nil, err
	}
	defer l.untrack(tree)

	var readers sync.WaitGroup
	readers.Add(2)
	go pump(&readers, outR, c.Stdout)
	go pump(&readers, errR, c.Stderr)
	readersDone := make(chan struct{})
	go func() { readers.Wait(); close(readersDone) }()
	waitDone := make(chan error, 1)
	go func() { waitDone <- cmd.Wait() }()

	ex := &Exit{}
	grace := c.Grace()
	timeoutC, stopTimeout := c.Deadline()
	defer stopTimeout()
	var graceC <-chan time.Time
	ctxDone := ctx.Done()
	killing := false
	startKill := func() {
		killing = true
		tree.terminate()
		t := time.NewTimer(grace)
		graceC = t.C
		timeoutC, ctxDone = nil, nil
	}
	var waitErr error
wait:
	for {
		select {
		case waitErr = <-waitDone:
			break wait
		case <-timeoutC:
			ex.TimedOut = true
			startKill()
		case <-ctxDone:
			ex.Interrupted = true
			startKill()
		case <-graceC:
			tree.kill()
			graceC = nil
		}
	}
	ex.Code = exitCode(cmd.ProcessState, waitErr)

	// The shell is gone. Let the pipes drain; whatever still holds them, or
	// still runs in the group, is ended.
	drain := time.NewTimer(DrainWindow)
	defer drain.Stop()
	select {
	case <-readersDone:
	case <-drain.C:
		if !killing {
			ex.Orphans = true
		}
	}
	if tree.alive() {
		if !killing {
			ex.Orphans = true
			held := true
			select {
			case <-readersDone:
				held = false
			default:
			}
			tree.terminate()
			t := time.NewTimer(OrphanGrace)
			if held {
				// the pipes closing says the holders are gone
				select {
				case <-t.C:
				case <-readersDone:
					t.Stop()
				}
			} else {
				<-t.C
			}
		}
		tree.kill()
	}
	select {
	case <-readersDone:
	case <-time.After(DrainWindow):
		// a process that left the group (setsid) still holds the pipes:
		// find it by its run id where the system can tell
		ex.Orphans = true
		killMarked(RunIDEnv + "=" + runID)
		outR.SetReadDeadline(time.Now())
		errR.SetReadDeadline(time.Now())
		<-readersDone
	}
	outR.Close()
	errR.Close()

	if !killing {
		ex.Dirs = readDirs(cwdFile + ".dirs")
		if data, err := os.ReadFile(cwdFile); err == nil {
			// cmd.exe ends the line with CRLF
			ex.Cwd = nativeDir(strings.TrimSuffix(strings.TrimSuffix(string(data), "\r\n"), "\n"))
		}
	}
	ex.Duration = time.Since(start)
	return ex, nil
}

var pumpBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// pump copies a pipe to w until end of file or a forced deadline. A failing
// writer does not stop the draining, so the command never blocks on a full
// pipe.
func pump(wg *sync.WaitGroup, r *os.File, w io.Writer) {
	defer wg.Done()
	bp := pumpBufs.Get().(*[]byte)
	defer pumpBufs.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		if n > 0 && w != nil {
			if _, werr := w.Write(buf[:n]); werr != nil {
				w = nil
			}
		}
		if err != nil {
			return
		}
	}
}

func exitCode(ps *os.ProcessState, err error) int {
	if ps == nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ps = ee.ProcessState
		}
	}
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

func lookupEnv(env []string, key string) (string, bool) {
	v, found := "", false
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v, found = val, true
		}
	}
	return v, found
}

// writeHelpers writes the files shellInvocation refers to.
func writeHelpers(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, "prologue.bash"), []byte(bashPrologue), 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "cwd.cmd"), []byte(cmdCwdHelper), 0o600)
}

// dirsEnv passes d to the bash prologue.
func dirsEnv(d *DirState) []string {
	if d == nil {
		return nil
	}
	env := []string{"NB_OLDPWD=" + d.OldPwd}
	var stack []string
	for _, s := range d.Stack {
		if s != "" && !strings.Contains(s, "\n") {
			stack = append(stack, s)
		}
	}
	if len(stack) > 0 {
		env = append(env, "NB_DIRSTACK="+strings.Join(stack, "\n"))
	}
	return env
}

// readDirs reads what the bash prologue's exit trap wrote: OLDPWD, then
// `dirs -l -p` (the cwd, then the stack). nil when there is no such file.
func readDirs(path string) *DirState {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 2 {
		return nil
	}
	d := &DirState{OldPwd: lines[0]}
	if len(lines) > 2 {
		d.Stack = lines[2:]
	}
	return d
}
