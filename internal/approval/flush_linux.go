package approval

import "golang.org/x/sys/unix"

func flushQueue(fd int) { _ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
