//go:build unix

package lineedit

import (
	"time"

	"golang.org/x/sys/unix"
)

// readable reports whether the terminal fd has input within d.
func readable(fd int, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	deadline := time.Now().Add(d)
	for {
		ms := int(time.Until(deadline) / time.Millisecond)
		n, err := unix.Poll(fds, max(ms, 0))
		if err == unix.EINTR && time.Now().Before(deadline) {
			continue
		}
		return err == nil && n > 0 && fds[0].Revents&(unix.POLLIN|unix.POLLHUP) != 0
	}
}
