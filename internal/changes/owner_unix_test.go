//go:build unix

package changes

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file nb replaces keeps its owner, group and mode (setgid included),
// and so does the one /undo puts back: nb run by root editing a user's
// file, or a user editing a file of a shared group, left it root's or
// the user's, so that its owner or group could no longer write it.
func TestReplaceKeepsOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a file another user's owner needs root")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "shared.txt")
	must(t, os.WriteFile(p, []byte("one\n"), 0o664))
	must(t, os.Chown(p, 4242, 4343))
	must(t, os.Chmod(p, fs.ModeSetgid|0o775))
	fsys, err := Open(dir)
	must(t, err)
	defer fsys.Close()
	set := changeOf(t, fsys, map[string]State{p: {Type: Regular, Mode: fs.ModeSetgid | 0o775, Data: []byte("two\n")}})
	check := func(when string) {
		var st syscall.Stat_t
		must(t, syscall.Stat(p, &st))
		if st.Uid != 4242 || st.Gid != 4343 || st.Mode&0o7777 != 0o2775 {
			t.Errorf("%s: owner %d:%d mode %o, want 4242:4343 2775", when, st.Uid, st.Gid, st.Mode&0o7777)
		}
	}
	must(t, Apply(fsys, set))
	check("after the change")
	must(t, Revert(fsys, set))
	check("after /undo")
}
