package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/nb-cli/nb/internal/askpass"
)

// sudoPrompt is the app's side of sudo's password requests (package
// askpass): nb's masked prompt when a terminal can be asked; otherwise a
// line saying what to do, and a single-shot run ends with exit code 3.
type sudoPrompt struct {
	prompt *askpass.Prompt
	// hold keeps the transcript still while the prompt is up (the live
	// view of the running command); interrupt stops the turn (Ctrl+C).
	hold      func() (release func())
	interrupt func()

	mu     sync.Mutex
	needed bool // a password was needed and nobody could be asked
	// asking holds the terminal for one question at a time (sudo
	// commands in a pipeline may ask together).
	asking sync.Mutex
}

// AskPassword implements askpass.Asker.
func (a *app) AskPassword(ctx context.Context, q askpass.Question) (askpass.Answer, error) {
	sp := &a.sudo
	if !canPrompt(a.io) {
		sp.mu.Lock()
		first := !sp.needed
		sp.needed = true
		sp.mu.Unlock()
		if first {
			fmt.Fprintln(a.io.Err, "nb: "+askpass.NoTerminalAdvice)
		}
		return askpass.Answer{}, askpass.ErrNoTerminal
	}
	sp.asking.Lock()
	defer sp.asking.Unlock()
	if sp.hold != nil {
		defer sp.hold()()
	}
	if a.pauseKeys != nil {
		// Keys typed during the turn stay away from the password.
		defer a.pauseKeys()()
	}
	ans, err := sp.prompt.AskPassword(ctx, q)
	if errors.Is(err, askpass.ErrInterrupted) && sp.interrupt != nil {
		sp.interrupt()
	}
	return ans, err
}

// passwordNeeded reports whether sudo needed a password nobody could give.
func (a *app) passwordNeeded() bool {
	a.sudo.mu.Lock()
	defer a.sudo.mu.Unlock()
	return a.sudo.needed
}
