package lineedit

import (
	"io"
	"testing"
	"time"

	"github.com/creack/pty"
)

// A line typed just before ReadLine makes the terminal raw, while it is
// still in line mode (which turns Enter into a line feed), is sent by its
// Enter, not left in the buffer with a line break: the typeahead is
// counted once the terminal is raw.
func TestTypeaheadJustBeforeRaw(t *testing.T) {
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	beforeRaw = func() {
		beforeRaw = nil
		if _, err := master.Write([]byte("/undo\r")); err != nil {
			t.Error(err)
		}
		for queued(int(tty.Fd())) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	defer func() { beforeRaw = nil }()
	go func() { _, _ = io.Copy(io.Discard, master) }()
	e := New(tty, int(tty.Fd()), io.Discard, func() (int, int) { return 80, 24 })
	type line struct {
		s   string
		err error
	}
	got := make(chan line, 1)
	go func() {
		s, err := e.ReadLine("> ")
		got <- line{s, err}
	}()
	var l line
	select {
	case l = <-got:
	case <-time.After(10 * time.Second):
		// the line feed stayed a line break: a raw Enter sends the
		// buffer to show it
		_, _ = master.Write([]byte("\r"))
		l = <-got
	}
	if l.err != nil || l.s != "/undo" {
		t.Fatalf("ReadLine = %q, %v; want %q", l.s, l.err, "/undo")
	}
}
