// Package files provides the file tools nb serves over MCP (read_file,
// write_file, list_dir, path_info), confined to a set of root directories.
// Every path is made absolute, cleaned, and has its symlinks resolved (for a
// path that does not exist yet, those of its longest existing prefix) before
// it is checked against the roots and shown to the policy, so `..`,
// absolute paths and symlinks cannot leave them. The checked path is then
// opened through the root's os.Root handle: the kernel resolves it beneath
// the root, so a directory swapped for a symlink between the check and the
// use cannot lead out either.
package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/changes"
)

// Roots is a set of directories file tools may touch.
type Roots struct {
	dirs    []string   // absolute, symlink-free, cleaned
	handles []*os.Root // the open roots, one per dir
}

// NewRoots resolves dirs (which must exist and be directories).
func NewRoots(dirs ...string) (*Roots, error) {
	if len(dirs) == 0 {
		return nil, errors.New("roots: at least one root is needed")
	}
	r := &Roots{}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		fi, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("root %s: not a directory", d)
		}
		h, err := os.OpenRoot(real)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("root %s: %w", d, err)
		}
		r.dirs = append(r.dirs, filepath.Clean(real))
		r.handles = append(r.handles, h)
	}
	return r, nil
}

// Close closes the roots' handles.
func (r *Roots) Close() error {
	for _, h := range r.handles {
		h.Close()
	}
	r.handles = nil
	return nil
}

// in returns the open root holding the resolved path p and p's name
// relative to it ("." for the root itself).
func (r *Roots) in(p string) (*os.Root, string, error) {
	for i, d := range r.dirs {
		if i >= len(r.handles) {
			break
		}
		if p == d {
			return r.handles[i], ".", nil
		}
		if rel, err := filepath.Rel(d, p); err == nil && filepath.IsLocal(rel) {
			return r.handles[i], rel, nil
		}
	}
	return nil, "", fmt.Errorf("%s: %w", p, ErrOutside)
}

// fsOf is the tree of the root holding the resolved path p, for reading
// and changing files beneath it.
func (r *Roots) fsOf(p string) (*changes.FS, error) {
	for i, d := range r.dirs {
		if i >= len(r.handles) {
			break
		}
		if hasDirPrefix(p, d) {
			return changes.OnRoot(d, r.handles[i]), nil
		}
	}
	return nil, fmt.Errorf("%s: %w", p, ErrOutside)
}

// hasDirPrefix reports whether p is dir or below it.
func hasDirPrefix(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// Dirs lists the resolved roots.
func (r *Roots) Dirs() []string { return append([]string(nil), r.dirs...) }

// ErrOutside is returned for paths that resolve outside every root.
var ErrOutside = errors.New("outside the allowed roots")

// Resolve turns path (relative paths are taken from cwd) into an absolute,
// symlink-free path inside one of the roots. Symlinks in the part of the path
// that exists are resolved; the rest is appended as cleaned names.
func (r *Roots) Resolve(path, cwd string) (string, error) {
	if path == "" {
		return "", errors.New("path is empty")
	}
	if strings.ContainsRune(path, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	p := path
	if !filepath.IsAbs(p) {
		if cwd == "" {
			cwd = r.dirs[0]
		}
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	real, err := evalExisting(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrap(err))
	}
	if !r.contains(real) {
		return "", fmt.Errorf("%s: %w (%s)", path, ErrOutside, strings.Join(r.dirs, ", "))
	}
	return real, nil
}

// Contains reports whether the absolute, resolved path lies in a root.
func (r *Roots) contains(p string) bool {
	for _, d := range r.dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// evalExisting resolves symlinks in the longest existing prefix of the clean
// absolute path p and appends the remaining names. A dangling symlink is
// followed as far as its target can be resolved, so it cannot point out of
// the roots either.
func evalExisting(p string) (string, error) {
	for depth := 0; depth < 40; depth++ {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// Find the longest existing prefix.
		dir, rest := p, ""
		for {
			parent := filepath.Dir(dir)
			name := filepath.Base(dir)
			if rest == "" {
				rest = name
			} else {
				rest = filepath.Join(name, rest)
			}
			dir = parent
			if _, err := os.Lstat(dir); err == nil || parent == filepath.Dir(parent) {
				break
			}
		}
		realDir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return "", err
		}
		first, more, _ := strings.Cut(rest, string(filepath.Separator))
		next := filepath.Join(realDir, first)
		if fi, err := os.Lstat(next); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// A dangling symlink: follow its target by hand.
			target, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(realDir, target)
			}
			p = filepath.Clean(filepath.Join(target, more))
			continue
		}
		return filepath.Join(realDir, rest), nil
	}
	return "", errors.New("too many levels of symbolic links")
}
