package sandbox

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/secrets"
)

// maskEntries bounds the entries looked at in one tree for secret files.
const maskEntries = 20000

// The read-only profile makes the secret-file list's matches unreadable
// wherever it finds them, whatever else is visible. Exactly these places
// are looked at:
//   - the secret locations below the home directory (secrets.HomePaths);
//   - in the trees of the home directory that are not dot-entries, the
//     entries named like secrets, breadth first, down to homeDepth levels
//     and homeEntries entries;
//   - the system's secrets (rootSecrets) when nb runs as root;
//     these three are looked at again when older than homeTTL;
//   - at each run, the files the policy itself finds secret below the
//     workspace and below the command's directory (fsfacts.Disk.SecretFiles:
//     names on the list, keys saved as .json, git configuration holding a
//     credential), up to maskEntries entries each; neither is walked when
//     it is /, the home directory or above it (the home walk covers it);
//   - in those two trees, other names (hard links) of the secret files of
//     the first list.
//
// Symbolic links found are masked at their targets. What a command reaches
// elsewhere is left to the policy and the content detector.

// stableMasks are the masks of home and the system (the first three
// places above).
func stableMasks(s *readOnlySpec, secret []string) []string {
	var out []string
	for _, p := range secret {
		if _, ok := exists(p); ok {
			out = append(out, p)
		}
	}
	out = append(out, homeSecretNames(s.home)...)
	if s.root {
		for _, p := range rootSecrets {
			m, _ := filepath.Glob(p)
			for _, q := range m {
				out = append(out, resolve(q))
			}
		}
	}
	return out
}

// treeMasks are the masks of the workspace and the command's directory
// dir (the last two places above).
func treeMasks(s *readOnlySpec, dir string, v homeView) []string {
	var roots []string
	if s.launch != "" && s.launch != "/" && (s.home == "" || !within(s.home, s.launch)) {
		roots = append(roots, s.launch)
	}
	if dir != "" && dir != "/" && !within(dir, s.launch) && !within(s.home, dir) && !underAny(dir, v.secret) {
		roots = append(roots, dir)
	}
	var out []string
	disk := fsfacts.Disk{Home: s.home, MaxEntries: maskEntries}
	for _, r := range roots {
		found, _ := disk.SecretFiles(r)
		for _, rel := range found {
			if strings.HasSuffix(rel, "/") {
				continue // a link to a directory elsewhere: not a secret itself
			}
			if p := filepath.Join(r, filepath.FromSlash(rel)); exists2l(p) {
				out = append(out, resolve(p))
			}
		}
		if len(v.inodes) > 0 {
			out = append(out, otherNames(r, v.inodes)...)
		}
	}
	return out
}

func exists2l(p string) bool {
	_, ok := exists(p)
	return ok
}

// homeDepth and homeEntries bound the walk of the home directory's
// trees for secret names: breadth first, so the shallow levels, where
// saved keys and downloads land, are always covered.
const (
	homeDepth   = 4
	homeEntries = 5000
)

// homeSecretNames are the entries of home's trees that are not
// dot-entries (those are hidden as a whole), down to homeDepth levels and
// homeEntries entries, that the secret-file list names.
func homeSecretNames(home string) []string {
	if home == "" || home == "/" {
		return nil
	}
	var out []string
	type dir struct {
		rel   string
		depth int
	}
	queue := []dir{{"", 1}}
	n := 0
	for len(queue) > 0 && n < homeEntries {
		d := queue[0]
		queue = queue[1:]
		ents, _ := os.ReadDir(filepath.Join(home, filepath.FromSlash(d.rel)))
		for _, e := range ents {
			if n++; n > homeEntries {
				break
			}
			name := e.Name()
			if d.rel == "" && strings.HasPrefix(name, ".") {
				continue // hidden as a whole
			}
			rel := path.Join(d.rel, name)
			if secretEntry(rel, e.IsDir()) {
				out = append(out, resolve(filepath.Join(home, filepath.FromSlash(rel))))
				continue
			}
			if e.IsDir() && d.depth < homeDepth && name != "node_modules" {
				queue = append(queue, dir{rel, d.depth + 1})
			}
		}
	}
	return out
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

// otherNames walks root (bounded as the secret-file walk) for regular
// files whose device and inode are in inodes: other names of secret
// files.
func otherNames(root string, inodes map[inode]bool) []string {
	var out []string
	n := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maskEntries {
			return filepath.SkipAll
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if id, _, ok := inodeOf(fi); ok && inodes[id] {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// linkedInodes are the identities of the secret files (at the locations
// of secret, and directly below those that are directories) that have
// more than one name.
func linkedInodes(secret []string) map[inode]bool {
	out := map[inode]bool{}
	note := func(p string) {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return
		}
		if id, links, ok := inodeOf(fi); ok && links > 1 {
			out[id] = true
		}
	}
	for _, p := range secret {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			note(p)
			continue
		}
		ents, _ := os.ReadDir(p)
		for _, e := range ents {
			note(filepath.Join(p, e.Name()))
		}
	}
	return out
}
