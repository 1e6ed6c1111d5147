//go:build unix

package approval

import (
	"context"
	"errors"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// rawMode puts fd in raw mode and returns the function restoring it.
func rawMode(fd int) (func(), error) {
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	return func() { _ = term.Restore(fd, old) }, nil
}

// discardInput drops keystrokes typed before the prompt appeared: the
// kernel's input queue is flushed and anything already readable is read
// and thrown away.
func discardInput(fd int) {
	flushQueue(fd)
	var b [256]byte
	for i := 0; i < 64; i++ {
		ready, err := waitReadable(context.Background(), fd, 0)
		if err != nil || !ready {
			return
		}
		if n, err := unix.Read(fd, b[:]); n <= 0 || err != nil {
			return
		}
	}
}

// pollSliceMs bounds one wait so a cancelled context is noticed quickly.
const pollSliceMs = 50

// waitReadable waits until fd has input, for at most ms milliseconds (for
// ever when ms < 0), or until ctx ends.
func waitReadable(ctx context.Context, fd int, ms int) (bool, error) {
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		slice := pollSliceMs
		if ms >= 0 && ms < slice {
			slice = ms
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, slice)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return false, err
		}
		if n > 0 {
			if fds[0].Revents&(unix.POLLIN|unix.POLLHUP|unix.POLLERR) != 0 {
				return true, nil
			}
		}
		if ms >= 0 {
			ms -= slice
			if ms <= 0 {
				return false, nil
			}
		}
	}
}

// termHeight is the terminal's height in rows, 0 when unknown.
func termHeight(fd int) int {
	_, h, err := term.GetSize(fd)
	if err != nil {
		return 0
	}
	return h
}
