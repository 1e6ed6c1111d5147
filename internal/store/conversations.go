package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// MaxArchived bounds the conversations kept per launch directory; the
// oldest go first.
const MaxArchived = 200

// Archive keeps the conversations that /clear set aside, per launch
// directory, in nb's state directory (projects/KEY/conversations), so
// that they can be listed and reopened.
type Archive struct {
	dir string
	now func() time.Time
}

// NewArchive is the archive of launchDir's conversations.
func NewArchive(stateDir, launchDir string, now func() time.Time) *Archive {
	if now == nil {
		now = time.Now
	}
	return &Archive{dir: filepath.Join(ProjectDir(stateDir, launchDir), "conversations"), now: now}
}

// Archived describes one kept conversation.
type Archived struct {
	// ID is the file's name without ".json".
	ID       string
	Saved    time.Time
	Messages int
	// Title is the start of the first user message.
	Title string
	// InUse says an nb still has the conversation open (a second nb in
	// a directory keeps its own here): Holder names it ("pid N", "" when
	// unknown).
	InUse  bool
	Holder string
}

// lockPath is the lock of archived conversation id, held while an nb has
// it open (hidden: not a conversation itself).
func (a *Archive) lockPath(id string) string { return filepath.Join(a.dir, "."+id+".lock") }

// inUse reports whether an nb has conversation id open, and names it
// ("pid N", or "" when unknown).
func (a *Archive) inUse(id string) (bool, string) {
	f, err := os.OpenFile(a.lockPath(id), os.O_RDWR, 0)
	if err != nil {
		return false, ""
	}
	defer f.Close()
	if tryLock(f) == nil {
		return false, "" // a lock its holder left behind
	}
	return true, strings.Trim(strings.TrimSpace(holder(a.lockPath(id))), "()")
}

// Open starts a conversation of its own for a second nb in a directory
// whose conversation another nb holds: it lives in the archive, saved
// there after every turn (an empty one is not kept), listed with the
// others and reopened as they are, and locked while this nb runs so that
// no other takes it.
func (a *Archive) Open() (*History, error) {
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return nil, fmt.Errorf("conversation: %w", err)
	}
	base := a.now().UTC().Format("20060102T150405.000")
	id := base
	for n := 2; ; n++ {
		f, err := os.OpenFile(a.lockPath(id), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			if err := tryLock(f); err != nil {
				f.Close()
				return nil, fmt.Errorf("conversation lock: %w", err)
			}
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			if _, err := os.Lstat(a.path(id)); err == nil {
				// Taken by a conversation kept meanwhile.
				os.Remove(f.Name())
				f.Close()
				id = fmt.Sprintf("%s-%d", base, n)
				continue
			}
			return &History{path: a.path(id), lock: f, now: a.now, apart: true}, nil
		}
		if !errors.Is(err, fs.ErrExist) || n > 1000 {
			return nil, fmt.Errorf("conversation lock: %w", err)
		}
		id = fmt.Sprintf("%s-%d", base, n)
	}
}

// Keep stores msgs as a new archived conversation and returns its ID. An
// empty conversation is not kept ("" and no error).
func (a *Archive) Keep(msgs []llm.Message) (string, error) {
	if len(msgs) == 0 {
		return "", nil
	}
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return "", fmt.Errorf("keep conversation: %w", err)
	}
	now := a.now().UTC()
	data, err := encodeHistory(historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: now, Messages: msgs})
	if err != nil {
		return "", fmt.Errorf("keep conversation: %w", err)
	}
	id := now.Format("20060102T150405.000")
	for n := 2; ; n++ {
		if _, err := os.Lstat(a.path(id)); os.IsNotExist(err) {
			break
		}
		id = fmt.Sprintf("%s-%d", now.Format("20060102T150405.000"), n)
	}
	if err := WriteFileAtomic(a.path(id), append(data, '\n'), 0o600); err != nil {
		return "", fmt.Errorf("keep conversation: %w", err)
	}
	a.prune()
	return id, nil
}

func (a *Archive) path(id string) string { return filepath.Join(a.dir, id+".json") }

// Path is the file that holds the archived conversation id.
func (a *Archive) Path(id string) string { return a.path(id) }

// ids lists the archived conversations, newest first.
func (a *Archive) ids() []string {
	entries, _ := os.ReadDir(a.dir)
	var ids []string
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".") {
			ids = append(ids, strings.TrimSuffix(name, ".json"))
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	return ids
}

func (a *Archive) prune() {
	ids := a.ids()
	for i := MaxArchived; i < len(ids); i++ {
		if used, _ := a.inUse(ids[i]); !used {
			os.Remove(a.path(ids[i]))
		}
	}
	// The locks nbs killed mid-run left (after a while: a lock is
	// created an instant before it is taken).
	entries, _ := os.ReadDir(a.dir)
	for _, e := range entries {
		id, ok := strings.CutSuffix(strings.TrimPrefix(e.Name(), "."), ".lock")
		if !ok || !strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if fi, err := e.Info(); err == nil && a.now().Sub(fi.ModTime()) > time.Minute {
			if used, _ := a.inUse(id); used {
				continue
			}
			os.Remove(a.lockPath(id))
		}
	}
}

// List describes the archived conversations, newest first. Files that
// cannot be read are left out.
func (a *Archive) List() []Archived {
	var out []Archived
	for _, id := range a.ids() {
		doc, err := a.read(id)
		if err != nil {
			continue
		}
		item := Archived{ID: id, Saved: doc.Saved, Messages: len(doc.Messages)}
		item.InUse, item.Holder = a.inUse(id)
		for _, m := range doc.Messages {
			if m.Role == llm.RoleUser && !m.Summary && strings.TrimSpace(m.Text) != "" {
				item.Title = title(m.Text)
				break
			}
		}
		out = append(out, item)
	}
	return out
}

func title(s string) string {
	s = strings.TrimSpace(s)
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

func (a *Archive) read(id string) (*historyDoc, error) {
	data, err := os.ReadFile(a.path(id))
	if err != nil {
		return nil, err
	}
	doc, err := decodeHistory(data)
	if err != nil || doc.Format != historyFormat || doc.Version < 1 || doc.Version > HistoryVersion {
		return nil, fmt.Errorf("conversation %s is not a readable nb conversation", id)
	}
	return &doc, nil
}

// Take reads the archived conversation id and removes it from the archive
// (it becomes the current conversation again).
func (a *Archive) Take(id string) ([]llm.Message, error) {
	if used, who := a.inUse(id); used {
		return nil, fmt.Errorf("reopen conversation: %s has it open", (&LockedError{Holder: who}).Who())
	}
	doc, err := a.read(id)
	if err != nil {
		return nil, fmt.Errorf("reopen conversation: %w", err)
	}
	if err := os.Remove(a.path(id)); err != nil {
		return nil, fmt.Errorf("reopen conversation: %w", err)
	}
	return doc.Messages, nil
}
