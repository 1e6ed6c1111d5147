package changes

import (
	"errors"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// whiteout reports an overlay whiteout: a character device 0/0, or an
// empty file carrying the whiteout attribute (an unprivileged overlay's
// "xwhiteout").
func whiteout(p string, fi fs.FileInfo) bool {
	if isCharDevice(fi) {
		st, ok := fi.Sys().(*syscall.Stat_t)
		return ok && st.Rdev == 0
	}
	return fi.Mode().IsRegular() && fi.Size() == 0 && (hasXattr(p, "user.overlay.whiteout") || hasXattr(p, "trusted.overlay.whiteout"))
}

// opaque reports a directory that hides the lower one's entries.
func opaque(p string) bool {
	for _, name := range []string{"user.overlay.opaque", "trusted.overlay.opaque"} {
		buf := make([]byte, 8)
		n, err := unix.Lgetxattr(p, name, buf)
		if err == nil && n > 0 && buf[0] == 'y' {
			return true
		}
	}
	return false
}

// hiddenChange refuses an entry whose change the overlay keeps in
// attributes only: a redirected directory, a metadata-only copy.
func hiddenChange(p string) error {
	for _, name := range []string{"redirect", "metacopy"} {
		if hasXattr(p, "user.overlay."+name) || hasXattr(p, "trusted.overlay."+name) {
			return errors.New("the overlay recorded it as " + name + ", which nb does not read")
		}
	}
	return nil
}

func hasXattr(p, name string) bool {
	_, err := unix.Lgetxattr(p, name, nil)
	return err == nil
}

// isCharDevice reports a character device (a whiteout's type).
func isCharDevice(fi fs.FileInfo) bool {
	return fi.Mode()&fs.ModeCharDevice != 0 && fi.Mode()&fs.ModeDevice != 0
}
