//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package lineedit

import "golang.org/x/sys/unix"

// fionread is FIONREAD, _IOR('f', 127, int), the same on the BSDs.
const fionread = 0x4004667f

// queued is how many bytes wait unread in the terminal's input queue.
func queued(fd int) int {
	n, err := unix.IoctlGetInt(fd, fionread)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
