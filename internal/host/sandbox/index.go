package sandbox

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"
)

// The read-only profile looks through trees at every run for what it
// must make unreadable (masks.go): the workspace and the command's
// directory, home's trees, and, run by root, the system's. Looking
// through them is most of a layout's cost, so what a walk found is kept
// per directory, between runs and between nb's processes (a file in nb's
// state directory), and a directory is looked through again only when it
// changed: a new, removed or renamed entry changes its modification and
// change times; a file whose judgement rests on its content is judged
// again when its own times or size change; one whose judgement rests on
// other places (a symbolic link, a repository's configuration) at every
// run. What changed less than racyWindow before it was read is read again
// next time (a timestamp's granularity can hide a later change), and
// directories on network or user-space file systems, whose times another
// machine may change unseen, are always read again.

// racyWindow is how recent a change makes a directory's record untrusted
// (tests shorten it).
var racyWindow = 2 * time.Second

// indexVersion changes when the records' meaning does.
const indexVersion = 2

// walkRules are what one kind of walk looks for.
type walkRules interface {
	// name identifies the rules in the index.
	name() string
	// budget bounds the entries looked at (0: none).
	budget() int
	// judge judges the entry e, at abs and at rel (slash-separated)
	// below the walk's root.
	judge(abs, rel string, e fs.DirEntry) judgement
}

// judgement is what a walk's rules make of one entry.
type judgement struct {
	// hits are what to make unreadable, relative to the root (rel, or
	// paths below it).
	hits []string
	// descend says the walk goes below the directory.
	descend bool
	// on is what the judgement rests on.
	on depends
}

// depends says what a judgement rests on besides the entry's name and
// type.
type depends int

const (
	onName depends = iota
	onContent
	onElsewhere
)

// dirRec is what a walk found in one directory.
type dirRec struct {
	Ino, Mtime, Ctime int64
	// Racy says the directory changed too recently to be trusted.
	Racy bool
	// N is the number of entries, Subs the subdirectories walked.
	N    int
	Subs []string
	// Hits are relative to the directory: what its entries' names made
	// unreadable.
	Hits []string
	// Multi are its regular files with more than one name.
	Multi []multiRec
	// Content are entries judged on their content; Elsewhere entries
	// judged on other places.
	Content   []contentRec
	Elsewhere []string
}

type multiRec struct {
	Name     string
	Dev, Ino uint64
}

type contentRec struct {
	Name                    string
	Ino, Size, Mtime, Ctime int64
	Racy                    bool
	Hits                    []string
}

// treeIndex is what walks of one root under one set of rules found.
type treeIndex struct {
	Dirs map[string]*dirRec
	// Used is when the tree was last walked (Unix seconds).
	Used int64
}

// maxTrees bounds the trees an index keeps: the least recently walked go
// first (a workspace nb no longer runs in).
const maxTrees = 16

// index holds every tree's records and the identities of the secret
// files with several names seen last (Layout: a new one means a file
// may have become another name of a secret without its directory
// changing).
type index struct {
	Version int
	Trees   map[string]*treeIndex
	Secrets [][2]uint64
	changed bool
	// scans counts the directories read (tests).
	scans int
}

func newIndex() *index {
	return &index{Version: indexVersion, Trees: map[string]*treeIndex{}}
}

// loadIndex reads the index kept at file ("" or unreadable: an empty one).
func loadIndex(file string) *index {
	if file == "" {
		return newIndex()
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return newIndex()
	}
	ix, err := decodeIndex(b)
	if err != nil {
		return newIndex()
	}
	return ix
}

// save writes the index to file when it changed, atomically and readable
// by its owner only.
func (ix *index) save(file string) {
	if file == "" || !ix.changed {
		return
	}
	for len(ix.Trees) > maxTrees {
		oldest := ""
		for k, t := range ix.Trees {
			if oldest == "" || t.Used < ix.Trees[oldest].Used {
				oldest = k
			}
		}
		delete(ix.Trees, oldest)
	}
	b := encodeIndex(ix)
	if os.MkdirAll(filepath.Dir(file), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".sandbox-index-")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(tmp.Name(), file) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	ix.changed = false
}

// forget drops every record: the next walks read everything again.
func (ix *index) forget() {
	ix.Trees = map[string]*treeIndex{}
	ix.changed = true
}

// walkResult is what one walk found.
type walkResult struct {
	// hits are absolute paths to make unreadable.
	hits []string
	// multi are the regular files with several names, by path.
	multi map[string]inode
	// complete says the budget did not run out.
	complete bool
}

