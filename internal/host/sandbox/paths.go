package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/nb-cli/nb/internal/secrets"
)

// Layout is the resolved filesystem policy of one sandbox: everything
// readable except Hidden (but for Visible below it) and Masked, only
// Writable and Scratch writable, and ReadOnly protected inside the
// writable trees. The temporary directory /tmp is private, and holds only
// Scratch, the writable trees and Keep. All paths are absolute and
// cleaned; paths that exist are resolved through symlinks, but for the
// last component of Visible paths. Every mechanism (bubblewrap, Landlock,
// Seatbelt) enforces the same Layout.
type Layout struct {
	Writable []string
	// Hidden are unreadable: secret locations, nb's own directories, and
	// in the read-only profile the dot-entries of the home directory.
	Hidden []string
	// Visible are readable although below a Hidden path.
	Visible []string
	// Masked are the secret-file list's matches: unreadable, whatever
	// Visible says.
	Masked   []string
	ReadOnly []string
	// Scratch are nb's private writable directories (temporary files,
	// the runner's helper files), with no protections inside.
	Scratch []string
	// Keep are read-only directories that stay visible in the private
	// /tmp (the workspace, the home directory or the command's directory
	// when they lie there).
	Keep []string
	// Absent are the ReadOnly paths to cover because what they protect
	// does not exist yet (coverFor: the path, or the outermost missing
	// directory on its way), by an empty directory when true, else an
	// empty file, so that nothing can be created there.
	Absent map[string]bool
	// Network leaves the network reachable.
	Network bool
}

// unreadable are the paths no read may reach: Hidden and Masked.
func (l Layout) unreadable() []string {
	return uniqSorted(append(append([]string{}, l.Hidden...), l.Masked...))
}

// DefaultHidden lists the secret locations hidden from sandboxed
// commands, relative to the home directory: the policy's own list.
var DefaultHidden = secrets.HomePaths()

// runLaterBudget bounds the entries looked at in one writable tree for
// RunLater entries.
const runLaterBudget = 50000

// resolve makes p absolute and resolves symlinks in the longest existing
// prefix, so a path that does not exist yet is still named by where it
// would be created.
func resolve(p string) string {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
	}
	if runtime.GOOS != "windows" && linkFree(p) {
		return p
	}
	rest := ""
	cur := p
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// linkFree reports whether no name on the way to the absolute p is a
// symbolic link, looking at each from the top down to the first that does
// not exist: most paths' resolve, in one look at each name.
func linkFree(p string) bool {
	cur := filepath.VolumeName(p) + string(filepath.Separator)
	for _, name := range strings.Split(p[len(cur):], string(filepath.Separator)) {
		if name == "" {
			continue
		}
		cur = filepath.Join(cur, name)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return true
		}
		if err != nil || fi.Mode()&os.ModeSymlink != 0 {
			return false
		}
	}
	return true
}

// resolveBelow is resolve(filepath.Join(dir, rel)) for a resolved dir
// and a clean relative rel, and whether that path exists: one look at
// each name of rel when no link is on the way.
func resolveBelow(dir, rel string) (string, bool) {
	p := filepath.Join(dir, rel)
	cur := dir
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, name)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return p, false
		}
		if err != nil || fi.Mode()&os.ModeSymlink != 0 || name == ".." {
			r := resolve(p)
			_, ok := exists(r)
			return r, ok
		}
	}
	return p, true
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// expandHome turns a leading ~ into home.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// depth counts path components.
func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}

