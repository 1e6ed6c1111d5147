//go:build unix

package changes

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives h, the file about to replace one that prev describes,
// prev's owner and group where this user may: a file of another user (nb
// run by root) or of a shared group stays theirs. Where the owner cannot
// be kept, the group is tried alone.
func keepOwner(h *os.File, prev fs.FileInfo) {
	st, ok := prev.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if h.Chown(int(st.Uid), int(st.Gid)) != nil {
		_ = h.Chown(-1, int(st.Gid))
	}
}
