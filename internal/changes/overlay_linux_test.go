package changes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
	"golang.org/x/sys/unix"
)

// An unprivileged overlay's marks, kept in user.overlay.* attributes, are
// read: an empty file marked as a whiteout is a deletion, a directory
// marked opaque hides the lower one's entries, a redirected directory is
// refused.
func TestOverlayAttributeMarks(t *testing.T) {
	upper, lower := t.TempDir(), t.TempDir()
	for p, c := range map[string]string{"gone.txt": "bye\n", "d/old.txt": "old\n", "kept.txt": "kept\n"} {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(lower, p)), 0o755))
		must(t, os.WriteFile(filepath.Join(lower, p), []byte(c), 0o644))
	}
	must(t, os.WriteFile(filepath.Join(upper, "gone.txt"), nil, 0o644))
	if err := unix.Lsetxattr(filepath.Join(upper, "gone.txt"), "user.overlay.whiteout", []byte("y"), 0); err != nil {
		testenv.Missing(t, "user extended attributes on "+upper+": "+err.Error())
	}
	must(t, os.MkdirAll(filepath.Join(upper, "d"), 0o755))
	must(t, os.WriteFile(filepath.Join(upper, "d", "new.txt"), []byte("new\n"), 0o644))
	must(t, unix.Lsetxattr(filepath.Join(upper, "d"), "user.overlay.opaque", []byte("y"), 0))
	set, err := FromOverlay(upper, lower)
	must(t, err)
	var got []string
	for _, f := range set.Files {
		got = append(got, string(f.Kind())+" "+strings.TrimPrefix(f.Path, lower+"/"))
	}
	if want := "deleted d/old.txt, created d/new.txt, deleted gone.txt"; strings.Join(got, ", ") != want {
		t.Errorf("changes %q, want %s", got, want)
	}
	must(t, unix.Lsetxattr(filepath.Join(upper, "d"), "user.overlay.redirect", []byte("/x"), 0))
	if _, err := FromOverlay(upper, lower); err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("a redirected directory: %v", err)
	}
}
