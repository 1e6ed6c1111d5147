//go:build unix

package askpass

import (
	"context"
	"errors"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// terminal is the prompt's keyboard: fd in raw mode.
type terminal struct {
	fd  int
	old *term.State
}

// openTerminal puts fd in raw mode (no echo, no signals: Ctrl+C arrives
// as a key) and throws away what was typed before the prompt.
func openTerminal(fd int) (*terminal, error) {
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	t := &terminal{fd: fd, old: old}
	t.discard()
	return t, nil
}

func (t *terminal) restore() { _ = term.Restore(t.fd, t.old) }

// discard drops keys typed before the prompt appeared: they were meant for
// something else and must not become part of a password.
func (t *terminal) discard() {
	flushInput(t.fd)
	var b [256]byte
	defer Wipe(b[:])
	for range 64 {
		if ok, err := t.wait(context.Background(), 0); err != nil || !ok {
			return
		}
		if n, err := unix.Read(t.fd, b[:]); n <= 0 || err != nil {
			return
		}
	}
}

// pollSlice bounds one wait, so a cancelled context is noticed soon.
const pollSlice = 50

// wait waits up to ms milliseconds (for ever when negative) for input.
func (t *terminal) wait(ctx context.Context, ms int) (bool, error) {
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		slice := pollSlice
		if ms >= 0 && ms < slice {
			slice = ms
		}
		fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, slice)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return false, err
		}
		if n > 0 && fds[0].Revents != 0 {
			return true, nil
		}
		if ms >= 0 {
			if ms -= slice; ms <= 0 {
				return false, nil
			}
		}
	}
}

func (t *terminal) read(ctx context.Context, b []byte) (int, error) {
	for {
		if _, err := t.wait(ctx, -1); err != nil {
			return 0, err
		}
		n, err := unix.Read(t.fd, b)
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, errors.New("the terminal closed")
		}
		return n, nil
	}
}

// more reports whether input arrives within 30 ms.
func (t *terminal) more(ctx context.Context) bool {
	ok, err := t.wait(ctx, 30)
	return ok && err == nil
}
