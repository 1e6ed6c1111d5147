package changes

import (
	"os"

	"golang.org/x/sys/unix"
)

// canSyncFS says syncFS flushes a whole file system.
const canSyncFS = true

// syncFS flushes the file system holding d.
func syncFS(d *os.File) error { return unix.Syncfs(int(d.Fd())) }
