package sandbox

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/secrets"
)

// The read-only profile makes unreadable, whatever else is visible:
//   - the secret locations below the home directory (secrets.HomePaths);
//   - other users' homes: whole for people (root's, those of /home, users
//     numbered from 1000), their dot-entries for the system's accounts
//     (a database server's history and password file);
//   - in the trees of the home directory that are not dot-entries, the
//     entries named like secrets, breadth first, down to homeDepth levels
//     and homeEntries entries;
//   - the files the policy itself finds secret below the workspace and
//     below the command's directory (fsfacts.Disk.SecretFiles: names on
//     the list, keys saved as .json, git configuration holding a
//     credential), up to maskEntries entries each; neither is walked when
//     it is /, the home directory or above it (the home walk covers it);
//   - run by root, who reads any file it owns whatever its mode and
//     would read every other file but for the capabilities the sandbox
//     drops: in the system's trees (sysPlaces.trees), every directory no
//     other user may enter and every file no other user may read (the
//     shadow files, sudoers, TLS keys, a daemon's saved passwords …), up
//     to systemEntries entries each; the system's secrets of rootSecrets
//     in any case; and the kernel's places of rootHidden;
//   - other names (hard links) of every secret file found, wherever a
//     walk above looked;
//   - a mount that shows a hidden or masked place under another name (a
//     bind mount of ~/.ssh).
//
// The walks are kept between runs (index.go). Symbolic links found are
// masked at their targets. What a command reaches elsewhere is left to the
// policy and the content detector.

// Budgets of the walks.
const (
	maskEntries   = 20000
	homeDepth     = 4
	homeEntries   = 5000
	systemEntries = 50000
)

// rootSecrets are the system's secret files and directories, masked when
// nb runs as root whatever their mode: the password hashes, the ssh host
// keys, TLS private keys and saved connections.
var rootSecrets = []string{
	"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/security/opasswd",
	"/etc/ssh/ssh_host_*_key", "/etc/ssl/private", "/etc/NetworkManager/system-connections",
	"/etc/wpa_supplicant", "/etc/wireguard", "/etc/openvpn", "/etc/letsencrypt", "/etc/kubernetes",
	"/etc/mysql/debian.cnf", "/etc/ipsec.secrets", "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets",
	"/etc/sudoers", "/etc/sudoers.d", "/var/lib/docker", "/var/lib/kubelet", "/var/backups",
}

// rootHidden are the kernel's places only root reads: firmware tables and
// variables, the debugging and tracing file systems (what other
// processes do), the security modules' state, pinned BPF maps, and
// crash logs.
var rootHidden = []string{
	"/sys/firmware", "/sys/kernel/debug", "/sys/kernel/tracing", "/sys/kernel/security",
	"/sys/kernel/config", "/sys/fs/bpf", "/sys/fs/pstore",
}

// walkMasks are the masks found by walking (the home's trees, the
// workspace and the command's directory, the system's trees) and the
// other names of every secret file.
func (s *readOnlySpec) walkMasks(dir string, hv homeView, others homes) []string {
	fresh := len(s.ix.Trees) == 0
	out, multi := s.walks(dir, hv)
	ids := secretIDs(hv.masked, out, others.secrets, s.dotFiles(hv))
	if !fresh && !s.ix.knows(ids) {
		// A file may have become another name of a secret without its
		// directory changing: look at every file again.
		s.ix.forget()
		out, multi = s.walks(dir, hv)
		ids = secretIDs(hv.masked, out, others.secrets, s.dotFiles(hv))
	}
	s.ix.remember(ids)
	for p, id := range multi {
		if ids[id] {
			out = append(out, p)
		}
	}
	return out
}

// walks runs the walks and returns what they masked and the files with
// several names they saw.
func (s *readOnlySpec) walks(dir string, hv homeView) ([]string, map[string]inode) {
	var out []string
	multi := map[string]inode{}
	// keep are what no mask may cover: the workspace, dir and home lie
	// below them.
	keep := []string{s.launch, dir}
	if s.home != "" && s.home != "/" {
		keep = append(keep, s.home)
	}
	add := func(r walkResult, resolveHits bool) {
		for _, h := range r.hits {
			if !resolveHits {
				if !ancestorOfAny(h, keep) {
					out = append(out, h)
				}
			} else if _, ok := exists(h); ok {
				out = append(out, resolve(h))
			}
		}
		for p, id := range r.multi {
			multi[p] = id
		}
	}
	if s.home != "" && s.home != "/" {
		add(s.ix.walk(homeRules{}, s.home, nil), true)
	}
	var roots []string
	if s.launch != "" && s.launch != "/" && (s.home == "" || !within(s.home, s.launch)) {
		roots = append(roots, s.launch)
	}
	if dir != "" && dir != "/" && !within(dir, s.launch) && !within(s.home, dir) && !underAny(dir, hv.secret) {
		roots = append(roots, dir)
	}
	for _, r := range roots {
		add(s.ix.walk(treeRules{disk: fsfacts.Disk{Home: s.home, MaxEntries: maskEntries}, top: r}, r, nil), true)
	}
	if s.root {
		for _, p := range rootSecrets {
			m, _ := filepath.Glob(p)
			for _, q := range m {
				out = append(out, resolve(q))
			}
		}
		for _, t := range s.sys.trees {
			if r := resolve(t); r != "/" {
				add(s.ix.walk(systemRules{}, r, keep), false)
			}
		}
	}
	return out, multi
}

