package policy

import (
	"path"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/secrets"
)

// absPath resolves p against cwd (when known) and cleans it.
func absPath(p, cwd string) string {
	if p == "" {
		return ""
	}
	p = slashPath(p)
	if !strings.HasPrefix(p, "/") {
		if cwd == "" {
			return path.Clean(p)
		}
		p = cwd + "/" + p
	}
	return path.Clean(p)
}

// homeTrees are the secret locations below a home directory that a
// recursive read must not reach.
var homeTrees = sync.OnceValue(secrets.HomeTrees)

// systemTrees and secretBelow are the secret-file list's absolute
// locations and the fragments below which every file is a secret.
var systemTrees, secretBelow = secrets.SystemTrees(), lowered(secrets.Below())

// lowered returns ps lower-cased: the fragments are compared with a
// lower-cased path, as a file system that ignores case opens
// ~/.Config/GH/hosts.yml as ~/.config/gh/hosts.yml.
func lowered(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.ToLower(p)
	}
	return out
}

// containsSensitive reports whether reading dir recursively would reach
// secrets: it is, or is an ancestor of, a known secret location, or a
// broad directory such as /, /etc or the home directory.
func (e *Engine) containsSensitive(dir, home string) bool {
	if broadDir(dir, home) || e.sensitivePath(dir, "", false) {
		return true
	}
	under := func(p string) bool { return dir == p || dir == "/" || strings.HasPrefix(p, dir+"/") }
	for _, p := range systemTrees {
		if under(p) {
			return true
		}
	}
	if home != "" {
		for _, p := range homeTrees() {
			if under(home + "/" + p) {
				return true
			}
		}
	}
	for _, pat := range e.sensitive {
		if i := strings.IndexAny(pat, "*?["); i >= 0 {
			pat = pat[:i]
		}
		if strings.HasPrefix(pat, "/") && under(strings.TrimSuffix(pat, "/")) {
			return true
		}
	}
	return false
}

// samples are names a glob is tested against: if a glob could match one,
// it could read a secret (the secret-file list, and /proc's mem).
var samples = sync.OnceValue(func() []string { return append(secrets.Samples(), "mem") })

// SecretName reports whether a file or directory name (one path segment)
// names a secret: .env files, private keys, credential files and
// directories. Callers reading the disk for Facts use it.
func SecretName(name string) bool { return sensitiveSegment(name) }

// sensitiveSegment reports whether one path segment names a secret (the
// secret-file list of package secrets).
func sensitiveSegment(seg string) bool { return secrets.Name(seg) }

// sensitivePath reports whether p (as written, already ~-expanded) names a
// secret: a credentials directory or file, /etc/shadow, /proc/*/environ.
// extra are user patterns (approval.sensitivePaths), matched against the
// absolute path and the base name.
func (e *Engine) sensitivePath(p, cwd string, glob bool) bool {
	if p == "" {
		return false
	}
	abs := absPath(p, cwd)
	cands := []string{abs}
	if p != abs {
		cands = append(cands, p)
	}
	for _, cand := range cands {
		for seg := range strings.SplitSeq(cand, "/") {
			if seg == "" || seg == "." || seg == ".." {
				continue
			}
			if glob && strings.ContainsAny(seg, "*?[") {
				for _, s := range samples() {
					if ok, _ := path.Match(seg, s); ok {
						return true
					}
				}
				continue
			}
			if sensitiveSegment(seg) || windowsPaths && secrets.AliasMayBe(seg) {
				return true
			}
		}
	}
	lower := strings.ToLower(abs)
	for _, d := range secretBelow {
		if strings.Contains(lower+"/", d) {
			return true
		}
	}

	if strings.HasPrefix(abs, "/proc/") {
		rest := strings.Split(strings.TrimPrefix(abs, "/proc/"), "/")
		if len(rest) >= 2 {
			switch rest[len(rest)-1] {
			case "environ", "mem", "cmdline", "auxv", "maps", "fd", "root", "cwd":
				return true
			}
		}
		if len(rest) >= 3 && (rest[1] == "fd" || rest[len(rest)-2] == "fd") {
			return true // /proc/PID/fd/N is the file the process opened
		}
		if glob {
			return true
		}
	}
	if strings.HasPrefix(abs, "/dev/") && !harmlessDevices[abs] && abs != "/dev/urandom" && abs != "/dev/random" && !strings.HasPrefix(abs, "/dev/tcp/") && !strings.HasPrefix(abs, "/dev/udp/") {
		return true // raw disks and memory hold every secret
	}
	if strings.HasSuffix(lower, "/.git/config") || strings.HasSuffix(lower, "/.git/credentials") {
		return true // tokens in remote URLs and http.extraheader
	}
	if abs == "/proc/kcore" || strings.HasPrefix(abs, "/sys/firmware/") {
		return true
	}
	if strings.HasPrefix(lower, "/etc/ssh/") && strings.Contains(lower, "_key") {
		return true
	}
	for _, pat := range e.sensitive {
		if ok, _ := path.Match(pat, abs); ok {
			return true
		}
		if ok, _ := path.Match(pat, path.Base(abs)); ok {
			return true
		}
		if strings.HasSuffix(pat, "/") && strings.HasPrefix(abs+"/", pat) {
			return true
		}
	}
	return false
}

