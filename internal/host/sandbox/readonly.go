package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The read-only profile is where nb runs what it allowed on its own
// judgement (Guard): nothing is writable, the workspace included, but a
// private /tmp and nb's own helper directory; the network is off; the
// command sees no host process; the dot-entries of the home directory,
// where programs keep credentials, are hidden but for DefaultHomeVisible
// (extended by the configuration) and the directories of PATH; the
// secret-file list is masked where nb can enumerate it cheaply (masks.go);
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
	// root says nb runs as root: the system's secrets are readable to it.
	root bool

	mu     sync.Mutex
	cached homeView
}

// rootSecrets are the system's secret files and directories, masked when
// nb runs as root (other users cannot read them anyway): the password
// hashes, the ssh host keys, TLS private keys and saved connections.
var rootSecrets = []string{
	"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/security/opasswd",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private", "/etc/NetworkManager/system-connections",
	"/etc/wpa_supplicant", "/etc/wireguard", "/etc/openvpn", "/etc/letsencrypt", "/etc/kubernetes",
	"/etc/mysql/debian.cnf", "/etc/ipsec.secrets", "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets",
	"/var/lib/docker", "/var/lib/kubelet",
}

// homeTTL is how long what the layout knows of the home directory and
// the system (homeView) is kept: they change far less often than commands
// run, and looking through them is most of a layout's cost.
const homeTTL = 5 * time.Second

// homeView is what the layout knows of the home directory and the
// system, kept for homeTTL.
type homeView struct {
	at time.Time
	// visible are homeVisible and the PATH directories below home.
	visible []string
	// secret are the secret-file list's locations below home, resolved,
	// whether or not they exist; masked what masks there now (masks.go).
	secret, masked []string
	// inodes are the secret files with more than one name.
	inodes map[inode]bool
}

// view returns the home view, looked at anew when older than homeTTL.
func (s *readOnlySpec) view() homeView {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.cached.at.IsZero() && time.Since(s.cached.at) < homeTTL {
		return s.cached
	}
	var v homeView
	if s.home != "" && s.home != "/" {
		for _, p := range s.homeVisible {
			if rel := filepath.Clean(filepath.FromSlash(p)); rel != "." && !filepath.IsAbs(rel) && !strings.HasPrefix(rel, "..") {
				v.visible = append(v.visible, filepath.Join(s.home, rel))
			}
		}
		for _, p := range s.pathDirs {
			if p != "" && filepath.IsAbs(p) && within(resolve(p), s.home) {
				v.visible = append(v.visible, filepath.Clean(p))
			}
		}
	}
	v.secret = homeSecrets(s.home)
	v.masked = stableMasks(s, v.secret)
	v.inodes = linkedInodes(v.secret)
	v.at = time.Now()
	s.cached = v
	return v
}

// dotEntries are home's dot-entries (and their targets when links), as
// they are now: one a command was allowed to create a moment ago is
// hidden too.
func (s *readOnlySpec) dotEntries() []string {
	if s.home == "" || s.home == "/" {
		return nil
	}
	var out []string
	ents, _ := os.ReadDir(s.home)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			continue
		}
		h := filepath.Join(s.home, e.Name())
		out = append(out, h)
		if e.Type()&os.ModeSymlink != 0 {
			if r := resolve(h); r != h {
				out = append(out, r) // a link hides its target too
			}
		}
	}
	return out
}

// layout is the read-only layout for a command run in dir.
func (s *readOnlySpec) layout(dir string) Layout {
	l := Layout{Scratch: slices.Clone(s.scratch)}
	dir = resolve(dir)
	v := s.view()
	hidden := append(s.dotEntries(), s.hidden...)
	visible := slices.Clone(v.visible)
	// The workspace and the command's directory stay readable below a
	// hidden dot-entry (a project kept in ~/.dotfiles), unless they lie
	// in a secret location or in nb's own directories.
	for _, d := range []string{s.launch, dir} {
		if d != "" && !underAny(d, v.secret) && !underAny(d, s.hidden) {
			visible = append(visible, d)
		}
	}
	masked := uniqSorted(append(slices.Clone(v.masked), treeMasks(s, dir, v)...))
	// What is visible below a masked path stays masked; a visible path
	// matters only below a hidden one, and once.
	var shown []string
	for _, p := range uniqSorted(visible) {
		if !underAny(p, masked) && !underAny(resolve(p), masked) && exists2(p) {
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

// homeSecrets are the secret-file list's locations below home, resolved,
// whether or not they exist.
func homeSecrets(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, h := range DefaultHidden {
		if strings.ContainsAny(h, "*?[") {
			m, _ := filepath.Glob(filepath.Join(home, filepath.FromSlash(h)))
			for _, p := range m {
				out = append(out, resolve(p))
			}
			continue
		}
		out = append(out, resolve(filepath.Join(home, filepath.FromSlash(h))))
	}
	return out
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
	s := &readOnlySpec{launch: resolve(o.LaunchDir), scratch: scratch, root: os.Getuid() == 0}
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
