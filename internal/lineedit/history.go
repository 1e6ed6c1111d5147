package lineedit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxHistory bounds the entries kept.
const maxHistory = 1000

// History holds sent messages, oldest first. Each entry may span lines;
// the file keeps one JSON string per line (plain lines of older files are
// read as single-line entries).
type History struct {
	entries []string
}

// Add appends a message unless it is blank or repeats the last entry.
func (h *History) Add(msg string) {
	if strings.TrimSpace(msg) == "" {
		return
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == msg {
		return
	}
	h.entries = append(h.entries, msg)
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
}

// Truncate keeps the first n entries (an answer to a question asked
// through the editor is not a message to recall).
func (h *History) Truncate(n int) {
	if n >= 0 && n < len(h.entries) {
		h.entries = h.entries[:n]
	}
}

// Entries returns the entries, oldest first.
func (h *History) Entries() []string { return h.entries }

// Load reads the history file; a missing file is an empty history.
func (h *History) Load(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read input history: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		var s string
		if strings.HasPrefix(line, `"`) && json.Unmarshal([]byte(line), &s) == nil {
			line = s
		}
		h.Add(line)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read input history: %w", err)
	}
	return nil
}

// Save writes the history file (owner-only), replacing it whole.
func (h *History) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save input history: %w", err)
	}
	var sb strings.Builder
	for _, e := range h.entries {
		b, _ := json.Marshal(e)
		sb.Write(b)
		sb.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".input_history-*")
	if err != nil {
		return fmt.Errorf("save input history: %w", err)
	}
	_, werr := tmp.WriteString(sb.String())
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save input history: %w", werr)
	}
	return nil
}
