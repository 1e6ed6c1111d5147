// Package iostreams holds the process's standard streams and what is known
// about them (terminal or not, colour, width), so that code below the CLI
// never touches os.Stdout, os.Getenv or the clock directly and tests can
// substitute buffers.
package iostreams

import (
	"bytes"
	"io"
	"os"
	"time"

	"golang.org/x/term"
)

// IO is the injected environment of one nb run.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer

	InTTY, OutTTY, ErrTTY bool
	// Color is true when ANSI styling may be written to Err/Out terminals.
	Color bool

	Getenv func(string) string
	Now    func() time.Time
	// Width returns the terminal width in columns (80 when unknown).
	Width func() int

	// InFd is the file descriptor of In when it is a terminal (for raw mode).
	InFd int
}

// System returns the real standard streams.
func System() *IO {
	isTTY := func(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
	io := &IO{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		InTTY: isTTY(os.Stdin), OutTTY: isTTY(os.Stdout), ErrTTY: isTTY(os.Stderr),
		Getenv: os.Getenv,
		Now:    time.Now,
		InFd:   int(os.Stdin.Fd()),
	}
	io.Width = func() int {
		for _, f := range []*os.File{os.Stderr, os.Stdout, os.Stdin} {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				return w
			}
		}
		return 80
	}
	io.Color = io.ErrTTY && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	return io
}

// Test returns an IO over buffers, not a terminal, with a fixed environment.
func Test(env map[string]string) (io *IO, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	io = &IO{
		In: in, Out: out, Err: errOut,
		Getenv: func(k string) string { return env[k] },
		Now:    time.Now,
		Width:  func() int { return 80 },
		InFd:   -1,
	}
	return io, in, out, errOut
}
