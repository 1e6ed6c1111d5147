// Package changes is what nb knows of the changes it makes to files: a
// change proposed for approval (the states of each path before and after,
// shown as a diff), applied only when every path still holds what the
// user saw, and kept in a journal of the conversation so that /undo can
// put back the state before, refusing, and naming the file, when someone
// changed it since.
//
// A path's state is its type (absent, regular file, symbolic link,
// directory), its permission bits and its bytes; the bytes are kept whole
// (a file's content, a link's target). Writes replace a file through a
// temporary file in the same directory, synced and renamed over it, and
// every operation goes through an os.Root, so a directory swapped for a
// link meanwhile cannot lead the write out of it.
package changes

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
	"unicode/utf8"
)

// Type is what a path is.
type Type string

const (
	Absent  Type = ""
	Regular Type = "file"
	Symlink Type = "symlink"
	Dir     Type = "dir"
)

// ModeBits are the mode bits a state keeps.
const ModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// State is what one path holds at one moment.
type State struct {
	Type Type        `json:"type,omitempty"`
	Mode fs.FileMode `json:"mode,omitempty"`
	// Data is a file's content or a link's target; nil for a directory.
	Data []byte `json:"-"`
	// Sum is the digest of Type, Mode and Data (Digest), kept when Data
	// is dropped (a journal keeps the after-state by its digest only).
	Sum string `json:"sum,omitempty"`
	// Size is len(Data).
	Size int64 `json:"size,omitempty"`
}

// Exists reports whether the path is there.
func (s State) Exists() bool { return s.Type != Absent }

// Digest identifies the state: equal digests mean equal type, mode and
// bytes.
func (s State) Digest() string {
	if s.Sum != "" {
		return s.Sum
	}
	return digest(s.Type, s.Mode, s.Data)
}

// Same reports whether a and b are the same state (equal digests): when
// both hold their bytes they are compared directly, which costs a
// fraction of hashing them.
func Same(a, b State) bool {
	if a.Sum != "" || b.Sum != "" {
		return a.Digest() == b.Digest()
	}
	if a.Type == Absent || b.Type == Absent {
		return a.Type == b.Type
	}
	return a.Type == b.Type && a.Mode&ModeBits == b.Mode&ModeBits && bytes.Equal(a.Data, b.Data)
}

func digest(t Type, m fs.FileMode, data []byte) string {
	if t == Absent {
		return "absent"
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %o %d\x00", t, uint32(m&ModeBits), len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// Sealed returns s with its digest and size filled in.
func (s State) Sealed() State {
	if s.Sum == "" {
		s.Sum = s.Digest()
	}
	s.Size = int64(len(s.Data))
	return s
}

// Text reports whether the state's bytes are text a diff can show: valid
// UTF-8 without NUL bytes.
func (s State) Text() bool {
	return s.Type != Regular || bytes.IndexByte(s.Data, 0) < 0 && utf8.Valid(s.Data)
}

// MaxFile bounds the bytes of a file a state holds: a larger file is
// refused rather than read whole.
const MaxFile = 64 << 20

// ErrTooLarge is returned for a file over MaxFile.
var ErrTooLarge = errors.New("file too large to keep")

// FS is a directory tree nb changes files in, opened as an os.Root;
// paths given to it are absolute and must lie below its Dir.
type FS struct {
	dir  string
	root *os.Root
	// lazy skips each file's fsync: the writer syncs the file system once
	// when many files are written together (syncAll).
	lazy bool
}

// Open opens the tree at dir (absolute).
func Open(dir string) (*FS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &FS{dir: filepath.Clean(dir), root: r}, nil
}

// OnRoot is the tree of an open root at dir (the file tools' roots).
func OnRoot(dir string, r *os.Root) *FS { return &FS{dir: filepath.Clean(dir), root: r} }

// Close closes the root.
func (f *FS) Close() error { return f.root.Close() }

// rel is p's name below the tree, or an error when p is outside it.
func (f *FS) rel(p string) (string, error) {
	rel, err := filepath.Rel(f.dir, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", fmt.Errorf("%s: outside %s", p, f.dir)
	}
	return rel, nil
}

// Read returns the state of p now. A file over MaxFile is ErrTooLarge;
// a FIFO, socket or device is an error (nb never opens one).
func (f *FS) Read(p string) (State, error) {
	rel, err := f.rel(p)
	if err != nil {
		return State{}, err
	}
	fi, err := f.root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return State{}, nil
	}
	if err != nil {
		return State{}, err
	}
	mode := fi.Mode() & ModeBits
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := f.root.Readlink(rel)
		if err != nil {
			return State{}, err
		}
		return State{Type: Symlink, Data: []byte(target)}, nil
	case fi.IsDir():
		return State{Type: Dir, Mode: mode}, nil
	case !fi.Mode().IsRegular():
		return State{}, fmt.Errorf("%s: not a regular file", p)
	case fi.Size() > MaxFile:
		return State{}, fmt.Errorf("%s: %w (%d bytes)", p, ErrTooLarge, fi.Size())
	}
	h, err := f.root.OpenFile(rel, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return State{}, err
	}
	defer h.Close()
	data, err := readSized(h, fi.Size())
	if err != nil {
		return State{}, err
	}
	if len(data) > MaxFile {
		return State{}, fmt.Errorf("%s: %w", p, ErrTooLarge)
	}
	return State{Type: Regular, Mode: mode, Data: data}, nil
}

