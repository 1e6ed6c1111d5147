// Package askpass lets an approved command's sudo ask the person at the
// terminal for its password, never the model (SPEC §17).
//
// On this machine a command runs with a private directory first on its
// PATH: its sudo is a small script running the real sudo with -A, and
// SUDO_ASKPASS names nb itself in its helper mode (nb __sudo-askpass).
// sudo closes every descriptor above stderr before it starts the askpass
// program, so the helper reaches the running nb over a Unix socket (its
// address written into the script sudo runs; the run's token in the
// environment). The bridge answers only
// nb's own helper (its executable is this nb) whose parent is a sudo
// running as root for the user who runs nb, with the environment nb gave
// the command (not a command sudo itself runs), and whose output is a
// pipe no other process of the user holds; it asks the user at nb's
// masked prompt, naming the command, and hands the password to sudo
// through the helper's standard output. The helper stops being traceable
// before it receives the password. Nothing of the password reaches argv,
// an environment, the model, the history, the audit log or the disk; the
// byte slices holding it are zeroed once it is used. "Remember for this
// session" keeps it in memory only, until Forget (/clear) or Close (exit).
//
// Without a terminal (json, stream-json, nb tool, nb mcp serve) the
// helper is answered at once: sudo fails, the run says what to do, and a
// single-shot run ends with exit code 3. A fleet run (Passwords) asks once
// for the hosts whose sudo needs a password; package fleet feeds each
// host's sudo over the connection (sudo -S -v reading it from standard
// input in the shell that then runs the command).
//
// su and doas cannot be answered this way: their shims say so instead of
// letting them fail with a bare "Authentication failure".
package askpass

import (
	"context"
	"errors"
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// HelperArg is the hidden first argument of nb's askpass helper mode:
// nb __sudo-askpass ADDRESS PROMPT, ADDRESS being the bridge's socket.
// The address is written into the script sudo runs, not taken from the
// environment, so a command cannot point the helper at a bridge of its
// own.
const HelperArg = "__sudo-askpass"

// EnvBridge is the variable telling the helper which run it asks for
// (a token the bridge gave the run).
const EnvBridge = "NB_SUDO_ASKPASS"

// MaxPassword bounds a password (sudo reads at most 1023 bytes of one).
const MaxPassword = 1023

// Errors of an Asker.
var (
	// ErrNoTerminal: nobody can be asked (no terminal).
	ErrNoTerminal = errors.New("no terminal to ask for the password at")
	// ErrCancelled: the user cancelled the prompt (Esc, Ctrl+D).
	ErrCancelled = errors.New("the password prompt was cancelled")
	// ErrInterrupted: the user pressed Ctrl+C at the prompt; the turn
	// stops.
	ErrInterrupted = errors.New("interrupted at the password prompt")
)

// Question is what the user is asked for.
type Question struct {
	// Command is the approved command the password is for.
	Command string
	// Prompt is sudo's own prompt ("[sudo] password for alice: "), as
	// sudo gave it (the command may have chosen it with -p).
	Prompt string
	// Hosts are the fleet hosts the password is for; none means this
	// machine.
	Hosts []string
	// Retry says sudo refused the password given before.
	Retry bool
	// PerHost offers the choice of one password per host (a fleet
	// question for several hosts).
	PerHost bool
	// Previous says an empty answer means the previous host's password
	// (the per-host questions after the first).
	Previous bool
}

// Answer is the user's reply.
type Answer struct {
	// Password is what was typed; the receiver zeroes it after use.
	Password []byte
	// Remember keeps it in memory for the rest of the session.
	Remember bool
	// PerHost asks each host for its own password (Password is then
	// empty).
	PerHost bool
}

// Asker asks the user for a password (the CLI's terminal prompt).
type Asker interface {
	AskPassword(ctx context.Context, q Question) (Answer, error)
}

// Wipe zeroes b.
func Wipe(b []byte) { clear(b) }

// RunsSudo reports whether command may run sudo: a command of its
// analysis is sudo, or one cannot be named before it runs (a command
// name from a variable, text the parser does not understand).
func RunsSudo(command string) bool {
	a := shellparse.Analyse(command, shellparse.Options{Programs: cmdbase.Programs{}})
	if a.Err != nil {
		return true
	}
	for _, l := range a.Leaves {
		if len(l.Words) == 0 {
			continue
		}
		if l.Name() == "" || l.Base() == "sudo" {
			return true
		}
	}
	return false
}

// Outcome is what sudo asked of nb during one run.
type Outcome struct {
	// Asked counts sudo's password requests.
	Asked int
	// NoTerminal: a request found no terminal to ask at.
	NoTerminal bool
	// Cancelled: the user cancelled or interrupted the prompt.
	Cancelled bool
	// Refused holds why requests were refused that did not come from
	// sudo's own askpass helper.
	Refused []string
}

// NoTerminalAdvice says what to do when sudo needs a password and
// nobody can be asked. A `sudo -v` typed in a terminal helps only where
// sudo keeps one time stamp for all of a user's sessions: by default it
// keeps one per terminal, and nb's commands have none.
const NoTerminalAdvice = "sudo needed a password and nb had no terminal to ask at: allow this command without a password (NOPASSWD in sudoers), run nb in a terminal so that it can ask you, or, where sudoers sets timestamp_type=global, run `sudo -v` first"

// Note is the line run_cmd adds to its result ("" when there is
// nothing to say).
func (o Outcome) Note() string {
	var parts []string
	if o.NoTerminal {
		parts = append(parts, NoTerminalAdvice)
	}
	if o.Cancelled {
		parts = append(parts, "the user cancelled sudo's password prompt")
	}
	for _, r := range o.Refused {
		parts = append(parts, "nb refused a password request: "+r)
	}
	return strings.Join(parts, "; ")
}
