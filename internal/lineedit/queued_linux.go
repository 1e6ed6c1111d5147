//go:build linux

package lineedit

import "golang.org/x/sys/unix"

// queued is how many bytes wait unread in the terminal's input queue.
func queued(fd int) int {
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
