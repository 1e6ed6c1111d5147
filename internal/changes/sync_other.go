//go:build !linux

package changes

import "os"

// canSyncFS says syncFS cannot flush a whole file system here: files
// are synced one by one.
const canSyncFS = false

// syncFS flushes what can be flushed from d where there is no syncfs.
func syncFS(d *os.File) error {
	_ = d.Sync() // directories cannot be synced everywhere
	return nil
}
