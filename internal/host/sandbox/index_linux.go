package sandbox

import (
	"syscall"

	"golang.org/x/sys/unix"
)

func statTimes(st *syscall.Stat_t) (mtime, ctime int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}

// trustedTimes reports a local disk or memory file system: not a network
// one (NFS, SMB, Ceph, 9P…) or FUSE, where another machine or a program
// may change a directory without its times showing it here at once.
func trustedTimes(p string) bool {
	var s unix.Statfs_t
	if unix.Statfs(p, &s) != nil {
		return false
	}
	switch int64(s.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, 0x2fc12fc1 /* zfs */, unix.BCACHEFS_SUPER_MAGIC:
		return true
	}
	return false
}
