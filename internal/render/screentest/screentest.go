// Package screentest renders terminal output into a virtual screen
// (charmbracelet/x/vt) so tests can assert on what a user would see rather
// than on escape sequences.
package screentest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
)

// Screen is a virtual terminal safe for concurrent writes and reads.
type Screen struct {
	mu sync.Mutex
	em *vt.Emulator
	// onlcr turns "\n" into "\r\n" as a terminal's output processing does.
	onlcr   bool
	changed chan struct{}
	raw     strings.Builder
	drain   sync.WaitGroup
}

// New returns a w×h screen. With onlcr set, a bare "\n" also returns the
// cursor to the first column, like a cooked terminal; leave it unset when
// the bytes come from a real PTY, which already did that.
func New(w, h int, onlcr bool) *Screen {
	return NewReplying(w, h, onlcr, io.Discard)
}

// NewReplying is New with the emulator's answers to terminal queries
// (cursor position, device attributes) written to replies, normally the
// PTY the program reads from. They must be consumed either way, or Write
// blocks.
func NewReplying(w, h int, onlcr bool, replies io.Writer) *Screen {
	s := &Screen{em: vt.NewEmulator(w, h), onlcr: onlcr, changed: make(chan struct{}, 1)}
	s.drain.Add(1)
	go func() {
		defer s.drain.Done()
		_, _ = io.Copy(ignoreErrors{replies}, s.em)
	}()
	return s
}

// ignoreErrors keeps draining replies after their destination closed.
type ignoreErrors struct{ w io.Writer }

func (i ignoreErrors) Write(p []byte) (int, error) {
	_, _ = i.w.Write(p)
	return len(p), nil
}

// Close releases the emulator.
func (s *Screen) Close() {
	// Closing the reply pipe ends the drain; Emulator.Close would race
	// with the drain's Read on the emulator's closed flag.
	s.mu.Lock()
	if c, ok := s.em.InputPipe().(io.Closer); ok {
		_ = c.Close()
	}
	s.mu.Unlock()
	s.drain.Wait()
}

// Write feeds terminal output to the screen.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	data := string(p)
	s.raw.WriteString(data)
	if s.onlcr {
		data = strings.ReplaceAll(data, "\n", "\r\n")
	}
	_, err := s.em.WriteString(data)
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return len(p), err
}

// Resize changes the screen size.
func (s *Screen) Resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.em.Resize(w, h)
}

// Raw returns every byte written so far.
func (s *Screen) Raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

// String is the visible screen, trailing spaces and blank lines trimmed.
func (s *Screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(s.em.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// WaitFor waits until cond holds for the screen text, or fails with the
// screen when ctx ends first.
func (s *Screen) WaitFor(ctx context.Context, what string, cond func(screen string) bool) error {
	for {
		text := s.String()
		if cond(text) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w; screen:\n%s", what, ctx.Err(), text)
		case <-s.changed:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// WaitText waits until the screen contains text.
func (s *Screen) WaitText(ctx context.Context, text string) error {
	return s.WaitFor(ctx, fmt.Sprintf("%q", text), func(screen string) bool { return strings.Contains(screen, text) })
}
