// Package gitsnap takes undo snapshots of a git work tree around a command
// nb runs with the user's approval: before it, every file git would show
// (tracked, and untracked but not ignored) is hashed into the repository's
// object store as it is on disk (git hash-object -w --no-filters: no
// clean filter, no end-of-line conversion, so a restore is byte for byte);
// after it, the files whose type, mode or content differ become a
// changes.Set whose earlier contents are read back from those objects.
//
// Nothing is written to the user's index, history or refs: the objects
// are loose and unreferenced (git gc prunes them after its grace period,
// weeks by default), and what nb needs to undo is copied into its own
// journal as soon as the command ends. A stat cache per repository (size,
// times, inode, mode) spares hashing files that did not change since the
// last snapshot. git runs with its file system monitor off, optional locks
// off and no GIT_* variables from nb's environment, so a snapshot reads
// only the work tree named.
package gitsnap

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/changes"
)

// Tracker takes snapshots in the work trees commands run in, keeping one
// stat cache per repository.
type Tracker struct {
	// Git is the git program; "" looks it up on PATH.
	Git string
	// Now is the clock (the stat cache trusts only files older than a
	// second).
	Now func() time.Time
	// Skip are directories whose files are never part of a snapshot:
	// nb's own state and temporary files, wherever they live.
	Skip []string

	mu    sync.Mutex
	repos map[string]*repo
}

// repo is one work tree and its stat cache.
type repo struct {
	top string
	mu  sync.Mutex
	// cache maps a path (relative to top) to its stat and object id at
	// the last snapshot that could trust it.
	cache map[string]entry
}

// entry is one path of a snapshot.
type entry struct {
	sig sig
	typ changes.Type
	oid string
}

// Snapshot is the state of a work tree at one moment: each path's type,
// mode and object id.
type Snapshot struct {
	r     *repo
	files map[string]entry
}

// Before takes a snapshot of the work tree holding dir and returns a
// function that, once the command has run, returns what it changed (nil
// when nothing). It returns nil when dir is in no git work tree, or git
// cannot be run; a snapshot that fails is reported through the error.
func (t *Tracker) Before(ctx context.Context, dir string) (after func(context.Context) (*changes.Set, error), err error) {
	r, err := t.find(ctx, dir)
	if r == nil || err != nil {
		return nil, err
	}
	before, err := t.take(ctx, r)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (*changes.Set, error) {
		now, err := t.take(ctx, r)
		if err != nil {
			return nil, err
		}
		return t.Diff(ctx, before, now)
	}, nil
}

// Take snapshots the work tree holding dir (nil when there is none).
func (t *Tracker) Take(ctx context.Context, dir string) (*Snapshot, error) {
	r, err := t.find(ctx, dir)
	if r == nil || err != nil {
		return nil, err
	}
	return t.take(ctx, r)
}

// find returns the work tree holding dir, or nil. A directory with no
// .git above it is answered without running git.
func (t *Tracker) find(ctx context.Context, dir string) (*repo, error) {
	if !underGit(dir) {
		return nil, nil
	}
	out, err := t.git(ctx, dir, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, nil // not a work tree (inside .git, a bare repository)
	}
	top := strings.TrimRight(string(out), "\n")
	if top == "" {
		return nil, nil
	}
	top = filepath.Clean(top)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.repos == nil {
		t.repos = map[string]*repo{}
	}
	r, ok := t.repos[top]
	if !ok {
		r = &repo{top: top, cache: map[string]entry{}}
		t.repos[top] = r
	}
	return r, nil
}

