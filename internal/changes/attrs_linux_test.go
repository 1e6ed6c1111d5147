package changes

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/nb-cli/nb/internal/testenv"
)

// xattrDir is a directory whose file system keeps user extended
// attributes (a tmpfs before Linux 6.6 does not).
func xattrDir(t *testing.T) string {
	for _, base := range []string{"", "/var/tmp"} {
		dir, err := os.MkdirTemp(base, "nb-xattr-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		probe := filepath.Join(dir, "probe")
		if os.WriteFile(probe, nil, 0o644) == nil && unix.Setxattr(probe, "user.nb-probe", []byte("1"), 0) == nil {
			return dir
		}
	}
	testenv.Missing(t, "no file system here keeps user extended attributes")
	return ""
}

// TestWriteKeepsAttributes: a file replaced through a temporary file keeps
// its extended attributes (access lists, labels, the user's own), and
// does not keep file capabilities, which the kernel drops on a write.
func TestWriteKeepsAttributes(t *testing.T) {
	dir := xattrDir(t)
	p := filepath.Join(dir, "f.txt")
	must(t, os.WriteFile(p, []byte("old\n"), 0o644))
	must(t, unix.Setxattr(p, "user.origin", []byte("downloads"), 0))
	capSet := unix.Setxattr(p, "security.capability", []byte{0, 0, 0, 2, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0) == nil
	fsys, err := Open(dir)
	must(t, err)
	defer fsys.Close()
	must(t, fsys.Write(p, State{Type: Regular, Mode: 0o644, Data: []byte("new\n")}))
	buf := make([]byte, 64)
	n, err := unix.Getxattr(p, "user.origin", buf)
	if err != nil || string(buf[:n]) != "downloads" {
		t.Errorf("user.origin after the write: %q %v", buf[:max(n, 0)], err)
	}
	if capSet {
		if _, err := unix.Getxattr(p, "security.capability", buf); err == nil {
			t.Error("the file's capabilities were carried over to new content")
		}
	}
	if got, _ := os.ReadFile(p); string(got) != "new\n" {
		t.Errorf("content %q", got)
	}
}
