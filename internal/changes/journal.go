package changes

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Entry is one change nb applied in a conversation: the files one tool
// call changed.
type Entry struct {
	// N numbers the entries of the conversation from 1.
	N    int       `json:"n"`
	When time.Time `json:"when"`
	// Tool is the tool that made it (edit_file, write_file, run_cmd) and
	// What its one-line description (the prompt's display line).
	Tool string `json:"tool"`
	What string `json:"what"`
	Set  Set    `json:"set"`
	// Undone is set once /undo put the files back.
	Undone bool `json:"undone,omitempty"`
}

// MaxEntries bounds a journal: older entries are forgotten (and can no
// longer be undone).
const MaxEntries = 200

// Journal is the list of changes of one conversation. With a directory
// it is kept there (journal.json and the contents before each change,
// blobs/DIGEST), so a later nb continuing the conversation can undo what
// an earlier one did; without, it lives in memory.
type Journal struct {
	dir string
	mu  sync.Mutex
	// entries hold the states before (with their data when in memory) and
	// after (by digest).
	entries []Entry
	// blobs holds the data before each change when there is no directory.
	blobs map[string][]byte
	now   func() time.Time
}

type journalDoc struct {
	Format  string  `json:"format"`
	Version int     `json:"version"`
	Entries []Entry `json:"entries"`
}

const journalFormat = "nb-changes"

// OpenJournal opens the journal kept in dir ("" for one in memory),
// reading what an earlier nb recorded there.
func OpenJournal(dir string, now func() time.Time) (*Journal, error) {
	if now == nil {
		now = time.Now
	}
	j := &Journal{dir: dir, blobs: map[string][]byte{}, now: now}
	if dir == "" {
		return j, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, "journal.json"))
	if errors.Is(err, os.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return nil, fmt.Errorf("changes journal: %w", err)
	}
	name := filepath.Join(dir, "journal.json")
	var doc journalDoc
	if err := json.Unmarshal(data, &doc); err != nil || doc.Format != journalFormat || !validEntries(doc.Entries) {
		return nil, fmt.Errorf("changes journal %s: not a journal nb can read", name)
	}
	if doc.Version > journalVersion {
		return nil, fmt.Errorf("changes journal %s: written by a newer nb (version %d; this one reads %d)", name, doc.Version, journalVersion)
	}
	j.entries = doc.Entries
	return j, nil
}

// journalVersion is the version of the journal's format this nb writes.
const journalVersion = 1

// validEntries reports whether every digest entries name a kept content
// by is one nb could have written: a journal's digests become names in
// its blobs directory.
func validEntries(entries []Entry) bool {
	for _, e := range entries {
		for _, f := range e.Set.Files {
			for _, sum := range []string{f.Before.Sum, f.After.Sum} {
				if sum != "" && sum != "absent" && !isDigest(sum) {
					return false
				}
			}
		}
	}
	return true
}

