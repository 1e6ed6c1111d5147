package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/regular"
)

// HistoryFile is the name of the conversation history in the launch
// directory (SPEC §3).
const HistoryFile = ".nb_conversation_history.json"

// MaxHistoryBytes bounds the history file nb reads.
const MaxHistoryBytes = 1 << 30

// HistoryVersion is the current format version.
const HistoryVersion = 1

const historyFormat = "nb-conversation"

type historyDoc struct {
	Format   string        `json:"format"`
	Version  int           `json:"version"`
	Saved    time.Time     `json:"saved"`
	Messages []llm.Message `json:"messages"`
	// Extra holds the top-level keys this version does not know.
	Extra map[string]json.RawMessage `json:"-"`
}

// History is the locked conversation history of one launch directory.
type History struct {
	path string
	lock *os.File
	// dirLock holds the lock on the directory the history lives in (nil
	// where the platform has none).
	dirLock *os.File
	now     func() time.Time
	// extra holds the loaded file's top-level keys this version does not
	// know, written back by Save.
	extra map[string]json.RawMessage
	// closeMu makes Close safe to call from a signal's shutdown while the
	// normal exit closes too.
	closeMu sync.Mutex
	// apart: a conversation of its own in the archive (Archive.Open), for
	// a second nb in a directory; its lock file goes when it closes.
	apart bool
	// excluded: the local git exclude was seen to once (ExcludeFromGit).
	excluded bool
}

// ErrLocked is returned when another nb holds the history.
var ErrLocked = errors.New("history is locked")

// LockedError says which nb holds a history: errors.Is(err, ErrLocked).
type LockedError struct {
	// File is the history; Holder names the nb holding it ("pid N", or
	// "" when unknown: another HOME or user).
	File, Holder string
}

// Who is "another nb (pid N)", or "another nb".
func (e *LockedError) Who() string {
	if e.Holder == "" {
		return "another nb"
	}
	return "another nb (" + e.Holder + ")"
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is using the conversation %s; wait for it to finish, or run with --no-history: %v", e.Who(), e.File, ErrLocked)
}

func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// OpenHistory locks the history of launchDir (see OpenHistoryFile).
func OpenHistory(launchDir, stateDir string, now func() time.Time) (*History, error) {
	return OpenHistoryFile(filepath.Join(launchDir, HistoryFile), stateDir, now)
}

// OpenHistoryFile locks the conversation kept in file (an absolute path;
// --history FILE). Locks follow the file's real path, after symlinks: a
// lock file in nb's state directory (stateDir), keyed by the real directory
// and name and recording the holder's pid, so the project tree only ever
// holds the history itself; and for a directory's default history file, a
// lock on that directory itself, which every path, HOME or user reaching
// it meets. A second nb for the same history gets an error naming the
// process that holds it when it can. Temporary files that an interrupted
// save left beside the history are removed.
//
// A nil *History is a run without history (--no-history): it loads
// nothing, saves nothing and holds no lock.
func OpenHistoryFile(file, stateDir string, now func() time.Time) (*History, error) {
	real := realPath(file)
	dir := ProjectDir(stateDir, filepath.Dir(real))
	lockName := "history.lock"
	if base := filepath.Base(real); base != HistoryFile {
		lockName = "history-" + base + ".lock"
	}
	lockPath := filepath.Join(dir, lockName)
	busy := func() error {
		return &LockedError{File: file, Holder: strings.Trim(strings.TrimSpace(holder(lockPath)), "()")}
	}
	var dl *os.File
	if filepath.Base(real) == HistoryFile {
		var err error
		if dl, err = lockDir(filepath.Dir(real)); err != nil {
			if errors.Is(err, ErrLocked) {
				return nil, busy()
			}
			return nil, fmt.Errorf("history lock: %w", err)
		}
	}
	fail := func(err error) (*History, error) {
		if dl != nil {
			dl.Close()
		}
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(fmt.Errorf("history lock: %w", err))
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fail(fmt.Errorf("history lock: %w", err))
	}
	if err := tryLock(f); err != nil {
		f.Close()
		return fail(busy())
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	removeStaleTemps(real)
	return &History{path: file, lock: f, dirLock: dl, now: now}, nil
}

// realPath resolves the symlinks of path, also when its last element does
// not exist yet; it returns path itself when nothing resolves.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A dangling symlink: follow it one step.
		if target, err := os.Readlink(path); err == nil {
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(path), target)
			}
			if d, err := filepath.EvalSymlinks(filepath.Dir(target)); err == nil {
				return filepath.Join(d, filepath.Base(target))
			}
			return target
		}
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(d, filepath.Base(path))
	}
	return path
}

// holder describes the nb that holds lock file lockPath, " (pid N)", or ""
// when unknown (another HOME or user).
func holder(lockPath string) string {
	data, _ := os.ReadFile(lockPath)
	if who := strings.TrimSpace(string(data)); who != "" {
		return " (pid " + who + ")"
	}
	return ""
}

// tempPattern is how WriteFileAtomic names its temporary files.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp*" }

