// Package host defines where commands run. A Host runs shell scripts and
// starts PTY programs: on this machine (local), in a sandbox, in a container,
// or on a remote machine over ssh. Every tool reaches the machine only
// through this interface, so the active host can change at runtime.
package host

import (
	"context"
	"io"
	"time"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// Isolation is the isolation level a host provides (seed 002).
type Isolation string

const (
	IsolationNone      Isolation = "none"
	IsolationSandbox   Isolation = "sandbox"
	IsolationContainer Isolation = "container"
	// IsolationRemote runs on another machine; this one is untouched.
	IsolationRemote Isolation = "remote"
)

// Command is one non-interactive shell run.
type Command struct {
	// Script is passed to the shell as a single argv element after -c,
	// never re-escaped.
	Script string
	// Dir is the working directory; it must exist.
	Dir string
	// Env holds KEY=VALUE pairs added to the host's environment.
	Env []string
	// Dirs, when set, is restored in the shell before the script runs
	// (bash on the local host): `cd -` and popd then work across runs.
	Dirs *DirState
	// Stdout and Stderr receive the raw streams as they are produced.
	Stdout, Stderr io.Writer
	// Timeout ends the run (SIGTERM to the process group, then SIGKILL after
	// KillGrace). Zero means no timeout.
	Timeout   time.Duration
	KillGrace time.Duration
}

// Grace is KillGrace, or DefaultKillGrace when it is not set.
func (c *Command) Grace() time.Duration {
	if c.KillGrace > 0 {
		return c.KillGrace
	}
	return DefaultKillGrace
}

// Deadline returns a channel that fires when Timeout has passed (nil, never
// firing, without a timeout) and the function releasing its timer.
func (c *Command) Deadline() (<-chan time.Time, func()) {
	if c.Timeout <= 0 {
		return nil, func() {}
	}
	t := time.NewTimer(c.Timeout)
	return t.C, func() { t.Stop() }
}

// DirState is a shell's memory of directories besides its cwd: OLDPWD
// (`cd -`) and the pushd stack below the current directory (popd).
type DirState struct {
	OldPwd string
	Stack  []string
}

// Exit describes how a run ended.
type Exit struct {
	// Code is the shell's exit status (128+N when killed by signal N).
	Code int
	// Cwd is the directory the shell was in when it exited, measured, or ""
	// when it could not be measured (the shell was killed or exec'd).
	Cwd string
	// Dirs is the shell's directory memory when it exited, measured where
	// the host can (bash on the local host), else nil.
	Dirs *DirState
	// TimedOut is set when Timeout ended the run.
	TimedOut bool
	// Interrupted is set when the context was cancelled (Ctrl+C).
	Interrupted bool
	// Orphans is set when background processes still held the output open
	// after the shell exited and were ended.
	Orphans bool
	// Sandboxed is set when the host's isolation refused an operation the
	// command needed, and SandboxReason says which, in a phrase ("writing
	// /etc/x (read-only in the sandbox)").
	Sandboxed     bool
	SandboxReason string
	// Notes are what the host did after the command that the user and
	// the model must know (a sandbox removing files the command created
	// that would run outside it).
	Notes    []string
	Duration time.Duration
}

// PTYCommand starts an interactive program on a pseudo-terminal.
type PTYCommand struct {
	Script     string // run with the shell's -c, like Command.Script
	Dir        string
	Env        []string
	Rows, Cols int
}

// Terminal is a running PTY program. Read returns what the program wrote to
// the terminal; Write types into it.
type Terminal interface {
	io.ReadWriter
	Resize(rows, cols int) error
	// Done is closed when the program has exited; ExitCode is valid then.
	Done() <-chan struct{}
	ExitCode() int
	// Close ends the whole process group (SIGTERM, then SIGKILL) and frees
	// the terminal. It is safe to call more than once.
	Close() error
}

// Host is a place where commands run.
type Host interface {
	Name() string
	Isolation() Isolation
	// Run runs c.Script to completion. Cancelling ctx ends the process group
	// and returns with Exit.Interrupted set. The error is for failures to
	// start, not for non-zero exit codes.
	Run(ctx context.Context, c *Command) (*Exit, error)
	// StartPTY starts c on a new PTY in its own session and process group.
	StartPTY(ctx context.Context, c *PTYCommand) (Terminal, error)
	// Probe describes the machine (OS, shell, tools from detect) for the
	// system prompt.
	Probe(ctx context.Context, detect []string) (*sysinfo.Info, error)
	// Close releases connections and ends any process still running.
	Close() error
}
