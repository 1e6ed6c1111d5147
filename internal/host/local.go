package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// Local runs commands on this machine with no isolation.
//
// Run executes `SHELL -c SCRIPT` with the script as its own argv element,
// stdin on /dev/null, in a new session (so the command has no controlling
// terminal: ssh, sudo or gpg fail instead of prompting on nb's terminal)
// whose process group holds everything the command starts. The environment
// is CommandEnv(Env, EnvPolicy) plus NonInteractiveEnv plus PWD plus
// Command.Env.
//
// The working directory the shell ends in is measured, not parsed: bash gets
// BASH_ENV pointing at a small prologue in RuntimeDir that installs an EXIT
// trap writing `builtin pwd` to a per-run file, then hands BASH_ENV back to
// the user's value (sourcing it) or unsets it, so nested bash scripts do not
// run the prologue. Other shells run a fixed wrapper script that installs
// the same trap and evals the user's script, passed as its own argv element.
// Subshells do not run the parent's EXIT trap, so `(cd /tmp)` changes
// nothing; a failed cd changes nothing; `exit 3` after a cd reports the new
// directory. When the trap does not run (`exec prog`, a user EXIT trap
// replacing it, the shell killed) Exit.Cwd is "" and callers keep the old
// directory.
//
// Lifetimes: a timeout or a cancelled context sends SIGTERM to the process
// group and SIGKILL after KillGrace. When the shell exits, its output pipes
// get DrainWindow to reach end of file; background processes still in the
// group (holding the pipes or not) are then ended (SIGTERM, SIGKILL after
// OrphanGrace) and Exit.Orphans is set. A process that left the group
// (setsid) is found by the NB_RUN_ID variable every process of a run
// inherits (Linux /proc): when it still holds the pipes it is killed and
// Orphans is set; when it also closed them it is left running until Close,
// which kills every group still running and every process carrying this
// nb's run ids. The shell gets PR_SET_PDEATHSIG (SIGKILL) so it dies with nb
// even when Close is never called.
type Local struct {
	// Shell is the shell binary; "" or "auto" means bash when present, else
	// /bin/sh. A bare name is looked up in PATH.
	Shell string
	// Wrap, when set, changes every process before it starts (the
	// sandbox host prefixes bubblewrap this way, handing it an open file).
	Wrap func(l *Launch) error
	// ProcAttr, when set, adjusts the attributes of every process before
	// it starts (the sandbox host starts its Landlock helper in new
	// namespaces this way).
	ProcAttr func(*syscall.SysProcAttr)
	// Env is the base environment (os.Environ() when nil); commands get
	// it through CommandEnv with EnvPolicy, so secret-looking variables
	// never reach them unless the policy passes them.
	Env []string
	// EnvPolicy says which variables of Env commands see.
	EnvPolicy EnvPolicy
	// RuntimeDir holds nb's helper files (the bash prologue, per-run cwd
	// files). "" means a private temporary directory created on first use
	// and removed by Close. A Wrap that hides the host's filesystem must
	// make this directory visible and writable at the same path.
	RuntimeDir string

	mu        sync.Mutex
	shellPath string
	rtDir     string
	ownRT     bool
	seq       uint64
	inst      uint64                 // instance number in run ids
	running   map[*procTree]struct{} // process trees of running commands
	closed    bool
}

// Launch is a process Local is about to start, as a Wrap sees and
// changes it.
type Launch struct {
	// Argv is the program and its arguments.
	Argv []string
	// Dir is the directory it starts in.
	Dir string
	// Files are given to the process as descriptors 3, 4, and so on;
	// Local closes them once it has started (or failed to).
	Files []*os.File
	// Contained says that the wrap runs the program in a process
	// namespace of its own whose first process dies with nb, and with it
	// everything in the namespace: nothing the command starts outlives
	// nb, so a run needs no guard (EnableGuard) for it.
	Contained bool
}

// wrap applies l.Wrap to argv started in dir.
func (l *Local) wrap(argv []string, dir string) (*Launch, error) {
	w := &Launch{Argv: argv, Dir: dir}
	if l.Wrap == nil {
		return w, nil
	}
	if err := l.Wrap(w); err != nil {
		w.close()
		return nil, err
	}
	if len(w.Argv) == 0 {
		w.close()
		return nil, errors.New("wrap: no program")
	}
	return w, nil
}

