package secrets

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Limits of a walk of the secret locations: a browser profile or a cloud
// tool's cache may hold tens of thousands of files.
const (
	maxInventory = 4096 // files in all
	maxPerPlace  = 512  // entries looked at below one location
	maxDepth     = 6    // directories below one location
)

// systemFiles are files and directories outside any home that hold
// secrets, patterns among them, that a walk may look through (the broad
// trees of SystemTrees, such as /proc and /home, and the parts of /etc/ssh
// that are configuration, are left out).
var systemFiles = []string{
	"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private", "/etc/security/opasswd", "/etc/mysql/debian.cnf",
	"/etc/NetworkManager/system-connections", "/etc/wpa_supplicant", "/etc/wireguard", "/etc/openvpn",
	"/etc/ipsec.secrets", "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets", "/etc/letsencrypt/live",
	"/etc/kubernetes/pki", "/etc/kubernetes/admin.conf", "/root/.ssh",
}

// Inventory lists the regular files in the secret locations of this
// machine that exist now: below home, its secret paths (files, and the
// files below its secret directories), what its globs match, and the
// system's secret files; below each dir of extra, the files whose names
// are on the list (a project's .env, keys). Links are not followed and
// the walk is bounded; complete is false when a bound cut it short.
func Inventory(home string, extra ...string) (files []string, complete bool) {
	w := &walker{seen: map[string]bool{}, complete: true}
	if home != "" {
		for _, rel := range HomePaths() {
			w.place(filepath.Join(home, filepath.FromSlash(rel)), nil)
		}
		for _, g := range homeGlobs {
			w.glob(home, g)
		}
	}
	for _, p := range systemFiles {
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			w.place(m, nil)
		}
	}
	for _, d := range extra {
		w.place(d, func(p string, isDir bool) bool {
			return !isDir && Name(filepath.Base(p)) && !strings.Contains(p, string(filepath.Separator)+".git"+string(filepath.Separator))
		})
	}
	return w.files, w.complete
}

type walker struct {
	files    []string
	seen     map[string]bool
	complete bool
}

// place adds the regular file p, or the regular files below the directory
// p that keep (nil: all) keeps.
func (w *walker) place(p string, keep func(p string, isDir bool) bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return
	}
	if fi.Mode().IsRegular() {
		w.add(p)
		return
	}
	if !fi.IsDir() {
		return
	}
	budget := maxPerPlace
	root := strings.Count(p, string(filepath.Separator))
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || len(w.files) >= maxInventory {
			return fs.SkipDir
		}
		if budget--; budget < 0 {
			w.complete = false
			return fs.SkipAll
		}
		if d.IsDir() {
			if strings.Count(q, string(filepath.Separator))-root >= maxDepth || keep != nil && q != p && skipTree(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && (keep == nil || keep(q, false)) {
			w.add(q)
		}
		return nil
	})
}

// skipTree names directories of a project that hold no secrets of its
// own, only what tools downloaded or built.
func skipTree(name string) bool {
	switch name {
	case "node_modules", "vendor", ".git", "target", "dist", "build", ".venv", "venv", "__pycache__", ".cache":
		return true
	}
	return false
}

// glob adds what a home glob matches, its "**" taken as up to four
// directories (a browser keeps its cookies in PROFILE/Network/Cookies).
func (w *walker) glob(home, g string) {
	for _, dirs := range []string{"", "*/", "*/*/", "*/*/*/", "*/*/*/*/"} {
		pat := strings.ReplaceAll(g, "**/", dirs)
		matches, _ := filepath.Glob(filepath.Join(home, filepath.FromSlash(pat)))
		for _, m := range matches {
			w.place(m, nil)
		}
	}
}

func (w *walker) add(p string) {
	if w.seen[p] {
		return
	}
	if len(w.files) >= maxInventory {
		w.complete = false
		return
	}
	w.seen[p] = true
	w.files = append(w.files, p)
}

// Path reports whether the absolute path abs names a secret file by
// where it is: its name is on the list (Name), a directory on the way is
// one of the list's names (.ssh, .aws, .gnupg), it is in a secret
// location below home, below a location where every file is a secret,
// or one of the system's secret files. A directory on the way whose name
// only holds a word such as "secret" (~/src/secrets-manager) does not
// make its files secrets. It does not look at the disk: where links
// lead, and what a file with several hard links is (Links), are the
// caller's to resolve.
func Path(abs, home string) bool {
	p := filepath.ToSlash(filepath.Clean(abs))
	segs := strings.Split(p, "/")
	if Name(segs[len(segs)-1]) {
		return true
	}
	for _, seg := range segs[:len(segs)-1] {
		if nameSet()[strings.ToLower(seg)] {
			return true
		}
	}
	if h := filepath.ToSlash(filepath.Clean(home)); home != "" && strings.HasPrefix(p, h+"/") && UnderHome(p[len(h)+1:]) {
		return true
	}
	lower := strings.ToLower(p) + "/"
	for _, b := range below {
		if strings.Contains(lower, b) {
			return true
		}
	}
	for _, b := range windowsBelow {
		if strings.Contains(lower, b) {
			return true
		}
	}
	if WindowsName(strings.ToLower(filepath.Base(p))) {
		return true
	}
	for _, s := range systemFiles {
		if ok, _ := path.Match(s, p); ok || p == s || strings.HasPrefix(p, s+"/") {
			return true
		}
	}
	return false
}

// Shown writes a path for people: ~/… below home, slash-separated.
func Shown(p, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}
