// Package audit keeps nb's audit log: one JSON object per line, in nb's
// state directory, for every approval decision and every command run —
// when, where, what, the decision, who decided, the exit code and how long
// it took. Writes are serialised, so one Log may be shared by goroutines.
package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Entry is one line of the log.
type Entry struct {
	Time time.Time `json:"time"`
	// Kind is "decision" or "run" (free-form for other events).
	Kind string `json:"kind,omitempty"`
	Cwd  string `json:"cwd,omitempty"`
	// Tool is the tool called (run_cmd, terminal_start, an MCP tool…).
	Tool    string `json:"tool,omitempty"`
	Command string `json:"command,omitempty"`
	// Subject is what the decision was about when it is not a command
	// (session input, an MCP tool call).
	Subject  string `json:"subject,omitempty"`
	Decision string `json:"decision,omitempty"`
	// DecidedBy is user, rule, flag, grant, safe-list, deny-rule, sandbox,
	// headless…
	DecidedBy  string   `json:"decidedBy,omitempty"`
	Safety     string   `json:"safety,omitempty"`
	Reasons    []string `json:"reasons,omitempty"`
	ExitCode   *int     `json:"exitCode,omitempty"`
	DurationMs int64    `json:"durationMs,omitempty"`
	TimedOut   bool     `json:"timedOut,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Hosts are, for a command run on a fleet, each host's outcome (ok,
	// failed, unreachable, refused, timedOut, interrupted).
	Hosts map[string]string `json:"hosts,omitempty"`
}

// Log appends entries to a file.
type Log struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (creating, mode 0600, with its directory) the log at path
// for appending.
func Open(path string) (*Log, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return &Log{f: f}, nil
}

// DefaultPath is the audit log in nb's state directory.
func DefaultPath(stateDir string) string { return filepath.Join(stateDir, "audit.jsonl") }

// Write appends one entry as a single line. A zero Time is left zero:
// callers stamp entries with their injected clock.
func (l *Log) Write(e Entry) error {
	if l == nil {
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("audit: log is closed")
	}
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
