// Package fsfacts reads from the local disk the facts the policy engine
// cannot read itself (policy.Facts): the secret files below a directory,
// where a path leads once its symbolic links are followed, and — asked of
// git itself, never parsed by hand — the programs a git repository's own
// configuration makes a read run and the secret-looking files it tracks.
package fsfacts

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/regular"
	"github.com/nb-cli/nb/internal/secrets"
)

// Disk implements policy.Facts for the local filesystem.
type Disk struct {
	// MaxEntries bounds the directory entries looked at for one tree; a
	// larger tree is reported incomplete. 0 means 20000.
	MaxEntries int
	// Home expands ~ in include paths of git configuration.
	Home string
}

var _ policy.Facts = Disk{}

// errBudget stops a walk that has looked at enough entries.
var errBudget = errors.New("too many entries")

// credentialLine finds a credential in git configuration: a URL with a
// password or token in it, or an extra HTTP header.
var credentialLine = regexp.MustCompile(`(?i)://[^/\s@]*:[^/\s@]*@|https?://[^/\s@:]+@|extraheader|password|token`)

// SecretFiles implements policy.Facts: files named like secrets
// (secrets.Name), symbolic links to such files, the configuration
// files of git repositories in the tree that hold a credential, and, with
// a trailing slash, links to directories outside the tree (what a reader
// following links would reach there is not looked through).
func (d Disk) SecretFiles(dir string) ([]string, bool) {
	dir = diskPath(dir)
	max := d.MaxEntries
	if max == 0 {
		max = 20000
	}
	var found []string
	n := 0
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		realDir = dir
	}
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			// unreadable: what it holds is not known
			return errBudget
		}
		if n++; n > max {
			return errBudget
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		f, skip, _ := d.SecretEntry(p, filepath.ToSlash(rel), realDir, e)
		found = append(found, f...)
		if skip {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return found, false
	}
	return found, true
}

// Depends says what SecretEntry's judgement of an entry rests on besides
// its name and type.
type Depends int

const (
	// OnName: the name and the type alone.
	OnName Depends = iota
	// OnContent: what the file holds (judged again when it changes).
	OnContent
	// OnElsewhere: other places (where a link leads, a repository's
	// configuration files).
	OnElsewhere
)

// SecretEntry is SecretFiles' judgement of one entry of its walk: p, at
// rel (slash-separated) below the tree whose resolved top is realTop.
// found are what SecretFiles reports for it (rel, rel+"/" for a link to a
// directory outside the tree, or the configuration files of a .git
// directory that hold a credential), skip says a walk does not go below
// it, and on what the judgement rests.
func (d Disk) SecretEntry(p, rel, realTop string, e fs.DirEntry) (found []string, skip bool, on Depends) {
	name := e.Name()
	if e.IsDir() && name == ".git" {
		return gitConfigSecrets(p, rel), true, OnElsewhere
	}
	if e.IsDir() && secrets.Name(name) {
		return []string{rel}, true, OnName
	}
	// a file's name says it holds secret values (token.go and
	// docs/secrets.md are code and text about them)
	if !e.IsDir() && secrets.ValueFile(rel) {
		return []string{rel}, false, OnName
	}
	if e.Type().IsRegular() && strings.HasSuffix(strings.ToLower(name), ".json") && !toolJSON[name] {
		// a cloud key saved under any name (key.json)
		if fi, err := e.Info(); err == nil && fi.Size() >= 512 && fi.Size() <= 16<<10 && d.SecretContent(p) {
			return []string{rel}, false, OnContent
		}
		return nil, false, OnContent
	}
	if e.Type()&fs.ModeSymlink != 0 {
		t, err := os.Readlink(p)
		r, err2 := filepath.EvalSymlinks(p)
		if err2 == nil {
			t += "/" + r
		}
		switch {
		case err != nil || hasSecretSegment(t):
			return []string{rel}, false, OnElsewhere
		case err2 == nil && outside(r, realTop) && isDir(r):
			// a reader following links leaves the tree here
			return []string{rel + "/"}, false, OnElsewhere
		}
		return nil, false, OnElsewhere
	}
	return nil, false, OnName
}

func hasSecretSegment(p string) bool {
	for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
		if seg != "" && secrets.Name(seg) {
			return true
		}
	}
	return false
}

// gitConfigSecrets reports the configuration files of a .git directory
// (and of its submodules) that hold a credential.
func gitConfigSecrets(gitDir, rel string) []string {
	var out []string
	filepath.WalkDir(gitDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			switch e.Name() {
			case "objects", "refs", "logs", "hooks", "info", "lfs":
				return filepath.SkipDir
			}
			return nil
		}
		if e.Name() != "config" && e.Name() != "credentials" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || credentialLine.Match(b) {
			r, _ := filepath.Rel(gitDir, p)
			out = append(out, rel+"/"+filepath.ToSlash(r))
		}
		return nil
	})
	return out
}

// outside reports whether p is not dir or below it.
func outside(p, dir string) bool {
	return p != dir && !strings.HasPrefix(p, dir+string(filepath.Separator))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// SecretContent implements policy.Facts: the first 16 KiB of a regular
// file have the shape of a secret (secrets.ContentShape).
func (Disk) SecretContent(p string) bool {
	// opened without blocking: a FIFO or device is not read
	f, err := regular.Open(diskPath(p))
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 16<<10)
	n, _ := io.ReadFull(f, buf)
	return secrets.ContentShape(buf[:n])
}

// toolJSON are the JSON files of build tools and editors, thousands of
// them in a node_modules tree, which are not read for a key's shape.
var toolJSON = map[string]bool{
	"package.json": true, "package-lock.json": true, "tsconfig.json": true, "jsconfig.json": true,
	"composer.json": true, "bower.json": true, "manifest.json": true, ".eslintrc.json": true,
	".prettierrc.json": true, "lerna.json": true, "nx.json": true, "project.json": true, "angular.json": true,
	"renovate.json": true, "launch.json": true, "settings.json": true, "extensions.json": true, "tasks.json": true,
	".babelrc.json": true, "tslint.json": true, "deno.json": true, "turbo.json": true, "vercel.json": true,
}

// Links implements policy.Facts: for a regular file (links followed)
// with several hard links, the secret file of this machine it is another
// name of (secrets.Links, by device and inode), or several alone; a file
// it cannot look at counts as one with several.
func (d Disk) Links(p string) (string, bool) {
	fi, err := os.Stat(diskPath(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false
	case err != nil:
		return "", true
	case !fi.Mode().IsRegular() || links(fi) < 2:
		return "", false
	}
	return secretLinks(d.Home).Link(diskPath(p))
}

// linkIndexes are the indexes of secret files by identity, one a home,
// built when a file with several links is first asked about.
var linkIndexes sync.Map // home → *secrets.Links

func secretLinks(home string) *secrets.Links {
	if l, ok := linkIndexes.Load(home); ok {
		return l.(*secrets.Links)
	}
	l, _ := linkIndexes.LoadOrStore(home, secrets.NewLinks(home))
	return l.(*secrets.Links)
}
