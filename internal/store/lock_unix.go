//go:build unix

package store

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on f without waiting; it is
// released when f is closed or the process ends.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
