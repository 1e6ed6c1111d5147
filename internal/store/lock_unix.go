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

// lockDir takes an exclusive advisory lock on directory dir itself, without
// waiting. The lock belongs to the directory's inode, so every path that
// reaches it (symlinks, bind mounts, another HOME, another user) meets the
// same lock. It is released when the returned file is closed or the
// process ends. ErrLocked means another process holds it.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if err == syscall.EWOULDBLOCK {
			return nil, ErrLocked
		}
		return nil, err
	}
	return f, nil
}