// removeStaleTemps deletes the temporary files a save of path that was
// killed part-way left behind. The caller holds the history's lock, so no
// other save of path is under way.
func removeStaleTemps(path string) {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), tempPattern(path)))
	for _, m := range matches {
		if fi, err := os.Lstat(m); err == nil && fi.Mode().IsRegular() {
			os.Remove(m)
		}
	}
}

// Path is the history file ("" without history).
func (h *History) Path() string {
	if h == nil {
		return ""
	}
	return h.path
}

// Load reads the conversation. A missing file is an empty conversation. A
// corrupt or foreign file is moved aside (its new name is returned in the
// warning) and never overwritten.
func (h *History) Load() (msgs []llm.Message, warning string, err error) {
	if h == nil {
		return nil, "", nil
	}
	doc, err := h.read()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	var readErr *readError
	if errors.As(err, &readErr) {
		return nil, "", fmt.Errorf("read history: %w", readErr.err)
	}
	problem := ""
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		problem = fmt.Sprintf("has a %s where a %s belongs (at %s)", typeErr.Value, typeErr.Type, typeErr.Field)
	} else if err != nil {
		problem = "is not valid JSON"
	} else if doc.Format != historyFormat {
		problem = "is not an nb conversation"
	} else if doc.Version > HistoryVersion || doc.Version < 1 {
		problem = fmt.Sprintf("has unsupported version %d", doc.Version)
	}
	if problem == "" {
		h.extra = doc.Extra
		if i, role := llm.BadRole(doc.Messages); i >= 0 {
			return doc.Messages, fmt.Sprintf("history %s: message %d has %s (written by another version of nb?) and cannot be sent to a model; /clear sets this conversation aside (/conversations keeps it) and starts a new one", h.path, i+1, role), nil
		}
		return doc.Messages, "", nil
	}
	aside := fmt.Sprintf("%s.bad-%s", h.path, h.now().UTC().Format("20060102T150405"))
	for i := 2; ; i++ {
		if _, err := os.Lstat(aside); errors.Is(err, fs.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s.bad-%s-%d", h.path, h.now().UTC().Format("20060102T150405"), i)
	}
	if err := os.Rename(h.path, aside); err != nil {
		return nil, "", fmt.Errorf("history %s %s and cannot be moved aside: %w", h.path, problem, err)
	}
	return nil, fmt.Sprintf("history %s %s; moved it to %s and started a new conversation", h.path, problem, filepath.Base(aside)), nil
}

// readError is a history that could not be read (as opposed to decoded).
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// read decodes the history file: streamed when it is well-formed, else
// read whole and decoded by decodeHistory (which reports the problem).
// An error reading the file is a *readError.
func (h *History) read() (historyDoc, error) {
	// A FIFO, device or socket in the history's place gets an error, not
	// a start-up that waits forever; the size is bounded too.
	f, err := regular.Open(h.path)
	if err != nil {
		return historyDoc{}, &readError{err}
	}
	// Decoding a long history allocates much and keeps most of it: a
	// collector that runs less often while it does so saves CPU at no
	// measurable cost in peak memory (benchmark LargeHistoryTurn).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	fi, err := f.Stat()
	if err == nil && fi.Size() <= MaxHistoryBytes {
		doc, err := streamHistory(f)
		f.Close()
		if err == nil {
			return doc, nil
		}
	} else {
		f.Close()
	}
	data, err := regular.ReadFile(h.path, MaxHistoryBytes)
	if err != nil {
		return historyDoc{}, &readError{err}
	}
	return decodeHistory(data)
}

// decodeHistory decodes a history file. The fast decoder reads a well-formed
// file in under half the time encoding/json takes (benchmark DecodeHistory),
// which is most of the start-up of a long conversation; on anything it
// refuses, encoding/json decodes the file again, so a damaged file is
// reported exactly as before.
//
// Fields and keys this version does not know (another version wrote them)
// are kept in the messages' and the document's Extra.
func decodeHistory(data []byte) (historyDoc, error) {
	var doc historyDoc
	if jsonv2.Unmarshal(data, &doc, jsonv2.MatchCaseInsensitiveNames(true), jsonv2.RejectUnknownMembers(true)) == nil {
		return doc, nil
	}
	doc = historyDoc{}
	if err := jsonv2.Unmarshal(data, &doc, jsonv2.MatchCaseInsensitiveNames(true)); err != nil {
		doc = historyDoc{}
		if err := json.Unmarshal(data, &doc); err != nil {
			return doc, err
		}
	}
	keepUnknown(data, &doc)
	return doc, nil
}

// knownKeys are the JSON names of a type's fields, in lower case.
func knownKeys(v any) map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys[strings.ToLower(name)] = true
		}
	}
	return keys
}

var (
	docKeys     = knownKeys(historyDoc{})
	messageKeys = knownKeys(llm.Message{})
)

