package changes

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// marks are the overlay attributes of an upper entry, read with one
// listing of its extended attributes (most entries have none).
type marks struct {
	whiteout, opaque, redirect, metacopy bool
}

// marksOf lists p's overlay attributes, in the user namespace (an
// unprivileged overlay's) and the trusted one.
func marksOf(p string) marks {
	var m marks
	buf := make([]byte, 256)
	n, err := unix.Llistxattr(p, buf)
	if errors.Is(err, unix.ERANGE) {
		if size, err2 := unix.Llistxattr(p, nil); err2 == nil {
			buf = make([]byte, size)
			n, err = unix.Llistxattr(p, buf)
		}
	}
	if err != nil || n <= 0 {
		return m
	}
	for _, name := range bytes.Split(buf[:n], []byte{0}) {
		rest, ok := bytes.CutPrefix(name, []byte("user.overlay."))
		if !ok {
			rest, ok = bytes.CutPrefix(name, []byte("trusted.overlay."))
		}
		if !ok {
			continue
		}
		switch string(rest) {
		case "whiteout":
			m.whiteout = true
		case "opaque":
			m.opaque = opaqueValue(p, string(name))
		case "redirect":
			m.redirect = true
		case "metacopy":
			m.metacopy = true
		}
	}
	return m
}

// opaqueValue reports an opaque attribute that hides the lower
// directory's entries ("y").
func opaqueValue(p, name string) bool {
	buf := make([]byte, 8)
	n, err := unix.Lgetxattr(p, name, buf)
	return err == nil && n > 0 && buf[0] == 'y'
}

// isWhiteout reports an overlay whiteout: a character device 0/0, or an
// empty file carrying the whiteout attribute (an unprivileged overlay's
// "xwhiteout").
func (m marks) isWhiteout(fi fs.FileInfo) bool {
	if isCharDevice(fi) {
		st, ok := fi.Sys().(*syscall.Stat_t)
		return ok && st.Rdev == 0
	}
	return fi.Mode().IsRegular() && fi.Size() == 0 && m.whiteout
}

// isOpaque reports a directory that hides the lower one's entries.
func (m marks) isOpaque() bool { return m.opaque }

// hidden refuses an entry whose change the overlay keeps in attributes
// only: a redirected directory, a metadata-only copy.
func (m marks) hidden() error {
	switch {
	case m.redirect:
		return errors.New("the overlay recorded it as redirect, which nb does not read")
	case m.metacopy:
		return errors.New("the overlay recorded it as metacopy, which nb does not read")
	}
	return nil
}

// isCharDevice reports a character device (a whiteout's type).
func isCharDevice(fi fs.FileInfo) bool {
	return fi.Mode()&fs.ModeCharDevice != 0 && fi.Mode()&fs.ModeDevice != 0
}