func uniqSorted(ps []string) []string {
	sort.Strings(ps)
	out := ps[:0]
	for i, p := range ps {
		if i > 0 && p == ps[i-1] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// NewLayout computes the layout for launch (the workspace), with home's
// secrets hidden plus extraHidden (nb's config and state directories,
// configured paths) and extraWritable trees. In every writable tree .git
// is read-only, whether or not it exists yet; Current adds what exists at
// the time of a run.
func NewLayout(launch, home string, extraWritable, extraHidden []string, network bool) Layout {
	var l Layout
	l.Network = network
	launch = resolve(launch)
	l.Writable = append(l.Writable, launch)
	for _, w := range extraWritable {
		l.Writable = append(l.Writable, resolve(expandHome(w, home)))
	}
	if home != "" {
		for _, h := range DefaultHidden {
			if strings.ContainsAny(h, "*?[") {
				// a pattern (shell histories): what matches now
				matches, _ := filepath.Glob(filepath.Join(home, filepath.FromSlash(h)))
				for _, m := range matches {
					l.Hidden = append(l.Hidden, resolve(m))
				}
				continue
			}
			l.Hidden = append(l.Hidden, resolve(filepath.Join(home, filepath.FromSlash(h))))
		}
	}
	for _, h := range extraHidden {
		if h == "" {
			continue
		}
		l.Hidden = append(l.Hidden, resolve(expandHome(h, home)))
	}
	for _, w := range l.Writable {
		l.ReadOnly = append(l.ReadOnly, filepath.Join(w, ".git"))
	}
	l.Writable = uniqSorted(l.Writable)
	l.Hidden = uniqSorted(l.Hidden)
	l.ReadOnly = uniqSorted(l.ReadOnly)
	return l
}

// Current is l for one run: in every writable tree the RunLater entries
// that exist now, at any depth (runLaterBelow), are read-only too, and so
// is what git will read as configuration or run as hooks for the tree,
// existing or not (gitProtected): what does not exist yet is in Absent,
// to be covered. (Under Landlock without namespaces a directory holding a
// read-only entry cannot take new files: a right to create in a directory
// is a right to create anywhere below it.)
func (l Layout) Current() Layout {
	ro := append([]string{}, l.ReadOnly...)
	l.Absent = map[string]bool{}
	for _, w := range l.Writable {
		ro = append(ro, runLaterBelow(w)...)
		for _, p := range gitProtected(w) {
			f := resolve(p.path)
			if !l.insideWritable(f) {
				continue
			}
			ro = append(ro, f)
			if _, ok := exists(f); !ok {
				c, dir := coverFor(f, p.dir)
				ro = append(ro, c)
				l.Absent[c] = dir
			}
		}
	}
	// A protected entry that is a symlink protects its target too, when
	// the sandbox could otherwise write it.
	for _, p := range ro[:len(ro):len(ro)] {
		if fi, ok := exists(p); ok && fi.Mode()&os.ModeSymlink != 0 {
			if t := resolve(p); t != p && l.insideWritable(t) {
				ro = append(ro, t)
			}
		}
	}
	l.ReadOnly = uniqSorted(ro)
	return l
}

// insideWritable reports whether p lies in one of the writable trees.
func (l Layout) insideWritable(p string) bool {
	for _, w := range l.Writable {
		if within(p, w) {
			return true
		}
	}
	return false
}

// coverFor is what to cover so that the absent path p cannot be created:
// p itself when its directory exists, else the outermost directory on the
// way that does not exist; dir says whether to cover it with a directory.
func coverFor(p string, dir bool) (string, bool) {
	for {
		parent := filepath.Dir(p)
		if _, ok := exists(parent); ok || parent == p {
			return p, dir
		}
		p, dir = parent, true
	}
}

// emptyEntry reports whether p is an empty directory or an empty file:
// a cover nb made, not something a command wrote.
func emptyEntry(p string) bool {
	fi, ok := exists(p)
	if !ok {
		return false
	}
	if fi.IsDir() {
		return emptyDirectory(p)
	}
	return fi.Mode().IsRegular() && fi.Size() == 0
}

func exists(p string) (os.FileInfo, bool) {
	fi, err := os.Lstat(p)
	return fi, err == nil
}

// runLaterFirst maps the first name of every RunLater entry to the
// entries starting with it.
var runLaterFirst = func() map[string][]string {
	m := map[string][]string{}
	for _, e := range RunLater {
		first, _, _ := strings.Cut(e, "/")
		m[first] = append(m[first], e)
	}
	return m
}()

// runLaterBelow lists the RunLater entries (a repository's .git, a
// subproject's .envrc or hooks …) that exist in dir and below it, at any
// depth, looking at up to runLaterBudget entries, breadth first, not
// following symlinks nor entering .git (protected as a whole) or
// node_modules. An entry is found by Lstat: a symlink planted at a
// protected name is an entry.
func runLaterBelow(dir string) []string {
	var out []string
	queue := []string{dir}
	n := 0
	for len(queue) > 0 && n <= runLaterBudget {
		d := queue[0]
		queue = queue[1:]
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if n++; n > runLaterBudget {
				break
			}
			name := e.Name()
			for _, entry := range runLaterFirst[name] {
				if _, ok := exists(filepath.Join(d, entry)); ok {
					out = append(out, filepath.Join(d, entry))
				}
			}
			if e.IsDir() && name != ".git" && name != "node_modules" {
				queue = append(queue, filepath.Join(d, name))
			}
		}
	}
	return out
}