// close closes the files handed to the process.
func (w *Launch) close() {
	for _, f := range w.Files {
		f.Close()
	}
	w.Files = nil
}

// NonInteractiveEnv is added to every command's environment: pagers print,
// editors exit at once, prompts are off, colour is off (escape sequences are
// stripped for the model anyway), and NB=1 tells scripts nb runs them. A
// repository's own .git/config cannot make an auto-approved `git status`
// run a program through core.fsmonitor, nor a hook through an index
// refresh (GIT_OPTIONAL_LOCKS=0): those are overridden here; the policy
// asks for reads in repositories configuring other programs. An empty
// CDPATH keeps `cd name` in the directory the policy judged. A line length
// outside 66–80 keeps man from saving formatted pages in /var/cache/man
// when it runs as root, so an allowed `man ls` writes nothing. npm's update
// notifier is off, so an allowed `npm ls` asks no registry.
var NonInteractiveEnv = []string{
	"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=false", "GIT_OPTIONAL_LOCKS=0", "CDPATH=",
	"PAGER=cat", "GIT_PAGER=cat", "MANPAGER=cat", "SYSTEMD_PAGER=cat", "MANWIDTH=100", "LESS=-FRX", "LESSOPEN=", "LESSCLOSE=",
	"GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never",
	"GIT_EDITOR=true", "EDITOR=true", "VISUAL=true",
	"DEBIAN_FRONTEND=noninteractive", "PIP_NO_INPUT=1", "NPM_CONFIG_UPDATE_NOTIFIER=false",
	"TERM=dumb", "NO_COLOR=1", "NB=1",
}

// Name implements Host.
func (l *Local) Name() string { return "local" }

// Isolation implements Host.
func (l *Local) Isolation() Isolation { return IsolationNone }

// Close implements Host: it kills the process group of every command still
// running and removes the private runtime directory. Run fails afterwards.
func (l *Local) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for tree := range l.running {
		tree.kill()
	}
	if l.inst > 0 {
		// processes of earlier runs that left their group and detached
		killMarkedPrefix(fmt.Sprintf("%s=%d.%d.", RunIDEnv, os.Getpid(), l.inst))
	}
	if l.ownRT && l.rtDir != "" {
		os.RemoveAll(l.rtDir)
		l.rtDir = ""
	}
	return nil
}

// errClosed is returned by Run after Close.
var errClosed = errors.New("host closed")

// Probe implements Host: it describes this machine, with the shell Run uses.
func (l *Local) Probe(ctx context.Context, detect []string) (*sysinfo.Info, error) {
	info, err := sysinfo.Detect(l.getenv, detect)
	if err != nil {
		return nil, err
	}
	if sh, err := l.shell(); err == nil {
		info.ShellPath = sh
		info.Shell = sysinfo.ShellName(sh)
	}
	return info, nil
}

// getenv reads the base environment.
func (l *Local) getenv(key string) string {
	if l.Env == nil {
		return os.Getenv(key)
	}
	v := ""
	for _, kv := range l.Env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// ShellKind is the language of the shell Run uses (the configured name's
// when it cannot be resolved; POSIX for "auto" then).
func (l *Local) ShellKind() sysinfo.ShellKind {
	sh, err := l.shell()
	if err != nil {
		// a configured shell that cannot be found still says its language
		if l.Shell != "" && l.Shell != "auto" {
			return sysinfo.KindOf(l.Shell)
		}
		return sysinfo.ShellPOSIX
	}
	return sysinfo.KindOf(sh)
}

// ShellPath resolves the shell Run uses.
func (l *Local) ShellPath() (string, error) { return l.shell() }

func (l *Local) shell() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shellPath != "" {
		return l.shellPath, nil
	}
	sh, err := resolveShell(l.Shell, l.getenv("PATH"))
	if err != nil {
		return "", err
	}
	l.shellPath = sh
	return sh, nil
}

func resolveShell(shell, path string) (string, error) {
	if shell == "" || shell == "auto" {
		return sysinfo.DefaultShell(path), nil
	}
	if filepath.IsAbs(shell) || strings.ContainsAny(shell, `/\`) {
		if _, err := os.Stat(shell); err != nil {
			return "", fmt.Errorf("shell %s: %w", shell, err)
		}
		return shell, nil
	}
	if p := sysinfo.LookPath(shell, path); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath(shell); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("shell %s: not found in PATH", shell)
}
