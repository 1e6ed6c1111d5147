//go:build unix

package regular

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only without waiting (a FIFO with no
// writer opens at once).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

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