func isDigest(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// JournalDir is where the journal of the conversation kept in the history
// file lives in nb's state directory.
func JournalDir(state, history string) string {
	sum := sha256.Sum256([]byte(history))
	return filepath.Join(state, "changes", hex.EncodeToString(sum[:8]))
}

// Record adds the change a tool call made. The contents before it are
// kept (in the directory, or in memory); the contents after are kept by
// digest only, to see whether someone changed a file since.
func (j *Journal) Record(tool, what string, s *Set) (Entry, error) {
	if s == nil || len(s.Files) == 0 {
		return Entry{}, errors.New("no change to record")
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	e := Entry{N: 1, When: j.now(), Tool: tool, What: what}
	if n := len(j.entries); n > 0 {
		e.N = j.entries[n-1].N + 1
	}
	for _, f := range s.Files {
		if f.Before.Exists() && f.Before.Type != Dir && f.Before.Data == nil && f.Before.Size > 0 {
			return Entry{}, fmt.Errorf("%s: its content before the change was not kept", f.Path)
		}
		before := f.Before.Sealed()
		if before.Data != nil {
			if err := j.keep(before.Sum, before.Data); err != nil {
				return Entry{}, err
			}
		}
		before.Data = nil
		after := f.After.Sealed()
		after.Data = nil
		f.Before, f.After, f.Source = before, after, State{}
		e.Set.Files = append(e.Set.Files, f)
	}
	e.Set.Unkept = s.Unkept
	j.entries = append(j.entries, e)
	if len(j.entries) > MaxEntries {
		j.entries = append([]Entry(nil), j.entries[len(j.entries)-MaxEntries:]...)
	}
	return e, j.save()
}

// keep stores data under its digest.
func (j *Journal) keep(sum string, data []byte) error {
	if j.dir == "" {
		j.blobs[sum] = data
		return nil
	}
	p := filepath.Join(j.dir, "blobs", sum)
	if _, err := os.Stat(p); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("changes journal: %w", err)
	}
	return writeFileAtomic(p, data)
}

// load returns the data kept under sum.
func (j *Journal) load(sum string) ([]byte, error) {
	if j.dir == "" {
		data, ok := j.blobs[sum]
		if !ok {
			return nil, errors.New("not kept")
		}
		return data, nil
	}
	return os.ReadFile(filepath.Join(j.dir, "blobs", sum))
}

// save writes the journal and removes the blobs no entry needs.
func (j *Journal) save() error {
	if j.dir == "" {
		j.prune()
		return nil
	}
	data, err := json.MarshalIndent(journalDoc{Format: journalFormat, Version: journalVersion, Entries: j.entries}, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return fmt.Errorf("changes journal: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(j.dir, "journal.json"), data); err != nil {
		return fmt.Errorf("changes journal: %w", err)
	}
	j.prune()
	return nil
}

// prune drops the kept contents no entry still to undo refers to.
func (j *Journal) prune() {
	used := map[string]bool{}
	for _, e := range j.entries {
		if e.Undone {
			continue
		}
		for _, f := range e.Set.Files {
			used[f.Before.Sum] = true
		}
	}
	if j.dir == "" {
		for k := range j.blobs {
			if !used[k] {
				delete(j.blobs, k)
			}
		}
		return
	}
	ents, _ := os.ReadDir(filepath.Join(j.dir, "blobs"))
	for _, en := range ents {
		if !used[en.Name()] && !strings.HasPrefix(en.Name(), ".") {
			_ = os.Remove(filepath.Join(j.dir, "blobs", en.Name()))
		}
	}
}

// Entries lists the entries, oldest first.
func (j *Journal) Entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Entry(nil), j.entries...)
}

// Reset forgets every entry (a new conversation).
func (j *Journal) Reset() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = nil
	return j.save()
}

// ErrNothing means there is no change left to undo.
var ErrNothing = errors.New("no change to undo")

// Undo reverts the most recent entry not undone yet, on fsys, and returns
// it. A file someone changed since is a *ConflictError naming it, and
// nothing is written.
func (j *Journal) Undo(fsys *FS) (Entry, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	i := len(j.entries) - 1
	for i >= 0 && j.entries[i].Undone {
		i--
	}
	if i < 0 {
		return Entry{}, ErrNothing
	}
	e := j.entries[i]
	if len(e.Set.Unkept) > 0 {
		return e, fmt.Errorf("change %d cannot be undone: nb did not keep %s", e.N, strings.Join(e.Set.Unkept, ", "))
	}
	set := Set{Files: append([]File(nil), e.Set.Files...)}
	for k, f := range set.Files {
		if !f.Before.Exists() || f.Before.Type == Dir {
			continue
		}
		data, err := j.load(f.Before.Sum)
		if err != nil {
			return e, fmt.Errorf("change %d cannot be undone: the content of %s before it is gone: %w", e.N, f.Path, err)
		}
		set.Files[k].Before.Data = data
	}
	if err := Revert(fsys, &set); err != nil {
		return e, err
	}
	j.entries[i].Undone = true
	return j.entries[i], j.save()
}

// writeFileAtomic writes path through a temporary file renamed over it.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