// ancestorOfAny reports whether one of ps is p or below it.
func ancestorOfAny(p string, ps []string) bool {
	for _, q := range ps {
		if within(q, p) {
			return true
		}
	}
	return false
}

// homeRules find, in home's trees but its dot-entries, what the
// secret-file list names.
type homeRules struct{}

func (homeRules) name() string { return "home" }
func (homeRules) budget() int  { return homeEntries }

func (homeRules) judge(_, rel string, e fs.DirEntry) judgement {
	if !strings.Contains(rel, "/") && strings.HasPrefix(rel, ".") {
		return judgement{} // hidden as a whole
	}
	if secretEntry(rel, e.IsDir()) {
		return judgement{hits: []string{rel}}
	}
	return judgement{descend: e.IsDir() && strings.Count(rel, "/")+1 < homeDepth && e.Name() != "node_modules"}
}

// secretEntry reports whether the entry at rel (slash-separated) is on
// the secret-file list: a directory by one of its exact names (.ssh,
// keyrings), a file by secrets.ValueFile (a name, a .env file, a key's
// extension, a word such as token in a data file).
func secretEntry(rel string, dir bool) bool {
	if dir {
		return secrets.ValueFile(rel + "/x")
	}
	return secrets.ValueFile(rel)
}

// treeRules find what the policy finds secret in a tree.
type treeRules struct {
	disk fsfacts.Disk
	top  string
}

func (treeRules) name() string { return "tree" }
func (treeRules) budget() int  { return maskEntries }

func (r treeRules) judge(abs, rel string, e fs.DirEntry) judgement {
	found, skip, on := r.disk.SecretEntry(abs, rel, r.top, e)
	var hits []string
	for _, f := range found {
		if !strings.HasSuffix(f, "/") { // a link to a directory elsewhere: not a secret itself
			hits = append(hits, f)
		}
	}
	return judgement{hits: hits, descend: e.IsDir() && !skip, on: depends(on)}
}

// systemRules find what no other user may read: directories not both
// readable and searchable by others, files not readable by them, but for
// those of directories anyone may write.
type systemRules struct{}

func (systemRules) name() string { return "system" }
func (systemRules) budget() int  { return systemEntries }

func (systemRules) judge(_, rel string, e fs.DirEntry) judgement {
	t := e.Type()
	if !t.IsDir() && !t.IsRegular() {
		return judgement{} // links are judged where they lead
	}
	fi, err := e.Info()
	if err != nil {
		return judgement{}
	}
	perm := fi.Mode().Perm()
	if t.IsDir() {
		if perm&0o005 != 0o005 {
			return judgement{hits: []string{rel}}
		}
		// Anyone creates and removes entries of a directory anyone may
		// write (/var/tmp): a mask there would name a file that may be
		// gone when the sandbox is built, which then fails.
		return judgement{descend: perm&0o002 == 0}
	}
	if perm&0o004 == 0 {
		return judgement{hits: []string{rel}}
	}
	return judgement{}
}

// homes are other users' homes.
type homes struct {
	// whole are hidden as a whole, dots are hidden dot-entries.
	whole, dots []string
	// visible are the entries of homeVisible and the directories of PATH
	// below them: the programs PATH names run as outside.
	visible []string
	// secrets are their secret locations that exist.
	secrets []string
}

// otherHomes are the homes of the other users (the user database, every
// directory of the homes directory, root's): people's hidden as a whole,
// the system's accounts' dot-entries. Neither the user's own home nor one
// above it, the workspace or dir is hidden as a whole (the workspace and
// dir stay visible below one).
func (s *readOnlySpec) otherHomes(dir string, path []pathDir) homes {
	var out homes
	seen := map[string]bool{}
	for _, u := range s.users() {
		h := resolve(u.home)
		if seen[h] || h == "/" || (s.home != "" && within(s.home, h)) || underAny(h, systemDirs) && !u.person {
			continue
		}
		seen[h] = true
		fi, err := os.Stat(h)
		if err != nil || !fi.IsDir() {
			continue
		}
		ents, _ := os.ReadDir(h)
		top := map[string]bool{}
		for _, e := range ents {
			top[e.Name()] = true
		}
		_, found := homeSecrets(h, top)
		out.secrets = append(out.secrets, found...)
		if u.person && !underAny(h, systemDirs) {
			out.whole = append(out.whole, h)
			for _, v := range s.homeVisible {
				first, _, _ := strings.Cut(v, "/")
				if top[first] {
					out.visible = append(out.visible, filepath.Join(h, filepath.FromSlash(v)))
				}
			}
			for _, p := range path {
				if within(p.resolved, h) {
					out.visible = append(out.visible, p.dir)
				}
			}
			continue
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				out.dots = append(out.dots, filepath.Join(h, e.Name()))
			}
		}
	}
	return out
}

