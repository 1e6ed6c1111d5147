package fleet

import (
	"context"
	"errors"
	"sync"

	"github.com/nb-cli/nb/internal/askpass"
)

// SudoPasswords are the sudo passwords of one run's hosts
// (askpass.Passwords).
type SudoPasswords interface {
	// For is host's password (nil: none).
	For(host string) []byte
	// Refused says sudo on host did not accept it.
	Refused(host string)
}

// sudoState is what a run knows of sudo on its hosts.
type sudoState struct {
	needs map[string]bool
	pw    SudoPasswords
	err   error
}

// sudoNeeds finds, in parallel, the hosts whose sudo needs a password
// and gets those passwords through req.Sudo, once for all of them.
func (f *Fleet) sudoNeeds(ctx context.Context, hosts []*Host, req Request) *sudoState {
	st := &sudoState{needs: map[string]bool{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, f.opts.Concurrency)
	for _, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			conn, err := f.conn(h)
			if err != nil {
				return // the run reports it
			}
			if need, err := conn.SudoNeedsPassword(ctx); err == nil && need {
				mu.Lock()
				st.needs[h.Name] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	var names []string
	for _, h := range hosts {
		if st.needs[h.Name] {
			names = append(names, h.Name)
		}
	}
	if len(names) > 0 && ctx.Err() == nil {
		st.pw, st.err = req.Sudo(ctx, names)
		if st.err == nil && st.pw == nil {
			st.err = errors.New("no password")
		}
	}
	return st
}

// sudoError is a host's error when its sudo needs a password nb has not.
func sudoError(err error) string {
	if errors.Is(err, askpass.ErrNoTerminal) {
		return askpass.NoTerminalAdvice + "; the command did not run here"
	}
	return "sudo here needs a password and none was given (" + err.Error() + "); the command did not run here"
}

// refusedNote ends the stderr of a host whose sudo refused the password.
const refusedNote = "[nb: sudo did not accept the password on this host; the command did not run here]"
