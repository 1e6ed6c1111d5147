package cli

import (
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/lineedit"
	"github.com/nb-cli/nb/internal/render/style"
	"golang.org/x/term"
)

// errAborted is returned by readMessage when the user pressed Ctrl+C at the
// prompt: the message is dropped and nb keeps running.
var errAborted = errors.New("aborted")

// lineEditor reads user messages with editing, bracketed paste and history.
// A paste arrives whole and is sent only on Enter; Alt+Enter adds a line.
// A line ending in a backslash continues on the next line; a message
// opened by a line holding only """ continues until another """.
type lineEditor struct {
	ed         *lineedit.Editor
	histPath   string
	stopResize func()
}

func newLineEditor(io *iostreams.IO, stateDir string) *lineEditor {
	size := func() (int, int) {
		if w, h, err := term.GetSize(io.InFd); err == nil {
			return w, h
		}
		return io.Width(), 24
	}
	// The input is drawn on the terminal: stdout, or stderr when stdout
	// is redirected (nb > answer.md keeps only the answers).
	out := io.Out
	if !io.OutTTY && io.ErrTTY {
		out = io.Err
	}
	ed := lineedit.New(io.In, io.InFd, out, size)
	ed.Dim = style.Palette{Color: io.Color}.Muted
	ed.Continue = continueMessage
	ed.External = externalEditor(io)
	e := &lineEditor{ed: ed, stopResize: onResize(ed.Resize)}
	if stateDir != "" { // no state directory: the input history is not kept
		e.histPath = filepath.Join(stateDir, "input_history")
		// The history only helps: an unreadable file must not stop the chat.
		_ = ed.History.Load(e.histPath)
	}
	return e
}

// continueMessage decides what Enter does: send, or add a line.
func continueMessage(buf string) (string, bool) {
	lines := strings.Split(buf, "\n")
	if strings.TrimSpace(lines[0]) == `"""` {
		if len(lines) > 1 && strings.TrimSpace(lines[len(lines)-1]) == `"""` {
			return buf, false
		}
		return buf + "\n", true
	}
	if strings.HasSuffix(buf, `\`) {
		return strings.TrimSuffix(buf, `\`) + "\n", true
	}
	return buf, false
}

// setCompleter completes slash commands.
func (e *lineEditor) setCompleter(words []string) {
	e.ed.Complete = func(buf string) []string {
		if !strings.HasPrefix(buf, "/") || strings.ContainsAny(buf, " \n") {
			return nil
		}
		var out []string
		for _, w := range words {
			if strings.HasPrefix(w, buf) {
				out = append(out, w)
			}
		}
		return out
	}
}

// feed gives keys typed during the turn to the next message.
func (e *lineEditor) feed(keys []byte) {
	if len(keys) > 0 {
		e.ed.Feed(keys)
	}
}

// readMessage returns the next message, io.EOF on Ctrl+D or on Ctrl+C
// twice at an empty prompt, errAborted on Ctrl+C on a message.
func (e *lineEditor) readMessage(prompt string) (string, error) {
	msg, err := e.ed.ReadLine(prompt)
	if errors.Is(err, lineedit.ErrInterrupt) {
		return "", errAborted
	}
	if errors.Is(err, lineedit.ErrLeave) {
		return "", io.EOF
	}
	if err != nil {
		return "", err
	}
	lines := strings.Split(msg, "\n")
	if len(lines) >= 2 && strings.TrimSpace(lines[0]) == `"""` && strings.TrimSpace(lines[len(lines)-1]) == `"""` {
		msg = strings.Join(lines[1:len(lines)-1], "\n")
	}
	return msg, nil
}

// close saves the input history and restores the terminal.
func (e *lineEditor) close() {
	e.stopResize()
	e.ed.Restore()
	if e.histPath != "" {
		_ = e.ed.History.Save(e.histPath)
	}
}
