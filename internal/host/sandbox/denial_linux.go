//go:build linux

package sandbox

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// readOnlyOutside reports whether p, or the directory that would hold
// it, lies on a file system mounted read-only outside the sandbox too.
func readOnlyOutside(p string) bool {
	if _, err := os.Lstat(p); err != nil {
		p = filepath.Dir(p)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return false
	}
	return st.Flags&unix.ST_RDONLY != 0
}
