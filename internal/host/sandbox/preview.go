package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// ErrNoPreview says why a command cannot run in a copy-on-write view
// here: no bubblewrap (the Landlock sandbox cannot mount), or overlays
// refused by the kernel.
var ErrNoPreview = errors.New("no copy-on-write preview")

// Overlay is the copy-on-write view of one preview run: for each
// writable tree of the sandbox (the workspace and the trees the
// configuration adds) the directory its writes landed in, and the one of
// /tmp, whose lower tree is empty. Nothing written in the run reached the
// disk below.
type Overlay struct {
	base string
	// Uppers maps each overlaid tree to its upper directory.
	Uppers map[string]string
	// Tmp is the upper directory of /tmp.
	Tmp string
	// MountPoints are the directories the sandbox created in the view to
	// cover protected paths that do not exist (a missing .git): not the
	// command's changes.
	MountPoints []string
}

// Close removes the overlay's directories.
func (o *Overlay) Close() error {
	// the kernel leaves its work directories without permissions
	_ = filepath.WalkDir(o.base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(o.base)
}

// probe is the outcome of previewable, checked once per host.
type probe struct {
	probeOnce sync.Once
	probeErr  error
}
