//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// inode identifies a file: its device and inode numbers.
type inode struct{ dev, ino uint64 }

// inodeOf returns fi's identity and its number of names (hard links).
func inodeOf(fi os.FileInfo) (id inode, links uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return inode{}, 0, false
	}
	return inode{dev: uint64(st.Dev), ino: uint64(st.Ino)}, uint64(st.Nlink), true
}
