package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Layout is the resolved filesystem policy of one sandbox: everything
// readable except Hidden, only Writable writable, and ReadOnly protected
// inside the writable trees. All paths are absolute and cleaned; paths that
// exist are resolved through symlinks.
type Layout struct {
	Writable []string
	Hidden   []string
	ReadOnly []string
	// Scratch are nb's private writable directories (temporary files,
	// the runner's helper files), with no protections inside.
	Scratch []string
	// Network leaves the network reachable.
	Network bool
}

// DefaultHidden lists the secrets directories hidden from sandboxed
// commands, relative to the home directory.
var DefaultHidden = []string{
	".ssh", ".aws", ".gnupg", ".azure", ".kube", ".docker",
	".config/gcloud", ".netrc", ".git-credentials", ".password-store",
}

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
// configured paths) and extraWritable trees. The workspace's .git/hooks and
// .git/config stay read-only, whether or not they exist yet.
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
			l.Hidden = append(l.Hidden, resolve(filepath.Join(home, h)))
		}
	}
	for _, h := range extraHidden {
		if h == "" {
			continue
		}
		l.Hidden = append(l.Hidden, resolve(expandHome(h, home)))
	}
	for _, w := range l.Writable {
		l.ReadOnly = append(l.ReadOnly, filepath.Join(w, ".git", "hooks"), filepath.Join(w, ".git", "config"))
		// Submodules keep their repositories, hooks included, in
		// .git/modules.
		for _, m := range moduleRepos(filepath.Join(w, ".git", "modules"), 4) {
			l.ReadOnly = append(l.ReadOnly, filepath.Join(m, "hooks"), filepath.Join(m, "config"))
		}
	}
	l.Writable = uniqSorted(l.Writable)
	l.Hidden = uniqSorted(l.Hidden)
	l.ReadOnly = uniqSorted(l.ReadOnly)
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

// moduleRepos lists the git directories (holding a HEAD) under dir, down
// to depth levels.
func moduleRepos(dir string, depth int) []string {
	if depth == 0 {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if _, err := os.Lstat(filepath.Join(p, "HEAD")); err == nil {
			out = append(out, p)
		}
		out = append(out, moduleRepos(p, depth-1)...)
		out = append(out, moduleRepos(filepath.Join(p, "modules"), depth-1)...)
	}
	return out
}
