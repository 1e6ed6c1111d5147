package lineedit

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/render/screentest"
)

// burst is terminal input in bursts: the parts of one burst arrive
// together (Ready reports them at once), and a gap, longer than any wait,
// separates bursts.
type burst struct {
	mu    sync.Mutex
	parts [][]string
}

func (b *burst) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.parts) > 0 && len(b.parts[0]) == 0 {
		b.parts = b.parts[1:]
	}
	if len(b.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.parts[0][0])
	if n < len(b.parts[0][0]) {
		b.parts[0][0] = b.parts[0][0][n:]
	} else {
		b.parts[0] = b.parts[0][1:]
	}
	return n, nil
}

// Ready: more of the current burst is due; at a burst's end, nothing comes
// in time.
func (b *burst) Ready(time.Duration) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.parts) > 0 && len(b.parts[0]) > 0 {
		return true
	}
	if len(b.parts) > 0 {
		b.parts = b.parts[1:] // the gap is over
	}
	return false
}

func burstTest(t *testing.T, w, h int, bursts ...[]string) (*Editor, *screentest.Screen) {
	t.Helper()
	scr := screentest.New(w, h, false)
	t.Cleanup(scr.Close)
	return New(&burst{parts: bursts}, -1, scr, func() (int, int) { return w, h }), scr
}

// TestPasteEndMarkerInsidePaste: a paste whose text holds an end marker
// (copied from somewhere) stays one paste up to the real end: the line
// breaks after the false marker are pasted text, not Enter, and nothing
// is sent until a key typed after the paste.
func TestPasteEndMarkerInsidePaste(t *testing.T) {
	hostile := pasteStart + "look" + pasteEnd + "\r!rm -rf ~\r" + pasteStart + "x" + pasteEnd + "\r" + pasteEnd
	for _, split := range []int{0, 9, 14, 15, 20, len(hostile) - 3} {
		parts := []string{hostile}
		if split > 0 {
			parts = []string{hostile[:split], hostile[split:]}
		}
		// The paste arrives as one burst (cut into two reads or not);
		// nothing else comes: the input ends.
		e, _ := burstTest(t, 60, 10, parts)
		msg, err := e.ReadLine("nb> ")
		if !errors.Is(err, io.EOF) {
			t.Fatalf("split %d: a paste alone sent %q (%v)", split, msg, err)
		}
		// With Enter typed after the paste, the message is the whole
		// paste, markers left out.
		e, _ = burstTest(t, 60, 10, parts, []string{"\r"})
		msg, err = e.ReadLine("nb> ")
		if want := "look\n!rm -rf ~\nx\n"; err != nil || msg != want {
			t.Fatalf("split %d: message %q, %v; want %q", split, msg, err, want)
		}
	}
	// Keys that arrive in the paste's burst after its end are pasted too.
	e, _ := burstTest(t, 60, 10, []string{paste("a"), "b\r"}, []string{"\r"})
	if msg, err := e.ReadLine("nb> "); err != nil || msg != "ab\n" {
		t.Fatalf("message %q, %v", msg, err)
	}
	// A paste, a pause, then typed keys: the keys are keys.
	e, _ = burstTest(t, 60, 10, []string{paste("a")}, []string{"b\r"})
	if msg, err := e.ReadLine("nb> "); err != nil || msg != "ab" {
		t.Fatalf("message %q, %v", msg, err)
	}
}

// TestEscapeActsAtOnce: Esc alone is a key of its own, read without
// waiting for the next one; in a history search it ends the search with
// the match, while a sequence arriving whole is still one key.
func TestEscapeActsAtOnce(t *testing.T) {
	pr, pw := io.Pipe()
	scr := screentest.New(60, 10, false)
	defer scr.Close()
	e := New(pr, -1, scr, func() (int, int) { return 60, 10 })
	e.History.Add("git status")
	done := make(chan string, 1)
	go func() {
		msg, _ := e.ReadLine("nb> ")
		done <- msg
	}()
	io.WriteString(pw, "\x12git")
	waitScreen(t, scr, "(search) git")
	io.WriteString(pw, "\x1b") // nothing follows: the search ends now
	waitScreen(t, scr, "nb> git status")
	io.WriteString(pw, "\x1b[D!\r") // Left, then a character
	if msg := <-done; msg != "git statu!s" {
		t.Fatalf("message %q", msg)
	}
	pw.Close()
}

func waitScreen(t *testing.T, scr *screentest.Screen, text string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(scr.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("screen lacks %q:\n%s", text, scr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCtrlCTwiceLeaves: at an empty prompt the first Ctrl+C says how to
// leave, the second in a row leaves; a key between starts over; Ctrl+C on
// a message drops it.
func TestCtrlCTwiceLeaves(t *testing.T) {
	e, scr := burstTest(t, 60, 10, []string{"\x03"}, []string{"\x03"})
	if _, err := e.ReadLine("nb> "); !errors.Is(err, ErrLeave) {
		t.Fatalf("Ctrl+C twice: %v", err)
	}
	if !strings.Contains(scr.Raw(), leaveHint) {
		t.Errorf("no hint after the first Ctrl+C: %q", scr.Raw())
	}
	if strings.Contains(scr.String(), leaveHint) {
		t.Errorf("the hint stays on screen:\n%s", scr.String())
	}
	e, _ = burstTest(t, 60, 10, []string{"\x03"}, []string{"a"}, []string{"\x7f"}, []string{"\x03"})
	if _, err := e.ReadLine("nb> "); !errors.Is(err, io.EOF) {
		t.Fatalf("Ctrl+C, a key, Ctrl+C: %v, want to go on until the input ends", err)
	}
	e, _ = burstTest(t, 60, 10, []string{"abc"}, []string{"\x03"})
	if _, err := e.ReadLine("nb> "); !errors.Is(err, ErrInterrupt) {
		t.Fatalf("Ctrl+C on a message: %v", err)
	}
}

// TestNoteUnderTheMessage: Note's line is shown under the message while it
// is edited and gone once it is sent.
func TestNoteUnderTheMessage(t *testing.T) {
	e, scr := burstTest(t, 60, 10, []string{"see @a.txt"}, []string{"\r"})
	var notes []string
	e.Note = func(buf string) string {
		if strings.Contains(buf, "@a.txt") {
			notes = append(notes, buf)
			return "attaches a.txt (1 KiB)"
		}
		return ""
	}
	if msg, err := e.ReadLine("nb> "); err != nil || msg != "see @a.txt" {
		t.Fatalf("%q, %v", msg, err)
	}
	if len(notes) == 0 || !strings.Contains(scr.Raw(), "attaches a.txt (1 KiB)") {
		t.Fatalf("the note was not drawn: %q", scr.Raw())
	}
	if strings.Contains(scr.String(), "attaches") {
		t.Errorf("the note stays after sending:\n%s", scr.String())
	}
}
