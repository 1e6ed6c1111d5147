package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/peterh/liner"
)

// errAborted is returned by readMessage when the user pressed Ctrl+C at the
// prompt: the line is dropped and nb keeps running.
var errAborted = errors.New("aborted")

// lineEditor reads user messages with editing and history (up/down).
// A line ending in a backslash continues on the next line; a line holding
// only """ starts a block that ends with another """.
type lineEditor struct {
	st       *liner.State
	histPath string
}

func newLineEditor(stateDir string) *lineEditor {
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	st.SetMultiLineMode(true)
	e := &lineEditor{st: st, histPath: filepath.Join(stateDir, "input_history")}
	if f, err := os.Open(e.histPath); err == nil {
		st.ReadHistory(f)
		f.Close()
	}
	return e
}

// setCompleter completes slash commands.
func (e *lineEditor) setCompleter(words []string) {
	e.st.SetCompleter(func(line string) []string {
		if !strings.HasPrefix(line, "/") {
			return nil
		}
		var out []string
		for _, w := range words {
			if strings.HasPrefix(w, line) {
				out = append(out, w)
			}
		}
		return out
	})
}

// readMessage returns the next message, io.EOF on Ctrl+D, errAborted on
// Ctrl+C.
func (e *lineEditor) readMessage(prompt string) (string, error) {
	var lines []string
	block := false
	p := prompt
	for {
		line, err := e.st.Prompt(p)
		if errors.Is(err, liner.ErrPromptAborted) {
			return "", errAborted
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(lines) > 0 {
				break
			}
			return "", err
		}
		p = "… "
		switch {
		case strings.TrimSpace(line) == `"""`:
			if block {
				return e.finish(lines), nil
			}
			block = true
			continue
		case block:
			lines = append(lines, line)
			continue
		case strings.HasSuffix(line, `\`):
			lines = append(lines, strings.TrimSuffix(line, `\`))
			continue
		}
		lines = append(lines, line)
		break
	}
	return e.finish(lines), nil
}

func (e *lineEditor) finish(lines []string) string {
	msg := strings.Join(lines, "\n")
	if strings.TrimSpace(msg) != "" {
		e.st.AppendHistory(msg)
	}
	return msg
}

// close saves the input history and restores the terminal.
func (e *lineEditor) close() {
	if err := os.MkdirAll(filepath.Dir(e.histPath), 0o700); err == nil {
		if f, err := os.OpenFile(e.histPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
			e.st.WriteHistory(f)
			f.Close()
		}
	}
	e.st.Close()
}
