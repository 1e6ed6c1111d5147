//go:build unix

package sandbox

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// writableOutside reports whether nb's user may write p outside the
// sandbox: the file when it exists, else its directory (to create it).
func writableOutside(p string) bool {
	if _, err := os.Lstat(p); err != nil {
		p = filepath.Dir(p)
	}
	return unix.Access(p, unix.W_OK) == nil
}