// underGit reports whether dir or a directory above it holds .git.
func underGit(dir string) bool {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// git runs git in dir with stdin and returns its standard output.
func (t *Tracker) git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	prog := t.Git
	if prog == "" {
		prog = "git"
	}
	base := []string{"-c", "core.fsmonitor=false", "-c", "core.quotepath=off"}
	cmd := exec.CommandContext(ctx, prog, append(base, args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %v %s", args[0], err, msg)
	}
	return out, nil
}

// gitEnv is nb's environment without git's own variables (GIT_DIR,
// GIT_INDEX_FILE… would point the snapshot elsewhere), with optional
// locks off so a snapshot never takes the index lock.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

// take lists the files git would show and hashes the ones whose stat
// changed since the cache saw them.
func (t *Tracker) take(ctx context.Context, r *repo) (*Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	start := now()
	out, err := t.git(ctx, r.top, nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{r: r, files: map[string]entry{}}
	var hashFiles, hashLinks []string
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if rel == "" {
			continue
		}
		if _, seen := snap.files[rel]; seen {
			continue // an unmerged path is listed once per stage
		}
		abs := filepath.Join(r.top, filepath.FromSlash(rel))
		if t.skipped(abs) {
			continue
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			continue // deleted from the work tree
		}
		e := entry{sig: sigOf(fi)}
		switch {
		case fi.Mode().IsRegular():
			e.typ = changes.Regular
		case fi.Mode()&fs.ModeSymlink != 0:
			e.typ = changes.Symlink
		default:
			continue // a submodule, a socket: not a file to restore
		}
		if c, ok := r.cache[rel]; ok && c.sig == e.sig && c.typ == e.typ {
			e.oid = c.oid
		} else if e.typ == changes.Regular {
			hashFiles = append(hashFiles, rel)
		} else {
			hashLinks = append(hashLinks, rel)
		}
		snap.files[rel] = e
	}
	if err := t.hashFiles(ctx, r, snap, hashFiles); err != nil {
		return nil, err
	}
	for _, rel := range hashLinks {
		target, err := os.Readlink(filepath.Join(r.top, filepath.FromSlash(rel)))
		if err != nil {
			delete(snap.files, rel)
			continue
		}
		oid, err := t.git(ctx, r.top, strings.NewReader(target), "hash-object", "-w", "--no-filters", "--stdin")
		if err != nil {
			return nil, err
		}
		e := snap.files[rel]
		e.oid = strings.TrimSpace(string(oid))
		snap.files[rel] = e
	}
	for rel, e := range snap.files {
		// A file changed within the last second may change again without
		// its times moving: hash it again next time.
		if e.sig.mtime < start.Add(-time.Second).UnixNano() {
			r.cache[rel] = e
		} else {
			delete(r.cache, rel)
		}
	}
	return snap, nil
}

// skipped reports whether abs lies in one of the Skip directories.
func (t *Tracker) skipped(abs string) bool {
	for _, d := range t.Skip {
		if d != "" && (abs == d || strings.HasPrefix(abs, strings.TrimSuffix(d, string(filepath.Separator))+string(filepath.Separator))) {
			return true
		}
	}
	return false
}

// hashFiles writes the files' contents as objects, as they are on disk,
// and records their ids.
func (t *Tracker) hashFiles(ctx context.Context, r *repo, snap *Snapshot, rels []string) error {
	var batch []string
	for _, rel := range rels {
		if strings.ContainsAny(rel, "\n\r") {
			// --stdin-paths reads lines: such a name is hashed alone
			oid, err := t.git(ctx, r.top, nil, "hash-object", "-w", "--no-filters", "--", rel)
			if err != nil {
				return err
			}
			setOID(snap, rel, strings.TrimSpace(string(oid)))
			continue
		}
		batch = append(batch, rel)
	}
	if len(batch) == 0 {
		return nil
	}
	out, err := t.git(ctx, r.top, strings.NewReader(strings.Join(batch, "\n")+"\n"), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return err
	}
	oids := strings.Fields(string(out))
	if len(oids) != len(batch) {
		return fmt.Errorf("git hash-object: %d ids for %d files", len(oids), len(batch))
	}
	for i, rel := range batch {
		setOID(snap, rel, oids[i])
	}
	return nil
}

func setOID(s *Snapshot, rel, oid string) {
	e := s.files[rel]
	e.oid = oid
	s.files[rel] = e
}

// Diff is what changed from before to after, as a change set: each
// file's earlier content read back from the object store, its content
// now from the disk. A file deleted and one created with the same content
// are a rename. Files over changes.MaxFile are named in Unkept.
func (t *Tracker) Diff(ctx context.Context, before, after *Snapshot) (*changes.Set, error) {
	r := before.r
	var paths []string
	for rel, b := range before.files {
		if a, ok := after.files[rel]; !ok || a.oid != b.oid || a.typ != b.typ || a.sig.mode != b.sig.mode {
			paths = append(paths, rel)
		}
	}
	for rel := range after.files {
		if _, ok := before.files[rel]; !ok {
			paths = append(paths, rel)
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	sort.Strings(paths)
	var oids []string
	for _, rel := range paths {
		if b, ok := before.files[rel]; ok {
			oids = append(oids, b.oid)
		}
	}
	blobs, err := t.readBlobs(ctx, r.top, oids)
	if err != nil {
		return nil, err
	}
	fsys, err := changes.Open(r.top)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	set := &changes.Set{}
	for _, rel := range paths {
		abs := filepath.Join(r.top, filepath.FromSlash(rel))
		f := changes.File{Path: abs}
		if b, ok := before.files[rel]; ok {
			data, kept := blobs[b.oid]
			if !kept {
				set.Unkept = append(set.Unkept, rel)
				continue
			}
			f.Before = changes.State{Type: b.typ, Data: data}
			if b.typ == changes.Regular {
				f.Before.Mode = b.sig.mode
			}
		}
		now, err := fsys.Read(abs)
		if errors.Is(err, changes.ErrTooLarge) {
			set.Unkept = append(set.Unkept, rel)
			continue
		}
		if err != nil {
			return nil, err
		}
		if now.Type == changes.Dir {
			now = changes.State{} // a file replaced by a directory: its files are listed apart
		}
		f.After = now
		set.Files = append(set.Files, f)
	}
	changes.PairRenames(set)
	return set, nil
}

// readBlobs reads objects through one git cat-file --batch; objects over
// changes.MaxFile are left out.
func (t *Tracker) readBlobs(ctx context.Context, top string, oids []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(oids) == 0 {
		return out, nil
	}
	raw, err := t.git(ctx, top, strings.NewReader(strings.Join(oids, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(raw))
	for range oids {
		head, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(head)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: %q", strings.TrimSpace(head))
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %q", strings.TrimSpace(head))
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		if _, err := br.ReadByte(); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		if n <= changes.MaxFile {
			out[f[0]] = data
		}
	}
	return out, nil
}
