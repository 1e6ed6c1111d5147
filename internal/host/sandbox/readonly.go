package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The read-only profile is where nb runs what it allowed on its own
// judgement (Guard): nothing is writable, the workspace included, but a
// private /tmp and nb's own helper directory; the network is off; the
// command sees no host process; the dot-entries of the home directory,
// where programs keep credentials, are hidden but for DefaultHomeVisible
// (extended by the configuration) and the directories of PATH; other
// users' homes are hidden; the secret-file list is masked where nb can
// enumerate it (masks.go), and, run by root, what no other user may read;
// the environment is built from an allow-list (DefaultEnvAllow).

// DefaultHomeVisible are the dot-entries of the home directory, relative
// to it, that the read-only profile leaves readable: files that hold no
// credentials and that the programs it runs read to behave as outside
// (git's ignore and attributes files, terminal descriptions) and the
// trees of toolchain managers, whose shims and programs are on PATH. Git's
// own configuration is not among them: it is on the secret-file list (a
// URL with a token, an extra header). An entry on the secret-file list
// stays masked even when listed here.
var DefaultHomeVisible = []string{
	".config/git/ignore", ".config/git/attributes", ".terminfo", ".inputrc", ".editorconfig",
	".pyenv", ".rbenv", ".nodenv", ".goenv", ".jenv", ".nvm", ".volta", ".asdf", ".sdkman", ".rustup",
	".cargo/bin", ".local/bin", ".deno/bin", ".bun/bin", ".dotnet/tools",
}

// DefaultEnvAllow are the variables the read-only profile passes from nb's
// environment (globs as in host.EnvPolicy); the configuration names more.
// Whatever the list says, a variable the environment policy removes
// (secret-looking names and values) stays removed.
var DefaultEnvAllow = []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_*", "TERM", "TZ"}

// readOnlySpec is what the read-only layout of one run is computed from.
type readOnlySpec struct {
	// launch is the workspace, home the user's home (both resolved).
	launch, home string
	// hidden are further paths hidden (nb's configuration and state, the
	// session's runtime directory, configured ones), resolved.
	hidden []string
	// homeVisible are paths relative to home left readable.
	homeVisible []string
	// pathDirs are the directories of the commands' PATH.
	pathDirs []string
	// scratch are nb's private writable directories.
	scratch []string
	// root says nb runs as root: what only root may read is masked.
	root bool
	// sys is where the system's users and trees are (sysPlaces; tests
	// give their own).
	sys sysPlaces
	// indexFile keeps the walks' records between processes ("": none).
	indexFile string

	mu sync.Mutex
	ix *index
}

// sysPlaces are the places of the system the layout reads.
type sysPlaces struct {
	// passwd is the user database, homes the directory of users' homes;
	// rootHome is root's home.
	passwd, homes, rootHome string
	// trees are walked, run by root, for what no other user may read.
	trees []string
	// mountinfo lists the mounts the command inherits.
	mountinfo string
}

// defaultSys are this machine's places.
var defaultSys = sysPlaces{
	passwd: "/etc/passwd", homes: "/home", rootHome: "/root",
	trees:     []string{"/etc", "/var", "/srv", "/opt", "/boot", "/mnt", "/media", "/usr/local/etc"},
	mountinfo: "/proc/self/mountinfo",
}

// keepIndex writes the walks' records when they changed.
func (s *readOnlySpec) keepIndex() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix != nil {
		s.ix.save(s.indexFile)
	}
}

// layout is the read-only layout for a command run in dir; keepIndex
// keeps what its walks found.
func (s *readOnlySpec) layout(dir string) Layout {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ix == nil {
		s.ix = loadIndex(s.indexFile)
	}
	dir = resolve(dir)
	l := Layout{Scratch: slices.Clone(s.scratch)}
	path := s.resolvedPath()
	hv := s.homeView(path)
	others := s.otherHomes(dir, path)
	hidden := slices.Concat(hv.dots, s.hidden, others.whole, others.dots)
	if s.root {
		hidden = append(hidden, existing(rootHidden)...)
	}
	visible := slices.Concat(hv.visible, others.visible)
	// The workspace and the command's directory stay readable below a
	// hidden entry (a project kept in ~/.dotfiles or another user's
	// home), unless they lie in a secret location or in nb's own
	// directories.
	for _, d := range []string{s.launch, dir} {
		if d != "" && !underAny(d, hv.secret) && !underAny(d, s.hidden) {
			visible = append(visible, d)
		}
	}
	masked := uniqSorted(slices.Concat(hv.masked, s.walkMasks(dir, hv, others)))
	masked = outermost(uniqSorted(append(masked, bindViews(s.sys.mountinfo, hidden, visible, masked)...)))
	// What is visible below a masked path stays masked; a visible path
	// matters only below a hidden one, and once.
	var shown []string
	for _, p := range uniqSorted(visible) {
		if exists2(p) && !underAny(p, masked) && !underAny(resolve(p), masked) {
			shown = append(shown, p)
		}
	}
	// A dot-entry visible as a whole is not hidden.
	for _, h := range uniqSorted(hidden) {
		if !slices.Contains(shown, h) {
			l.Hidden = append(l.Hidden, h)
		}
	}
	for _, p := range shown { // parents before children
		if underAny(p, l.Hidden) && !underAny(p, l.Visible) {
			l.Visible = append(l.Visible, p)
		}
	}
	// A mask inside what is hidden anyway is not needed.
	for _, m := range masked {
		if !underAny(m, l.Hidden) || underAny(m, l.Visible) {
			l.Masked = append(l.Masked, m)
		}
	}
	// What stays visible in the private /tmp: the workspace, the home
	// directory and the command's directory when they lie in it.
	for _, d := range []string{s.launch, s.home, dir} {
		if d != "" && within(d, "/tmp") && d != "/tmp" {
			l.Keep = append(l.Keep, d)
		}
	}
	l.Keep = uniqSorted(l.Keep)
	return l
}

