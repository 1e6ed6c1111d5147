package askpass

import "golang.org/x/sys/unix"

// flushInput empties the terminal's input queue.
func flushInput(fd int) { _ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