// keepUnknown records in doc the top-level keys and message fields of
// data that doc's types do not know.
func keepUnknown(data []byte, doc *historyDoc) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return
	}
	for k, v := range top {
		if !docKeys[strings.ToLower(k)] {
			if doc.Extra == nil {
				doc.Extra = map[string]json.RawMessage{}
			}
			doc.Extra[k] = v
		}
	}
	var msgs []map[string]json.RawMessage
	if json.Unmarshal(top["messages"], &msgs) != nil || len(msgs) != len(doc.Messages) {
		return
	}
	for i, m := range msgs {
		for k, v := range m {
			if !messageKeys[strings.ToLower(k)] {
				if doc.Messages[i].Extra == nil {
					doc.Messages[i].Extra = map[string]json.RawMessage{}
				}
				doc.Messages[i].Extra[k] = v
			}
		}
	}
}

// encodeHistory is the file's text: indented JSON, with the keys and
// fields this version does not know written back after the known ones
// (see writeHistory).
func encodeHistory(doc historyDoc) ([]byte, error) {
	var b bytes.Buffer
	if err := writeHistory(&b, doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// encodeIndented is encodeHistory by encoding/json, all at once.
func encodeIndented(doc historyDoc) ([]byte, error) {
	unknown := len(doc.Extra) > 0
	for i := 0; i < len(doc.Messages) && !unknown; i++ {
		unknown = len(doc.Messages[i].Extra) > 0
	}
	if !unknown {
		return json.MarshalIndent(doc, "", " ")
	}
	msgs := make([]json.RawMessage, len(doc.Messages))
	for i, m := range doc.Messages {
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		msgs[i] = withExtra(b, m.Extra)
	}
	b, err := json.Marshal(struct {
		Format   string            `json:"format"`
		Version  int               `json:"version"`
		Saved    time.Time         `json:"saved"`
		Messages []json.RawMessage `json:"messages"`
	}{doc.Format, doc.Version, doc.Saved, msgs})
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, withExtra(b, doc.Extra), "", " "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// withExtra adds extra's members (in key order) to the JSON object obj.
func withExtra(obj []byte, extra map[string]json.RawMessage) []byte {
	if len(extra) == 0 {
		return obj
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := append([]byte(nil), obj[:len(obj)-1]...)
	for _, k := range keys {
		if len(out) > 1 {
			out = append(out, ',')
		}
		name, _ := json.Marshal(k)
		out = append(append(append(out, name...), ':'), extra[k]...)
	}
	return append(out, '}')
}

// Save writes the conversation atomically. A history file that is a
// symlink stays one: the file it points to is replaced.
func (h *History) Save(msgs []llm.Message) error {
	if h == nil {
		return nil
	}
	if msgs == nil {
		msgs = []llm.Message{}
	}
	if h.apart && len(msgs) == 0 {
		// An empty conversation is not kept in the archive.
		if err := os.Remove(h.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("the conversation was not saved: %w", err)
		}
		return nil
	}
	doc := historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: h.now().UTC(), Messages: msgs, Extra: h.extra}
	err := writeAtomic(realPath(h.path), 0o600, func(w io.Writer) error {
		if err := writeHistory(w, doc); err != nil {
			return &encodeError{err}
		}
		_, err := io.WriteString(w, "\n")
		return err
	})
	var ee *encodeError
	if errors.As(err, &ee) {
		return fmt.Errorf("save history: %w", ee.err)
	}
	if err != nil {
		return notSaved(err, h.apart)
	}
	if !h.excluded && !h.apart && filepath.Base(h.path) == HistoryFile {
		// Once the file is there: git status is not to show it. That
		// only helps; a failure is no reason to lose the save.
		h.excluded = true
		_ = ExcludeFromGit(h.path)
	}
	return nil
}

// notSaved is the error of a save that could not be written. When the
// place refuses writing (a directory of the system, another user's, a
// read-only file system), it says where the conversation can go instead;
// apart: a conversation kept in the state directory, not in the launch
// directory.
func notSaved(err error, apart bool) error {
	if !apart && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) {
		return fmt.Errorf("the conversation was not saved: %w (start nb in a directory you can write, or keep the conversation elsewhere with --history FILE, or not at all with --no-history)", err)
	}
	return fmt.Errorf("the conversation was not saved: %w", err)
}

// encodeError is a conversation that could not be encoded (as opposed to
// written).
type encodeError struct{ err error }

func (e *encodeError) Error() string { return e.err.Error() }
func (e *encodeError) Unwrap() error { return e.err }

// Close releases the locks.
func (h *History) Close() error {
	if h == nil {
		return nil
	}
	h.closeMu.Lock()
	defer h.closeMu.Unlock()
	if h.dirLock != nil {
		h.dirLock.Close()
		h.dirLock = nil
	}
	if h.lock == nil {
		return nil
	}
	if h.apart {
		// Nobody else locks this file: no holder is left to wait for.
		os.Remove(h.lock.Name())
	}
	err := h.lock.Close()
	h.lock = nil
	return err
}

// Apart reports whether this is a conversation of its own, kept in the
// archive because another nb held the directory's (see Archive.Open).
func (h *History) Apart() bool { return h != nil && h.apart }
