package lineedit

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/nb-cli/nb/internal/render/screentest"
)

// rawTest is newTest for input from a terminal in raw mode, where a line
// feed is Ctrl+J.
func rawTest(t *testing.T, w, h int, input ...string) *Editor {
	t.Helper()
	e, _ := newTest(t, w, h, input...)
	e.keys.lineMode = false
	return e
}

func TestNewlineKeys(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"ctrl-j", "a\nb\r", "a\nb"},
		{"shift-enter, kitty", "a\x1b[13;2ub\r", "a\nb"},
		{"shift-enter, modifyOtherKeys", "a\x1b[27;2;13~b\r", "a\nb"},
		{"ctrl-enter", "a\x1b[27;5;13~b\r", "a\nb"},
		{"plain enter reported", "ab\x1b[13u", "ab"},
		{"ctrl-letter reported", "ab\x1b[27;5;97~X\r", "Xab"},
		{"shifted letter reported", "a\x1b[27;2;66~\r", "aB"},
		{"function key code ignored", "a\x1b[57399ub\r", "ab"},
		{"cr lf is one enter", "ab\r\n", "ab"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := rawTest(t, 40, 10, c.in)
			got, err := e.ReadLine("> ")
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// Enter typed while nb was busy, the terminal in line mode, arrives as a
// line feed: within the typeahead it sends; after it, a line feed is
// Ctrl+J.
func TestTypeaheadEnterSends(t *testing.T) {
	e := rawTest(t, 40, 10, "first\n", "two\nlines\r")
	e.keys.typeahead(len("first\n"))
	if got, err := e.ReadLine("> "); err != nil || got != "first" {
		t.Fatalf("typeahead = %q, %v", got, err)
	}
	if got, err := e.ReadLine("> "); err != nil || got != "two\nlines" {
		t.Fatalf("after the typeahead = %q, %v", got, err)
	}
}

func TestExternalEditor(t *testing.T) {
	for _, keys := range []string{"\x07", "\x18\x05"} {
		e := rawTest(t, 40, 10, "draft", keys, "\r")
		var gave string
		e.External = func(text string) (string, error) {
			gave = text
			return "from the editor\nsecond line\n", nil
		}
		got, err := e.ReadLine("> ")
		if err != nil || got != "from the editor\nsecond line" || gave != "draft" {
			t.Fatalf("keys %q: gave %q, got %q, %v", keys, gave, got, err)
		}
	}
	// A failing editor keeps the message.
	e, scr := newTest(t, 40, 10, "draft", "\x07", "\r")
	e.External = func(string) (string, error) { return "", errors.New("no editor") }
	if got, err := e.ReadLine("> "); err != nil || got != "draft" {
		t.Fatalf("got %q, %v", got, err)
	}
	if !strings.Contains(scr.String(), "editor: no editor") {
		t.Fatalf("screen:\n%s", scr.String())
	}
	// Ctrl+X then another key is that key.
	e = rawTest(t, 40, 10, "ab\x18\x01X\r")
	if got, _ := e.ReadLine("> "); got != "Xab" {
		t.Fatalf("ctrl-x ctrl-a: %q", got)
	}
}

func TestRowsAboveAtANewWidth(t *testing.T) {
	cases := []struct {
		widths          []int
		row, col, width int
		want            int
	}{
		{[]int{79, 79, 10}, 2, 10, 80, 2}, // same width
		{[]int{79, 79, 10}, 2, 10, 40, 4}, // each full row now takes two
		{[]int{79, 79, 60}, 2, 50, 40, 5}, // and the cursor is on the second half
		{[]int{30, 5}, 1, 3, 120, 1},      // wider: rows are not joined
		{[]int{0, 10}, 1, 0, 5, 1},        // an empty row is still a row
	}
	for _, c := range cases {
		if got := rowsAbove(c.widths, c.row, c.col, c.width); got != c.want {
			t.Errorf("rowsAbove(%v, %d, %d, %d) = %d, want %d", c.widths, c.row, c.col, c.width, got, c.want)
		}
	}
}

func TestCompleteWordAtTheCursor(t *testing.T) {
	complete := func(buf string, cursor int) (int, []string, bool) {
		i := strings.LastIndex(buf[:cursor], "@")
		if i < 0 {
			return 0, nil, false
		}
		switch buf[i:cursor] {
		case "@ma":
			return i, []string{"@src/main.go"}, true
		case "@do":
			return i, []string{"@docs/ui.md", "@docs/usage.md"}, true
		}
		return i, []string{"@a.txt", "@b.txt"}, true
	}
	cases := []struct{ in, want string }{
		{"see @ma\t\r", "see @src/main.go "},
		{"see @ma and\x1b[D\x1b[D\x1b[D\x1b[D\t\r", "see @src/main.go and"},
		{"@do\t\r", "@docs/u"},
		{"@x\t\r", "@x"}, // nothing in common: listed, unchanged
	}
	for _, c := range cases {
		e, scr := newTest(t, 60, 10, c.in)
		e.CompleteWord = complete
		got, err := e.ReadLine("> ")
		if err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.in, got, err, c.want)
		}
		if c.want == "@x" && !strings.Contains(scr.String(), "@a.txt  @b.txt") {
			t.Errorf("candidates not listed:\n%s", scr.String())
		}
	}
}

// Resize may come from another goroutine at any time: during a ReadLine
// it redraws, after it nothing.
func TestResizeFromAnotherGoroutine(t *testing.T) {
	pr, pw := io.Pipe()
	scr := screentest.New(40, 10, false)
	t.Cleanup(scr.Close)
	width := 40
	var mu sync.Mutex
	e := New(pr, -1, scr, func() (int, int) { mu.Lock(); defer mu.Unlock(); return width, 10 })
	done := make(chan string)
	go func() {
		msg, _ := e.ReadLine("> ")
		done <- msg
	}()
	if _, err := pw.Write([]byte(strings.Repeat("word ", 12))); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		e.Resize()
	}
	mu.Lock()
	width = 30
	mu.Unlock()
	e.Resize()
	if _, err := pw.Write([]byte("end\r")); err != nil {
		t.Fatal(err)
	}
	if msg := <-done; msg != strings.Repeat("word ", 12)+"end" {
		t.Fatalf("message %q", msg)
	}
	before := scr.String()
	e.Resize()
	if after := scr.String(); after != before {
		t.Fatalf("a resize after the message was sent drew:\n%s", after)
	}
	pw.Close()
}

// Shift+Tab, as xterm (CSI Z) and the kitty protocol (CSI 9;2u) send it,
// calls BackTab and redraws with the prompt it returns; the message being
// typed stays.
func TestBackTabSwitchesThePrompt(t *testing.T) {
	for _, seq := range []string{"\x1b[Z", "\x1b[9;2u"} {
		e, scr := newTest(t, 40, 10, "hel", seq, "lo\r")
		calls := 0
		e.BackTab = func() string { calls++; return "nb [edits]> " }
		msg, err := e.ReadLine("nb> ")
		if err != nil || msg != "hello" || calls != 1 {
			t.Fatalf("%q: msg %q calls %d err %v", seq, msg, calls, err)
		}
		if rows := rowsOf(scr); !strings.Contains(strings.Join(rows, "\n"), "nb [edits]> hello") {
			t.Errorf("%q: screen %q", seq, rows)
		}
	}
}
