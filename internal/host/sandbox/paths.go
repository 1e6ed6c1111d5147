package sandbox

import (
	"os"
	"path/filepath"
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

// RunLater are entries of a workspace that programs run outside the
// sandbox later read as code or as settings naming programs: git's
// repository, direnv, editors' and dev containers' settings, hook
// managers. Existing ones are read-only inside the sandbox (a missing
// .git is covered too, so none can be planted).
var RunLater = []string{
	".git", ".envrc", ".vscode", ".idea", ".devcontainer", ".husky", ".githooks",
	".pre-commit-config.yaml", ".gitmodules", ".gitattributes", "lefthook.yml", ".lefthook.yml",
	"mise.toml", ".mise.toml", ".tool-versions",
}

// nestedDepth bounds the search for RunLater entries below a writable
// tree's top.
const nestedDepth = 3

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
// that exist now, at its top and up to nestedDepth levels below it, are
// read-only too, and so are the files git says configure the tree's
// repository (included config files) and its hooks directory. (Under Landlock a directory holding a read-only entry
// cannot take new files: a right to create in a directory is a right to
// create anywhere below it.)
func (l Layout) Current() Layout {
	ro := append([]string{}, l.ReadOnly...)
	for _, w := range l.Writable {
		for _, name := range RunLater {
			if _, ok := exists(filepath.Join(w, name)); ok {
				ro = append(ro, filepath.Join(w, name))
			}
		}
		ro = append(ro, nestedRunLater(w, nestedDepth)...)
		if _, ok := exists(filepath.Join(w, ".git")); ok {
			// Files the repository's configuration reads or runs from:
			// included config files, the hooks directory.
			files, hooks := gitConfigFiles(w)
			if hooks != "" {
				files = append(files, hooks)
			}
			for _, f := range files {
				f = resolve(f)
				if _, ok := exists(f); ok && l.insideWritable(f) {
					ro = append(ro, f)
				}
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

func exists(p string) (os.FileInfo, bool) {
	fi, err := os.Lstat(p)
	return fi, err == nil
}

// nestedRunLater lists the RunLater entries (a repository's .git, a
// subproject's .envrc or hooks …) in the subdirectories of dir, down to
// depth levels, not following symlinks nor entering .git or node_modules.
func nestedRunLater(dir string, depth int) []string {
	if depth == 0 {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() || e.Name() == ".git" || e.Name() == "node_modules" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		for _, name := range RunLater {
			if _, ok := exists(filepath.Join(p, name)); ok {
				out = append(out, filepath.Join(p, name))
			}
		}
		out = append(out, nestedRunLater(p, depth-1)...)
	}
	return out
}
