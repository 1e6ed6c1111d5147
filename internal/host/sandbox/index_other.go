//go:build !unix

package sandbox

import "os"

// statOf is p's fileStat; this system's times are not relied on.
func statOf(p string) (fileStat, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return fileStat{}, false
	}
	return fileStat{dir: fi.IsDir(), size: fi.Size()}, true
}
