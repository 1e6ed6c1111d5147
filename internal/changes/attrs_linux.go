package changes

import (
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// keepAttrs gives h the extended attributes of the file rel it replaces:
// its access lists (system.posix_acl_access), security labels and the
// user's own. A file's capabilities are not carried over: the kernel
// drops them when a file is written, and so does this. What this user may
// not set (another user's trusted.*) is left out.
func keepAttrs(root *os.Root, rel string, h *os.File) {
	old, err := root.Open(rel)
	if err != nil {
		return
	}
	defer old.Close()
	fd := int(old.Fd())
	size, err := unix.Flistxattr(fd, nil)
	if err != nil || size <= 0 {
		return
	}
	buf := make([]byte, size)
	if size, err = unix.Flistxattr(fd, buf); err != nil {
		return
	}
	for _, name := range strings.Split(strings.TrimRight(string(buf[:size]), "\x00"), "\x00") {
		if name == "" || name == "security.capability" {
			continue
		}
		n, err := unix.Fgetxattr(fd, name, nil)
		if err != nil || n < 0 {
			continue
		}
		val := make([]byte, n)
		if n, err = unix.Fgetxattr(fd, name, val); err != nil {
			continue
		}
		_ = unix.Fsetxattr(int(h.Fd()), name, val[:n], 0)
	}
}
