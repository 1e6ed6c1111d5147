package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// layout is the read-only layout for a command run in dir.
func (s readOnlySpec) layout(dir string) Layout {
	l := Layout{Scratch: slices.Clone(s.scratch)}
	dir = resolve(dir)
	var hidden, visible []string
	if s.home != "" && s.home != "/" {
		ents, _ := os.ReadDir(s.home)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				hidden = append(hidden, filepath.Join(s.home, e.Name()))
			}
		}
		for _, v := range s.homeVisible {
			if rel := filepath.Clean(filepath.FromSlash(v)); rel != "." && !filepath.IsAbs(rel) && !strings.HasPrefix(rel, "..") {
				visible = append(visible, filepath.Join(s.home, rel))
			}
		}
		for _, p := range s.pathDirs {
			if p != "" && filepath.IsAbs(p) && within(resolve(p), s.home) {
				visible = append(visible, filepath.Clean(p))
			}
		}
	}
	for _, h := range hidden {
		// a dot-entry that links elsewhere hides its target too
		if r := resolve(h); r != h {
			hidden = append(hidden, r)
		}
	}
	hidden = append(hidden, s.hidden...)
	secret := homeSecrets(s.home)
	// The workspace and the command's directory stay readable below a
	// hidden dot-entry (a project kept in ~/.dotfiles), unless they lie
	// in a secret location or in nb's own directories.
	for _, d := range []string{s.launch, dir} {
		if d != "" && !underAny(d, secret) && !underAny(d, s.hidden) {
			visible = append(visible, d)
		}
	}
	l.Masked = masks(s, dir, secret)
	l.Hidden = uniqSorted(hidden)
	// What is visible below a masked path stays masked.
	for _, v := range visible {
		if underAny(v, l.Masked) || underAny(resolve(v), l.Masked) || !exists2(v) {
			continue
		}
		l.Visible = append(l.Visible, v)
	}
	l.Visible = uniqSorted(l.Visible)
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
