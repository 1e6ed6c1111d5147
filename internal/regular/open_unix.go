//go:build unix

package regular

import (
	"os"
	"syscall"
)

// nonBlock makes opening a FIFO return at once.
const nonBlock = syscall.O_NONBLOCK

// setBlocking makes reads of a regular file's descriptor ordinary again.
func setBlocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
