//go:build linux

package gitsnap

import (
	"io/fs"
	"syscall"

	"github.com/nb-cli/nb/internal/changes"
)

// sig is what a file's stat says of it: when it changed, nothing else
// did.
type sig struct {
	size, mtime, ctime int64
	ino                uint64
	mode               fs.FileMode
}

func sigOf(fi fs.FileInfo) sig {
	s := sig{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode() & changes.ModeBits}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ctime = st.Ctim.Sec*1e9 + st.Ctim.Nsec
		s.ino = st.Ino
	}
	return s
}