// systemDirs are directories no account's home makes hidden as a whole.
var systemDirs = []string{"/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/dev", "/proc", "/sys", "/run", "/tmp", "/etc"}

// user is an account whose home the layout looks at.
type user struct {
	home string
	// person: root, a user numbered from 1000 (the usual first one), or a
	// directory of the homes directory.
	person bool
}

// users are the accounts of the user database, every directory of the
// homes directory and root's home.
func (s *readOnlySpec) users() []user {
	out := []user{{home: s.sys.rootHome, person: true}}
	if f, err := os.Open(s.sys.passwd); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// name:password:uid:gid:gecos:home:shell
			fs := strings.Split(sc.Text(), ":")
			if len(fs) < 7 || !filepath.IsAbs(fs[5]) {
				continue
			}
			uid, err := strconv.Atoi(fs[2])
			person := err == nil && (uid == 0 || uid >= 1000 && uid != 65534)
			out = append(out, user{home: filepath.Clean(fs[5]), person: person})
		}
		f.Close()
	}
	ents, _ := os.ReadDir(s.sys.homes)
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, user{home: filepath.Join(s.sys.homes, e.Name()), person: true})
		}
	}
	return out
}

// dotFiles are home's dot-files (not directories): a hard link to one
// elsewhere is another name of it.
func (s *readOnlySpec) dotFiles(hv homeView) []string {
	var out []string
	for _, d := range hv.dots {
		if fi, err := os.Lstat(d); err == nil && fi.Mode().IsRegular() {
			out = append(out, d)
		}
	}
	return out
}

// secretIDs are the identities of the files of the lists (and of the
// files directly in those that are directories) that have more than one
// name.
func secretIDs(lists ...[]string) map[inode]bool {
	out := map[inode]bool{}
	note := func(fi os.FileInfo) {
		if !fi.Mode().IsRegular() {
			return
		}
		if id, links, ok := inodeOf(fi); ok && links > 1 {
			out[id] = true
		}
	}
	for _, l := range lists {
		for _, p := range l {
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			if !fi.IsDir() {
				note(fi)
				continue
			}
			ents, _ := os.ReadDir(p)
			for _, e := range ents {
				if e.Type().IsRegular() {
					if fi, err := e.Info(); err == nil {
						note(fi)
					}
				}
			}
		}
	}
	return out
}

// knows reports whether every identity of ids was among the secrets'
// identities seen last.
func (ix *index) knows(ids map[inode]bool) bool {
	known := map[[2]uint64]bool{}
	for _, k := range ix.Secrets {
		known[k] = true
	}
	for id := range ids {
		if !known[[2]uint64{id.dev, id.ino}] {
			return false
		}
	}
	return true
}

// remember keeps ids as the secrets' identities seen last.
func (ix *index) remember(ids map[inode]bool) {
	var ks [][2]uint64
	for id := range ids {
		ks = append(ks, [2]uint64{id.dev, id.ino})
	}
	if len(ks) != len(ix.Secrets) || !ix.knows(ids) {
		ix.Secrets = ks
		ix.changed = true
	}
}

// bindViews are the mount points of the mount table at mountinfo that
// show, under another name, a place that is hidden (and not visible) or
// masked: a bind mount of a directory or file below one of them.
func bindViews(mountinfo string, hidden, visible, masked []string) []string {
	f, err := os.Open(mountinfo)
	if err != nil {
		return nil
	}
	defer f.Close()
	type mnt struct{ dev, root, point string }
	var ms []mnt
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// id parent major:minor root mount-point options ...
		fs := strings.Fields(sc.Text())
		if len(fs) < 5 {
			continue
		}
		ms = append(ms, mnt{dev: fs[2], root: unescapeMount(fs[3]), point: unescapeMount(fs[4])})
	}
	unreadable := func(p string) bool {
		return underAny(p, masked) || (underAny(p, hidden) && !underAny(p, visible))
	}
	var out []string
	for _, m := range ms {
		if m.root == "/" {
			continue
		}
		for _, o := range ms {
			// o shows the file system's tree from o.root at o.point: m's
			// root lies there at src.
			if o.dev != m.dev || o.point == m.point || !within(m.root, o.root) {
				continue
			}
			src := path.Join(o.point, strings.TrimPrefix(m.root, o.root))
			if unreadable(src) && !unreadable(m.point) {
				out = append(out, m.point)
				break
			}
		}
	}
	return out
}

// unescapeMount undoes the mount table's octal escapes (\040 a blank).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