// homeView is what the layout knows of the home directory.
type homeView struct {
	// dots are home's dot-entries (and their targets when links).
	dots []string
	// visible are homeVisible and the PATH directories below home.
	visible []string
	// secret are the secret-file list's locations below home, resolved,
	// whether or not they exist; masked those that exist.
	secret, masked []string
}

// homeView looks at the home directory as it is now: a dot-entry a
// command was allowed to create a moment ago is hidden too.
func (s *readOnlySpec) homeView(path []pathDir) homeView {
	var v homeView
	if s.home == "" {
		return v
	}
	ents, _ := os.ReadDir(s.home)
	top := map[string]bool{}
	for _, e := range ents {
		top[e.Name()] = true
		if s.home == "/" || !strings.HasPrefix(e.Name(), ".") {
			continue
		}
		h := filepath.Join(s.home, e.Name())
		v.dots = append(v.dots, h)
		if e.Type()&os.ModeSymlink != 0 {
			if r := resolve(h); r != h {
				v.dots = append(v.dots, r) // a link hides its target too
			}
		}
	}
	v.secret, v.masked = homeSecrets(s.home, top)
	if s.home == "/" {
		return v
	}
	for _, p := range s.homeVisible {
		if rel := filepath.Clean(filepath.FromSlash(p)); rel != "." && !filepath.IsAbs(rel) && !strings.HasPrefix(rel, "..") {
			v.visible = append(v.visible, filepath.Join(s.home, rel))
		}
	}
	for _, p := range path {
		if within(p.resolved, s.home) {
			v.visible = append(v.visible, p.dir)
		}
	}
	return v
}

// pathDir is a directory of the commands' PATH, clean, and resolved.
type pathDir struct{ dir, resolved string }

// resolvedPath are the absolute directories of the commands' PATH,
// resolved once for a layout.
func (s *readOnlySpec) resolvedPath() []pathDir {
	var out []pathDir
	for _, p := range s.pathDirs {
		if p != "" && filepath.IsAbs(p) {
			out = append(out, pathDir{filepath.Clean(p), resolve(p)})
		}
	}
	return out
}

// homeSecrets are the secret-file list's locations below home, resolved,
// whether or not they exist, and those that exist. top are the names in
// home: a location whose first name is not there does not exist and has
// no link on its way to resolve.
func homeSecrets(home string, top map[string]bool) (secret, found []string) {
	for _, h := range DefaultHidden {
		rel := filepath.FromSlash(h)
		first, _, _ := strings.Cut(h, "/")
		if strings.ContainsAny(h, "*?[") {
			m, _ := filepath.Glob(filepath.Join(home, rel))
			for _, p := range m {
				p = resolve(p)
				secret, found = append(secret, p), append(found, p)
			}
			continue
		}
		if !top[first] {
			secret = append(secret, filepath.Join(home, rel))
			continue
		}
		p, ok := resolveBelow(home, rel)
		secret = append(secret, p)
		if ok {
			found = append(found, p)
		}
	}
	return secret, found
}

// underAny reports whether p is one of ps or below one.
func underAny(p string, ps []string) bool {
	for _, q := range ps {
		if within(p, q) {
			return true
		}
	}
	return false
}

func exists2(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// outermost drops from the sorted ps the paths below another.
func outermost(ps []string) []string {
	var out []string
	for _, p := range ps {
		if len(out) == 0 || !within(p, out[len(out)-1]) {
			out = append(out, p)
		}
	}
	return out
}

// existing are the paths of ps that exist.
func existing(ps []string) []string {
	var out []string
	for _, p := range ps {
		if _, ok := exists(p); ok {
			out = append(out, p)
		}
	}
	return out
}

// allowEnv keeps the variables of environ whose names match one of the
// globs of allow (case-sensitive, * and ? as in host.EnvPolicy).
func allowEnv(environ, allow []string) []string {
	out := make([]string, 0, len(allow))
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		for _, g := range allow {
			if m, err := filepath.Match(g, k); err == nil && m {
				out = append(out, kv)
				break
			}
		}
	}
	return out
}

// newReadOnlySpec is the read-only profile of o, whose commands get
// environ (for their PATH) and the scratch directories.
func newReadOnlySpec(o Options, environ, scratch []string) *readOnlySpec {
	s := &readOnlySpec{launch: resolve(o.LaunchDir), scratch: scratch, root: os.Geteuid() == 0, sys: defaultSys, indexFile: o.Index}
	if o.sys != nil {
		s.sys = *o.sys
	}
	if o.Home != "" {
		s.home = resolve(o.Home)
	}
	for _, h := range o.Hidden {
		if h != "" {
			s.hidden = append(s.hidden, resolve(expandHome(h, o.Home)))
		}
	}
	s.homeVisible = append(slices.Clone(DefaultHomeVisible), o.HomeVisible...)
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			s.pathDirs = filepath.SplitList(v)
		}
	}
	return s
}
