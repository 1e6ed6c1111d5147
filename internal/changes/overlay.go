package changes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
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
	// Dir holds the overlay's directories; Close removes it.
	Dir string
	// Uppers maps each overlaid tree to its upper directory.
	Uppers map[string]string
	// Tmp is the upper directory of /tmp.
	Tmp string
	// MountPoints are the directories the sandbox created in the view to
	// cover protected paths that do not exist (a missing .git): not the
	// command's changes.
	MountPoints []string
	// Skipped are the paths the command names outside the overlaid
	// trees whose directory could not be overlaid, each with why
	// ("PATH: WHY"): a write there is the sandbox's refusal.
	Skipped []string
	// Later, when set, runs the removal Close asks for in the
	// background (its owner waits for it before it ends), so that the
	// user does not wait for a thousand files to be removed.
	Later func(remove func())
}

// Places are what a preview overlays beside the sandbox's writable
// trees: the directories of the paths a command names (Choose).
type Places struct {
	// Named are the absolute paths the command names
	// (policy.Decision.Paths).
	Named []string
	// Refuse says why the directory dir must not be overlaid (the
	// policy's protected places: a secret, a system path), "" when it may
	// be; nil refuses none.
	Refuse func(dir string) string
}

// Close removes the overlay's directories, now or, with Later, in the
// background.
func (o *Overlay) Close() error {
	if o.Later != nil {
		o.Later(func() { _ = o.remove() })
		return nil
	}
	return o.remove()
}

func (o *Overlay) remove() error {
	// the kernel leaves its work directories without permissions
	_ = filepath.WalkDir(o.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(o.Dir)
}

// FromOverlay reads what a command wrote in the upper directory of an
// overlay over the tree at lower as a change set: each path's state on
// disk now (Before) and in the overlay (After). A whiteout is a deletion,
// an opaque directory replaces the one below it with its own entries, a
// file copied up without a change is no change, and a file deleted and
// one created with the same content are a rename. Features that hide
// what changed in extended attributes (redirected directories, metadata-
// only copies) are refused.
func FromOverlay(upper, lower string) (*Set, error) {
	up, err := Open(upper)
	if err != nil {
		return nil, err
	}
	defer up.Close()
	low, err := Open(lower)
	if err != nil {
		return nil, err
	}
	defer low.Close()
	r := &overlayReader{up: up, low: low, upper: filepath.Clean(upper), lower: filepath.Clean(lower), set: &Set{}}
	if err := r.dir(".", false); err != nil {
		return nil, err
	}
	PairRenames(r.set)
	return r.set, nil
}

type overlayReader struct {
	up, low      *FS
	upper, lower string
	set          *Set
}

// dir reads the upper directory rel (relative to the tops); hidden says
// that an opaque directory above it hides the lower tree. Its entries'
// states are read at once (look), then judged in order.
func (r *overlayReader) dir(rel string, hidden bool) error {
	ents, err := os.ReadDir(filepath.Join(r.upper, rel))
	if err != nil {
		return err
	}
	looks := make([]look, len(ents))
	eachAtOnce(len(ents), func(i int) { looks[i] = r.look(filepath.Join(rel, ents[i].Name())) })
	for i, en := range ents {
		if err := r.entry(filepath.Join(rel, en.Name()), hidden, looks[i]); err != nil {
			return err
		}
	}
	return nil
}

// look is what one upper entry and the lower path under it hold.
type look struct {
	fi            fs.FileInfo
	mk            marks
	before, after State
	err           error
}

// look reads the upper entry rel, its overlay marks, the lower state
// under it and, unless it is a whiteout, its own state.
func (r *overlayReader) look(rel string) look {
	uabs, labs := filepath.Join(r.upper, rel), filepath.Join(r.lower, rel)
	var l look
	if l.fi, l.err = os.Lstat(uabs); l.err != nil {
		return l
	}
	l.mk = marksOf(uabs)
	if err := l.mk.hidden(); err != nil {
		l.err = fmt.Errorf("%s: %w", rel, err)
		return l
	}
	if l.before, l.err = r.low.Read(labs); l.err != nil || l.mk.isWhiteout(l.fi) {
		return l
	}
	l.after, l.err = r.up.Read(uabs)
	return l
}

// entry judges one upper entry, as l read it. Below an opaque directory
// the lower entries are hidden whether or not the directories there are
// marked: a directory made in an opaque one has nothing below it.
func (r *overlayReader) entry(rel string, hidden bool, l look) error {
	labs := filepath.Join(r.lower, rel)
	if l.err != nil {
		return l.err
	}
	before, after := l.before, l.after
	if l.mk.isWhiteout(l.fi) {
		return r.removed(labs, before)
	}
	if before.Type == Dir && after.Type != Dir {
		if err := r.removedBelow(labs, nil); err != nil {
			return err
		}
	}
	if after.Type == Dir {
		if before.Type != Dir || before.Mode != after.Mode {
			r.add(labs, before, after)
		}
		hidden = hidden || l.mk.isOpaque()
		if before.Type == Dir && hidden {
			if err := r.opaqueBelow(rel); err != nil {
				return err
			}
		}
		return r.dir(rel, hidden)
	}
	if !Same(before, after) {
		r.add(labs, before, after)
	}
	return nil
}

// eachAtOnce calls f for 0…n-1 from as many goroutines as Go runs at
// once (at most 8), and returns when every call has.
func eachAtOnce(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), 8, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}

func (r *overlayReader) add(p string, before, after State) {
	r.set.Files = append(r.set.Files, File{Path: p, Before: before, After: after})
}

// removed records the deletion of p, everything below it first.
func (r *overlayReader) removed(p string, before State) error {
	if !before.Exists() {
		return nil
	}
	if before.Type == Dir {
		if err := r.removedBelow(p, nil); err != nil {
			return err
		}
	}
	r.add(p, before, State{})
	return nil
}

// removedBelow records the deletion of every entry below the lower
// directory p, but those kept reports (nil: none).
func (r *overlayReader) removedBelow(p string, kept func(name string) bool) error {
	ents, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	for _, en := range ents {
		if kept != nil && kept(en.Name()) {
			continue
		}
		c := filepath.Join(p, en.Name())
		s, err := r.low.Read(c)
		if err != nil {
			return err
		}
		if err := r.removed(c, s); err != nil {
			return err
		}
	}
	return nil
}

// opaqueBelow records the deletion of the lower entries of an opaque
// directory that the upper one does not hold.
func (r *overlayReader) opaqueBelow(rel string) error {
	return r.removedBelow(filepath.Join(r.lower, rel), func(name string) bool {
		_, err := os.Lstat(filepath.Join(r.upper, rel, name))
		return err == nil
	})
}

// PairRenames marks a deleted regular file and a created one with the
// same content and mode as a rename.
func PairRenames(s *Set) {
	created := map[string]int{}
	var keys []string
	for i, f := range s.Files {
		if !f.Before.Exists() && f.After.Type == Regular && len(f.After.Data) > 0 {
			k := f.After.Digest()
			if _, dup := created[k]; !dup {
				created[k] = i
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	for i, f := range s.Files {
		if f.After.Exists() || f.Before.Type != Regular {
			continue
		}
		if k, ok := created[f.Before.Digest()]; ok {
			delete(created, f.Before.Digest())
			s.Files[i].RenamedTo = s.Files[k].Path
			s.Files[k].RenamedFrom = f.Path
			s.Files[k].Source = f.Before
		}
	}
}