// readSized reads r whole, at most MaxFile+1 bytes, into a buffer of the
// size the file had when it was looked at (one allocation, no copies
// for a file that did not grow meanwhile).
func readSized(r io.Reader, size int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, MaxFile)+1)
	for int64(len(buf)) <= MaxFile {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // it grew: let append pick the size
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// Write makes p hold s: a file through a temporary file renamed over it,
// a link replaced the same way, a directory created (or its mode set),
// Absent removed (a directory only when empty). Missing parent
// directories are created.
func (f *FS) Write(p string, s State) error {
	rel, err := f.rel(p)
	if err != nil {
		return err
	}
	if (s.Type == Regular || s.Type == Symlink) && s.Data == nil && s.Size > 0 {
		// a state kept by its digest alone: writing it would empty the file
		return fmt.Errorf("%s: the content to write is not kept", p)
	}
	if s.Type != Absent {
		if dir := filepath.Dir(rel); dir != "." {
			if err := f.root.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
	}
	switch s.Type {
	case Absent:
		err := f.root.Remove(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	case Dir:
		if fi, err := f.root.Lstat(rel); err == nil && fi.IsDir() {
			return f.root.Chmod(rel, s.Mode)
		} else if err == nil {
			// a file or link where the directory goes
			if err := f.root.Remove(rel); err != nil {
				return err
			}
		}
		if err := f.root.Mkdir(rel, s.Mode&fs.ModePerm); err != nil {
			return err
		}
		return f.root.Chmod(rel, s.Mode)
	case Symlink:
		return f.replace(rel, func(tmp string) error { return f.root.Symlink(string(s.Data), tmp) })
	case Regular:
		prev, err := f.root.Lstat(rel)
		if err != nil || !prev.Mode().IsRegular() {
			prev = nil
		}
		return f.replace(rel, func(tmp string) error { return writeTemp(f.root, tmp, s, rel, prev, !f.lazy) })
	}
	return fmt.Errorf("%s: unknown type %q", p, s.Type)
}

// replace creates a temporary entry beside rel with make, then renames it
// over rel. A directory in the way is removed first when empty.
func (f *FS) replace(rel string, make func(tmp string) error) error {
	if fi, err := f.root.Lstat(rel); err == nil && fi.IsDir() {
		if err := f.root.Remove(rel); err != nil {
			return err
		}
	}
	dir, base := filepath.Split(rel)
	for i := 0; ; i++ {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.nb%d-%d", base, time.Now().UnixNano(), i))
		err := make(tmp)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return err
		}
		if err := f.root.Rename(tmp, rel); err != nil {
			f.root.Remove(tmp)
			return err
		}
		return nil
	}
}

// writeTemp writes s into the new file tmp, with the owner, group and
// extended attributes (access lists among them) of the file rel it
// replaces, which prev describes (nil: none).
func writeTemp(root *os.Root, tmp string, s State, rel string, prev fs.FileInfo, sync bool) error {
	h, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		h.Close()
		root.Remove(tmp)
		return err
	}
	if _, err := h.Write(s.Data); err != nil {
		return fail(err)
	}
	if prev != nil {
		keepOwner(h, prev)      // before the mode: a change of owner clears setuid
		keepAttrs(root, rel, h) // before the mode, which an access list's mask follows
	}
	if err := h.Chmod(s.Mode); err != nil {
		return fail(err)
	}
	if sync {
		if err := h.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := h.Close(); err != nil {
		root.Remove(tmp)
		return err
	}
	return nil
}

// syncAll flushes the tree's file system to disk (after lazy writes).
func (f *FS) syncAll() error {
	d, err := f.root.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	return syncFS(d)
}

// Shown is p as the user knows it: relative to base when below it.
func Shown(p, base string) string {
	if base != "" {
		if rel, err := filepath.Rel(base, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}
