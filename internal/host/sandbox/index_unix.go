//go:build unix

package sandbox

import (
	"os"
	"sync"
	"syscall"
)

// statOf is p's fileStat, without following a final symbolic link.
func statOf(p string) (fileStat, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return fileStat{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{dir: fi.IsDir()}, true
	}
	mt, ct := statTimes(st)
	dev := uint64(st.Dev) //nolint:unconvert // int32 on some systems
	return fileStat{dir: fi.IsDir(), ino: int64(st.Ino), size: st.Size, mtime: mt, ctime: ct, cacheable: localFS(dev, p)}, true
}

// localDevs remembers, per device, whether its file system keeps times
// nb can trust.
var localDevs sync.Map

// localFS reports whether the file system of p (on device dev) is one
// whose times only this machine changes, as they are seen at once.
func localFS(dev uint64, p string) bool {
	if v, ok := localDevs.Load(dev); ok {
		return v.(bool)
	}
	ok := trustedTimes(p)
	localDevs.Store(dev, ok)
	return ok
}
