package sandbox

import (
	"syscall"

	"golang.org/x/sys/unix"
)

func statTimes(st *syscall.Stat_t) (mtime, ctime int64) {
	return st.Mtimespec.Nano(), st.Ctimespec.Nano()
}

// trustedTimes reports a local disk (APFS, HFS+), not a network share.
func trustedTimes(p string) bool {
	var s unix.Statfs_t
	if unix.Statfs(p, &s) != nil {
		return false
	}
	switch unix.ByteSliceToString(s.Fstypename[:]) {
	case "apfs", "hfs":
		return true
	}
	return false
}
