package store

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockOffsetHigh places the locked byte far past the file's content: a
// LockFileEx lock is mandatory, and the holder's pid at the start of the
// file must stay readable by the nb that is refused.
const lockOffsetHigh = 1 << 30

// tryLock takes an exclusive lock on one byte of f without waiting
// (LockFileEx); Windows releases it when f is closed or the process ends.
func tryLock(f *os.File) error {
	ol := &windows.Overlapped{OffsetHigh: lockOffsetHigh}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
}

// lockDir is a no-op on Windows, where the lock file in the state
// directory is the only lock.
func lockDir(string) (*os.File, error) { return nil, nil }
