package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// HistoryFile is the name of the conversation history in the launch
// directory (SPEC §3).
const HistoryFile = ".nb_conversation_history.json"

// HistoryVersion is the current format version.
const HistoryVersion = 1

const historyFormat = "nb-conversation"

type historyDoc struct {
	Format   string        `json:"format"`
	Version  int           `json:"version"`
	Saved    time.Time     `json:"saved"`
	Messages []llm.Message `json:"messages"`
}

// History is the locked conversation history of one launch directory.
type History struct {
	path string
	lock *os.File
	now  func() time.Time
}

// ErrLocked is returned when another nb holds the history.
var ErrLocked = errors.New("history is locked")

// OpenHistory locks the history of launchDir. The lock file lives in nb's
// state directory (stateDir), keyed by the launch directory, so the project
// tree only ever holds the history itself. A second nb for the same
// directory gets an error naming the process that holds it.
func OpenHistory(launchDir, stateDir string, now func() time.Time) (*History, error) {
	return OpenHistoryFile(filepath.Join(launchDir, HistoryFile), stateDir, now)
}

// OpenHistoryFile locks the conversation kept in file (an absolute path;
// --history FILE). The lock is keyed by the file's directory and name, so
// naming a directory's default history file shares that directory's lock.
//
// A nil *History is a run without history (--no-history): it loads
// nothing, saves nothing and holds no lock.
func OpenHistoryFile(file, stateDir string, now func() time.Time) (*History, error) {
	dir := ProjectDir(stateDir, filepath.Dir(file))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("history lock: %w", err)
	}
	lockName := "history.lock"
	if base := filepath.Base(file); base != HistoryFile {
		lockName = "history-" + base + ".lock"
	}
	lockPath := filepath.Join(dir, lockName)
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("history lock: %w", err)
	}
	if err := tryLock(f); err != nil {
		holder, _ := os.ReadFile(lockPath)
		f.Close()
		who := strings.TrimSpace(string(holder))
		if who != "" {
			who = " (pid " + who + ")"
		}
		return nil, fmt.Errorf("another nb%s is using the conversation %s; wait for it to finish, or run with --no-history: %w", who, file, ErrLocked)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &History{path: file, lock: f, now: now}, nil
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
	data, err := os.ReadFile(h.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read history: %w", err)
	}
	var doc historyDoc
	problem := ""
	if err := json.Unmarshal(data, &doc); err != nil {
		problem = "is not valid JSON"
	} else if doc.Format != historyFormat {
		problem = "is not an nb conversation"
	} else if doc.Version > HistoryVersion || doc.Version < 1 {
		problem = fmt.Sprintf("has unsupported version %d", doc.Version)
	}
	if problem == "" {
		return doc.Messages, "", nil
	}
	aside := fmt.Sprintf("%s.bad-%s", h.path, h.now().UTC().Format("20060102T150405"))
	if err := os.Rename(h.path, aside); err != nil {
		return nil, "", fmt.Errorf("history %s %s and cannot be moved aside: %w", h.path, problem, err)
	}
	return nil, fmt.Sprintf("history %s %s; moved it to %s and started a new conversation", h.path, problem, filepath.Base(aside)), nil
}

// Save writes the conversation atomically.
func (h *History) Save(msgs []llm.Message) error {
	if h == nil {
		return nil
	}
	if msgs == nil {
		msgs = []llm.Message{}
	}
	data, err := json.MarshalIndent(historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: h.now().UTC(), Messages: msgs}, "", " ")
	if err != nil {
		return fmt.Errorf("save history: %w", err)
	}
	return WriteFileAtomic(h.path, append(data, '\n'), 0o600)
}

// Close releases the lock.
func (h *History) Close() error {
	if h == nil || h.lock == nil {
		return nil
	}
	err := h.lock.Close()
	h.lock = nil
	return err
}
