package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/iostreams"
)

// Exit codes (SPEC §1).
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
	// ExitApproval: a tool call needed an approval nobody could give
	// (no terminal to ask at); the answer may still have been printed.
	ExitApproval = 3
	// ExitToolLimit: the message used up maxToolCalls.
	ExitToolLimit   = 4
	ExitInterrupted = 130
)

// Every command returns an error, and exitCode is the one place that
// turns it into nb's exit status; Main prints it (unless it was shown
// already) as one "nb: ..." line.

var (
	// errInterrupted ends a run that Ctrl+C, SIGTERM or SIGHUP stopped.
	errInterrupted = errors.New("interrupted")
	// errApproval ends a run in which a tool call needed an approval and
	// there was no terminal to ask at.
	errApproval = errors.New("a tool call needed approval and there was no terminal to ask at")
)

// exitCode is the exit status a run that ended with err returns.
func exitCode(err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue):
		return ExitUsage
	case errors.Is(err, errInterrupted), errors.Is(err, context.Canceled):
		return ExitInterrupted
	case errors.Is(err, errApproval):
		return ExitApproval
	case errors.Is(err, agent.ErrToolLimit):
		return ExitToolLimit
	}
	return ExitError
}

// shownError is an error the user has already seen (the chat showed it,
// or it needs no words, as an interruption): Main prints nothing more.
type shownError struct{ err error }

func (e *shownError) Error() string { return e.err.Error() }
func (e *shownError) Unwrap() error { return e.err }

// shown marks err as already shown; nil stays nil.
func shown(err error) error {
	if err == nil {
		return nil
	}
	return &shownError{err}
}

// finish prints err, unless it was shown already, and returns its exit
// status.
func finish(io *iostreams.IO, err error) int {
	var se *shownError
	if err != nil && !errors.As(err, &se) {
		fmt.Fprintln(io.Err, "nb: "+err.Error())
	}
	return exitCode(err)
}
