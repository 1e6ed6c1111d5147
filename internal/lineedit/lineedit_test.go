package lineedit

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/render/screentest"
)

// chunks is terminal input arriving in separate reads, as from a PTY.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	if n < len(c.parts[0]) {
		c.parts[0] = c.parts[0][n:]
	} else {
		c.parts = c.parts[1:]
	}
	return n, nil
}

func newTest(t *testing.T, w, h int, input ...string) (*Editor, *screentest.Screen) {
	t.Helper()
	scr := screentest.New(w, h, false)
	t.Cleanup(scr.Close)
	e := New(&chunks{parts: input}, -1, scr, func() (int, int) { return w, h })
	return e, scr
}

func paste(s string) string { return pasteStart + s + pasteEnd }

func lines(n int) string {
	var sb strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			sb.WriteString("\r")
		}
		fmt.Fprintf(&sb, "pasted line %d", i)
	}
	return sb.String()
}

func TestPasteIsOneMessageSentOnEnter(t *testing.T) {
	// The paste's line breaks are CRs (what terminals send), split across
	// reads in the middle of the end marker.
	p := paste("one\rtwo\r\nthree")
	e, scr := newTest(t, 40, 10, p[:12], p[12:len(p)-3], p[len(p)-3:], " and more", "\r", "next\r")
	msg, err := e.ReadLine("nb> ")
	if err != nil {
		t.Fatal(err)
	}
	if want := "one\ntwo\nthree and more"; msg != want {
		t.Fatalf("message = %q, want %q", msg, want)
	}
	screen := scr.String()
	for _, want := range []string{"nb> one", "… two", "… three and more"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	// The next message is separate.
	msg, err = e.ReadLine("nb> ")
	if err != nil || msg != "next" {
		t.Fatalf("second message = %q, %v; want next", msg, err)
	}
}

func TestTallPasteShowsAWindowAndSendsEverything(t *testing.T) {
	e, scr := newTest(t, 60, 12, paste(lines(50)), "\r")
	msg, err := e.ReadLine("nb> ")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(msg, "\n") + 1; got != 50 || !strings.HasSuffix(msg, "pasted line 50") {
		t.Fatalf("message has %d lines, want all 50:\n%s", got, msg)
	}
	// After Enter the whole message is printed (it scrolls off the top).
	if !strings.Contains(scr.String(), "… pasted line 50") {
		t.Fatalf("screen:\n%s", scr.String())
	}
}

func TestTallPasteWindowFollowsTheCursor(t *testing.T) {
	// Ctrl+C leaves the editing window on screen as it was.
	e, scr := newTest(t, 60, 12, paste(lines(50)), " X", "\x03")
	if _, err := e.ReadLine("nb> "); !errors.Is(err, ErrInterrupt) {
		t.Fatal(err)
	}
	want := []string{"↑ 40 more lines"}
	for i := 41; i < 50; i++ {
		want = append(want, fmt.Sprintf("… pasted line %d", i))
	}
	want = append(want, "… pasted line 50 X")
	got := rowsOf(scr)
	if len(got) < len(want) || strings.Join(got[len(got)-len(want):], "|") != strings.Join(want, "|") {
		t.Fatalf("screen rows:\n%s\nwant the last rows %q", strings.Join(got, "\n"), want)
	}
	// Moving up past the window's top moves the window.
	e, scr = newTest(t, 60, 12, paste(lines(50)), strings.Repeat("\x1b[A", 10), "\x03")
	e.ReadLine("nb> ")
	if got := strings.Join(rowsOf(scr), "|"); !strings.Contains(got, "↑ 39 more lines|… pasted line 40|") ||
		!strings.Contains(got, "… pasted line 48|↓ 2 more lines") {
		t.Fatalf("after moving up three lines:\n%s", strings.ReplaceAll(got, "|", "\n"))
	}
}

func TestHistoryRecallOfMultiLineEntriesLeavesNoStaleRows(t *testing.T) {
	up, down := "\x1b[A", "\x1b[B"
	e, scr := newTest(t, 40, 10, up, up, down, down, "short", up, "\x03")
	e.History.Add("first")
	e.History.Add("alpha\nbeta\ngamma\ndelta")
	e.ReadLine("nb> ")
	got := rowsOf(scr)
	// Up, Up (first), Down (alpha...), Down (the draft), "short", Up
	// (alpha..., replacing "short"), Ctrl+C.
	want := []string{"nb> alpha", "… beta", "… gamma", "… delta"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("screen rows = %q, want %q", got, want)
	}
}

func TestRecallGoesThroughTheHistoryAndBackToTheDraft(t *testing.T) {
	up, down := "\x1b[A", "\x1b[B"
	e, scr := newTest(t, 40, 10, "dra", up, up, up, down, down, down, "ft\r")
	e.History.Add("first")
	e.History.Add("two\nlines")
	msg, err := e.ReadLine("nb> ")
	if err != nil || msg != "draft" {
		t.Fatalf("message = %q, %v; want the draft back; screen:\n%s", msg, err, scr.String())
	}
	if rows := rowsOf(scr); len(rows) != 1 || rows[0] != "nb> draft" {
		t.Fatalf("screen:\n%s", scr.String())
	}
}

func TestEditingKeys(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"backspace", "abc\x7f\r", "ab"},
		{"left insert", "ac\x1b[Db\r", "abc"},
		{"home end", "bc\x01a\x05d\r", "abcd"},
		{"kill to end", "abcd\x1b[D\x1b[D\x0b\r", "ab"},
		{"kill to start", "abcd\x1b[D\x15\r", "d"},
		{"kill word", "rm -rf x\x17\x17\r", "rm "},
		{"delete", "abc\x01\x1b[3~\r", "bc"},
		{"alt enter adds a line", "a\x1b\rb\r", "a\nb"},
		{"up moves within a message", "a\x1b\rbc\x1b[AX\r", "aX\nbc"},
		{"utf-8", "héllo ☃\r", "héllo ☃"},
		{"unknown escape ignored", "a\x1b[15~b\r", "ab"},
		{"ctrl-d deletes", "ab\x01\x04\r", "b"},
		{"cooked enter", "abc\n", "abc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _ := newTest(t, 40, 10, c.in)
			got, err := e.ReadLine("> ")
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestInterruptAndEOF(t *testing.T) {
	// Ctrl+D typed ahead in line mode arrives as NUL: also the end.
	e, _ := newTest(t, 40, 10, "\x00")
	if _, err := e.ReadLine("> "); !errors.Is(err, io.EOF) {
		t.Fatalf("typed-ahead Ctrl+D: %v", err)
	}
	e, _ = newTest(t, 40, 10, "abc\x03", "\x04")
	if _, err := e.ReadLine("> "); !errors.Is(err, ErrInterrupt) {
		t.Fatalf("Ctrl+C: %v", err)
	}
	if _, err := e.ReadLine("> "); !errors.Is(err, io.EOF) {
		t.Fatalf("Ctrl+D: %v", err)
	}
	if len(e.History.Entries()) != 0 {
		t.Fatalf("an interrupted message entered the history: %q", e.History.Entries())
	}
}

func TestContinueAndComplete(t *testing.T) {
	e, _ := newTest(t, 40, 10, "one\\\r", "two\r", "/he\t\r")
	e.Continue = func(buf string) (string, bool) {
		if strings.HasSuffix(buf, `\`) {
			return strings.TrimSuffix(buf, `\`) + "\n", true
		}
		return buf, false
	}
	e.Complete = func(buf string) []string {
		if strings.HasPrefix("/help", buf) {
			return []string{"/help"}
		}
		return nil
	}
	if msg, _ := e.ReadLine("> "); msg != "one\ntwo" {
		t.Fatalf("continued message = %q", msg)
	}
	if msg, _ := e.ReadLine("> "); msg != "/help " {
		t.Fatalf("completed message = %q", msg)
	}
}

func TestWideLinesWrapWithoutLosingText(t *testing.T) {
	long := strings.Repeat("x", 25) + strings.Repeat("y", 25)
	e, scr := newTest(t, 20, 10, long, "\r")
	msg, _ := e.ReadLine("> ")
	if msg != long {
		t.Fatalf("message = %q", msg)
	}
	joined := strings.Join(rowsOf(scr), "")
	if !strings.Contains(joined, long) {
		t.Fatalf("screen does not hold the whole line:\n%s", scr.String())
	}
}

func TestHistoryFileKeepsMultiLineEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "input_history")
	var h History
	h.Add("one")
	h.Add("two\nlines")
	h.Add("two\nlines") // repeats are dropped
	h.Add("  ")
	if err := h.Save(path); err != nil {
		t.Fatal(err)
	}
	var back History
	if err := back.Load(path); err != nil {
		t.Fatal(err)
	}
	if got := back.Entries(); len(got) != 2 || got[1] != "two\nlines" {
		t.Fatalf("entries = %q", got)
	}
}

func rowsOf(scr *screentest.Screen) []string {
	rows := strings.Split(strings.TrimRight(scr.String(), " \n"), "\n")
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return rows
}

func TestHistorySearch(t *testing.T) {
	e, scr := newTest(t, 60, 10, "dr", "\x12gi", "t", "\x12", "\r")
	e.History.Add("git status")
	e.History.Add("make test")
	e.History.Add("git log -1")
	msg, err := e.ReadLine("nb> ")
	// "git" matches "git log -1", Ctrl+R again the older "git status".
	if err != nil || msg != "git status" {
		t.Fatalf("message = %q, %v; screen:\n%s", msg, err, scr.String())
	}
	if rows := rowsOf(scr); rows[len(rows)-1] != "nb> git status" {
		t.Fatalf("the sent message is not shown with the prompt:\n%s", scr.String())
	}
	// Ctrl+G gives the buffer back.
	e, _ = newTest(t, 60, 10, "draft", "\x12make", "\x07", "\r")
	e.History.Add("make test")
	if msg, _ := e.ReadLine("nb> "); msg != "draft" {
		t.Fatalf("after a cancelled search: %q", msg)
	}
	// A search with no match keeps the buffer and says so.
	e, scr = newTest(t, 60, 10, "\x12zzz", "\x03\x03")
	e.History.Add("make test")
	e.ReadLine("nb> ")
	if !strings.Contains(scr.Raw(), "(search, no match) zzz") {
		t.Fatalf("raw: %q", scr.Raw())
	}
}