// walk walks root breadth first under r, reusing the records of
// directories that did not change, and returns what it found. skip are
// subtrees not walked (they are looked at otherwise).
func (ix *index) walk(r walkRules, root string, skip []string) walkResult {
	key := r.name() + "\x00" + root
	tr := ix.Trees[key]
	if tr == nil {
		tr = &treeIndex{Dirs: map[string]*dirRec{}}
		ix.Trees[key] = tr
	}
	if now := time.Now().Unix(); now-tr.Used > 3600 {
		// to the hour: an index that changed nothing else is not written
		tr.Used, ix.changed = now, true
	}
	res := walkResult{multi: map[string]inode{}, complete: true}
	seen := map[string]bool{}
	queue := []string{"."}
	n, max := 0, r.budget()
	now := time.Now()
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if underAny(abs, skip) && rel != "." {
			continue
		}
		st, ok := statOf(abs)
		if !ok || !st.dir {
			continue
		}
		seen[rel] = true
		rec := tr.Dirs[rel]
		if rec == nil || !rec.fresh(st) || (max > 0 && n+rec.N > max) {
			rec = scanDir(r, root, rel, st, now, max-n, max > 0)
			ix.scans++
			tr.Dirs[rel] = rec
			ix.changed = true
		} else if ix.recheck(r, root, rel, rec, now) {
			ix.changed = true
		}
		n += rec.N
		for _, h := range rec.Hits {
			res.hits = append(res.hits, filepath.Join(abs, filepath.FromSlash(h)))
		}
		for _, c := range rec.Content {
			for _, h := range c.Hits {
				res.hits = append(res.hits, filepath.Join(abs, filepath.FromSlash(h)))
			}
		}
		for _, name := range rec.Elsewhere {
			p := filepath.Join(abs, name)
			if e, ok := dirEntryOf(p); ok {
				for _, h := range r.judge(p, path.Join(rel, name), e).hits {
					res.hits = append(res.hits, filepath.Join(root, filepath.FromSlash(h)))
				}
			}
		}
		for _, m := range rec.Multi {
			res.multi[filepath.Join(abs, m.Name)] = inode{dev: m.Dev, ino: m.Ino}
		}
		if max > 0 && n >= max && (len(queue) > 0 || len(rec.Subs) > 0) {
			res.complete = false
			break
		}
		for _, s := range rec.Subs {
			queue = append(queue, path.Join(rel, s))
		}
	}
	if res.complete {
		for rel := range tr.Dirs {
			if !seen[rel] {
				delete(tr.Dirs, rel)
				ix.changed = true
			}
		}
	}
	return res
}

// fresh reports whether the directory, as it is now, is as recorded.
func (rec *dirRec) fresh(st fileStat) bool {
	return !rec.Racy && st.cacheable && rec.Ino == st.ino && rec.Mtime == st.mtime && rec.Ctime == st.ctime
}

// recheck judges again the entries of an unchanged directory whose
// judgement rests on their content and whose stat changed; it reports
// whether a record changed.
func (ix *index) recheck(r walkRules, root, rel string, rec *dirRec, now time.Time) bool {
	changed := false
	abs := filepath.Join(root, filepath.FromSlash(rel))
	for i := range rec.Content {
		c := &rec.Content[i]
		p := filepath.Join(abs, c.Name)
		st, ok := statOf(p)
		if ok && !c.Racy && st.cacheable && st.ino == c.Ino && st.size == c.Size && st.mtime == c.Mtime && st.ctime == c.Ctime {
			continue
		}
		changed = true
		e, ok := dirEntryOf(p)
		if !ok {
			c.Hits, c.Racy = nil, true
			continue
		}
		*c = contentRec{Name: c.Name, Ino: st.ino, Size: st.size, Mtime: st.mtime, Ctime: st.ctime, Racy: st.racy(now),
			Hits: relTo(rel, r.judge(p, path.Join(rel, c.Name), e).hits)}
	}
	return changed
}

// scanDir reads the directory rel of root and judges its entries, up to
// left of them when bounded.
func scanDir(r walkRules, root, rel string, st fileStat, now time.Time, left int, bounded bool) *dirRec {
	rec := &dirRec{Ino: st.ino, Mtime: st.mtime, Ctime: st.ctime, Racy: st.racy(now) || !st.cacheable}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	ents, err := os.ReadDir(abs)
	if err != nil {
		rec.Racy = true
		return rec
	}
	for _, e := range ents {
		if bounded && rec.N >= left {
			rec.Racy = true // cut short: never reused
			break
		}
		rec.N++
		name := e.Name()
		p := filepath.Join(abs, name)
		erel := path.Join(rel, name)
		if e.Type().IsRegular() {
			if fi, err := e.Info(); err == nil {
				if id, links, ok := inodeOf(fi); ok && links > 1 {
					rec.Multi = append(rec.Multi, multiRec{Name: name, Dev: id.dev, Ino: id.ino})
				}
			}
		}
		j := r.judge(p, erel, e)
		switch j.on {
		case onContent:
			fst, _ := statOf(p)
			rec.Content = append(rec.Content, contentRec{Name: name, Ino: fst.ino, Size: fst.size, Mtime: fst.mtime, Ctime: fst.ctime,
				Racy: fst.racy(now) || !fst.cacheable, Hits: relTo(rel, j.hits)})
			continue
		case onElsewhere:
			rec.Elsewhere = append(rec.Elsewhere, name)
			continue
		}
		rec.Hits = append(rec.Hits, relTo(rel, j.hits)...)
		if j.descend && e.IsDir() {
			rec.Subs = append(rec.Subs, name)
		}
	}
	return rec
}

// relTo makes the root-relative hits relative to the directory rel.
func relTo(rel string, hits []string) []string {
	out := slices.Clone(hits)
	if rel == "." {
		return out
	}
	for i, h := range out {
		if r, ok := cutPrefixDir(h, rel); ok {
			out[i] = r
		}
	}
	return out
}

// cutPrefixDir returns h below the directory dir (slash-separated).
func cutPrefixDir(h, dir string) (string, bool) {
	if len(h) > len(dir) && h[:len(dir)] == dir && h[len(dir)] == '/' {
		return h[len(dir)+1:], true
	}
	return h, false
}

// dirEntryOf is the entry p is, as its directory lists it.
func dirEntryOf(p string) (fs.DirEntry, bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, false
	}
	return fs.FileInfoToDirEntry(fi), true
}
