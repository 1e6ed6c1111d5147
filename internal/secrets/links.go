package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// FileID is what makes two names one file: the device and inode (on
// Windows the volume serial number and file index).
type FileID struct{ Dev, Ino uint64 }

// Links is an index of the secret files of this machine by identity
// (Inventory), for telling what a file with several hard links is: a
// file whose link count is above one and whose identity is a secret
// file's is that secret, whatever its name. It is built when first asked
// and built again, at most every few seconds, when a file with several
// links is not in it. It is safe for concurrent use.
type Links struct {
	home  string
	extra []string
	// maxAge is how old the index must be before a miss rebuilds it.
	maxAge time.Duration

	mu    sync.Mutex
	at    time.Time
	ids   map[FileID]string
	built bool
}

// NewLinks returns the index of home's secret files, the system's, and
// those named on the list below the directories of extra.
func NewLinks(home string, extra ...string) *Links {
	return &Links{home: home, extra: extra, maxAge: 5 * time.Second}
}

// Link says what the file at p is (links followed): several is whether it
// has more than one hard link, and secret, for such a file, the secret
// file it is another name of ("" for an unknown origin). A file with one
// link, a missing file or one that cannot be looked at has several
// false, and so has what is not a regular file (a directory's links are
// its entries). A file with several links and no secret is not known to
// be harmless: its other names may be anywhere.
func (l *Links) Link(p string) (secret string, several bool) {
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	id, n, err := Identity(p)
	if err != nil || n < 2 {
		return "", false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok := l.ids[id]; ok {
		return s, true
	}
	if !l.built || time.Since(l.at) >= l.maxAge {
		l.build()
		if s, ok := l.ids[id]; ok {
			return s, true
		}
	}
	return "", true
}

// build indexes the inventory by identity.
func (l *Links) build() {
	files, _ := Inventory(l.home, l.extra...)
	ids := make(map[FileID]string, len(files))
	for _, f := range files {
		if id, _, err := Identity(f); err == nil {
			if _, dup := ids[id]; !dup {
				ids[id] = filepath.Clean(f)
			}
		}
	}
	l.ids, l.at, l.built = ids, time.Now(), true
}

// LinkedSecret says whether the file at p, reached by that name, is
// another name of a secret file: a symbolic link (or a path through one)
// leading to a file that is secret by where it is (Path), or a hard link
// sharing a secret file's identity, while p names no secret itself (its
// own name is not on the list, and it is not in a secret location of
// home: whoever names ~/.aws/credentials or .env knows what it is). It
// returns that secret's path, or "". several reports a file with more
// than one hard link whose other names are not known (when secret is
// ""): not proof that it is harmless.
func LinkedSecret(p, home string, links *Links) (secret string, several bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	named := namesSecret(p, home)
	if real != filepath.Clean(p) && Path(real, home) && !named {
		return real, false
	}
	if links == nil {
		return "", false
	}
	s, several := links.Link(real)
	if s != "" && s != real && !named {
		return s, true
	}
	return "", several && s == ""
}

// namesSecret reports whether the path p itself says it is a secret: its
// own name is on the list, or it is in a secret location of home.
func namesSecret(p, home string) bool {
	if Name(filepath.Base(p)) {
		return true
	}
	if home == "" {
		return false
	}
	rel, err := filepath.Rel(home, p)
	return err == nil && !strings.HasPrefix(rel, "..") && UnderHome(filepath.ToSlash(rel))
}
