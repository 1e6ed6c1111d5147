package render

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// When stdout is a pipe and the questions of the run are asked on the
// terminal (`nb make c | cat`), answer text written to the pipe while a
// prompt is up reaches the terminal whenever the reader prints it: in the
// middle of the prompt. So the text is held until the turn is over
// (Options.HoldText, Flush), in memory up to heldMemory and beyond that
// in a temporary file, so a huge answer costs no memory.
const heldMemory = 4 << 20

// heldText is answer text waiting for the end of the turn.
type heldText struct {
	mem  bytes.Buffer
	file *os.File
	err  error
}

func (h *heldText) WriteString(s string) {
	if h.err != nil {
		return
	}
	if h.file == nil && h.mem.Len()+len(s) > heldMemory {
		if h.file, h.err = os.CreateTemp("", "nb-answer-*"); h.err != nil {
			return
		}
		os.Remove(h.file.Name()) // gone with its last descriptor
		_, h.err = h.file.Write(h.mem.Bytes())
		h.mem.Reset()
	}
	if h.file != nil {
		if h.err == nil {
			_, h.err = h.file.WriteString(s)
		}
		return
	}
	h.mem.WriteString(s)
}

// flush writes what is held to w and empties it.
func (h *heldText) flush(w io.Writer) error {
	err := h.err
	if h.file != nil {
		if err == nil {
			if _, err = h.file.Seek(0, io.SeekStart); err == nil {
				_, err = io.Copy(w, h.file)
			}
		}
		h.file.Close()
		h.file = nil
	} else if h.mem.Len() > 0 {
		_, err = w.Write(h.mem.Bytes())
	}
	h.mem.Reset()
	h.err = nil
	if err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}