// broadDir reports whether reading dir recursively would reach secrets:
// /, the home directory or an ancestor of it, /etc, /root, /proc.
func broadDir(dir, home string) bool {
	switch dir {
	case "/", "/etc", "/root", "/proc", "/home", "/var", "/run", "/sys":
		return true
	}
	if home != "" && (dir == home || strings.HasPrefix(home, dir+"/")) {
		return true
	}
	return false
}

var harmlessDevices = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true, "/dev/fd/1": true,
	"/dev/fd/2": true, "/dev/zero": true, "/dev/stdin": true, "/dev/fd/0": true,
}

// systemPath reports a path where writing is dangerous: system
// directories, devices, kernel interfaces, shell startup files.
func systemPath(abs, home string) bool {
	if harmlessDevices[abs] {
		return false
	}
	for _, p := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev", "/sys", "/proc", "/var/lib", "/var/spool", "/root", "/opt", "/srv", "/snap", "/System", "/Library", "/private/etc"} {
		if abs == p || strings.HasPrefix(abs, p+"/") {
			return true
		}
	}
	if strings.Count(abs, "/") == 1 {
		return true // a file directly in /
	}
	if strings.Contains(abs, "/.git/hooks/") || strings.HasSuffix(abs, "/.git/config") || strings.HasSuffix(abs, "/.git/hooks") {
		return true // git runs hooks and configured programs
	}
	if home != "" && strings.HasPrefix(abs, home+"/") {
		rel := strings.TrimPrefix(abs, home+"/")
		switch rel {
		case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
			".inputrc", ".gitconfig", ".bash_logout", ".xprofile", ".xinitrc", ".pam_environment":
			return true
		}
		for _, d := range []string{".ssh/", ".config/autostart/", ".config/systemd/", ".gnupg/", ".aws/", ".kube/", ".local/bin/", "bin/", ".config/fish/", ".config/git/"} {
			if strings.HasPrefix(rel+"/", d) {
				return true
			}
		}
	}
	return false
}

func networkDevice(abs string) bool {
	return strings.HasPrefix(abs, "/dev/tcp/") || strings.HasPrefix(abs, "/dev/udp/")
}

// homeSecret reports whether abs (absolute, clean) is a secret location
// of the home directory or below one; a glob is matched against them.
func homeSecret(abs, home string, glob bool) bool {
	if home == "" || len(abs) <= len(home) || abs[len(home)] != '/' || !strings.HasPrefix(abs, home) {
		return false
	}
	rel := abs[len(home)+1:]
	if glob {
		return secrets.GlobReachesHome(strings.Split(rel, "/"))
	}
	return secrets.UnderHome(rel)
}

// procFDs reports a process's fd directory (/proc/self/fd, /proc/42/fd)
// or a link in it: listing them shows descriptor numbers and the paths
// they lead to, never content.
func procFDs(abs string) bool {
	rest, ok := strings.CutPrefix(abs, "/proc/")
	if !ok {
		return false
	}
	parts := strings.Split(rest, "/")
	return (len(parts) == 2 || len(parts) == 3) && parts[1] == "fd" && (parts[0] == "self" || parts[0] == "thread-self" || strings.Trim(parts[0], "0123456789") == "")
}

// documentation reports a file name that says it documents its
// directory (README, README.md, NOTES.md): in a directory of secrets
// (~/.ssh/config.d/README) it is not one of them, when the disk says its
// content has no secret's shape and it is no link elsewhere.
func documentation(name string) bool {
	upper := strings.ToUpper(name)
	return upper == "README" || strings.HasPrefix(upper, "README.") || strings.HasSuffix(upper, ".MD")
}

// docInSecrets reports p, named in a command running in cc.Cwd, as
// documentation inside a directory of secrets that is itself no secret:
// its name is no secret's, no configured sensitive path names it, and
// the disk says it leads nowhere else and holds nothing with a secret's
// shape.
func (e *Engine) docInSecrets(cc CommandContext, p string) bool {
	abs := absPath(p, cc.Cwd)
	base := path.Base(abs)
	if cc.Facts == nil || !documentation(base) || sensitiveSegment(base) || e.userSensitive(abs) {
		return false
	}
	t, st := realPath(cc, p)
	switch {
	case st == PathMissing:
		return true
	case st != PathExists || t != "":
		return false
	}
	if secret, several := cc.Facts.Links(abs); secret != "" || several {
		return false
	}
	return !cc.Facts.SecretContent(abs)
}

// userSensitive reports a path approval.sensitivePaths names.
func (e *Engine) userSensitive(abs string) bool {
	for _, pat := range e.sensitive {
		if ok, _ := path.Match(pat, abs); ok {
			return true
		}
		if ok, _ := path.Match(pat, path.Base(abs)); ok || strings.HasSuffix(pat, "/") && strings.HasPrefix(abs+"/", pat) {
			return true
		}
	}
	return false
}
