//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package cli

import (
	"io"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// typeahead reads what the user types while a turn runs, so that it can be
// shown and becomes the start of the next message. The terminal is put out
// of line mode and echo (the text is drawn by nb, not echoed into the
// answer) with signals kept, so Ctrl+C still stops the turn; Esc pressed
// alone stops it too. Approval prompts pause it: keys typed before a
// prompt never answer it.
type typeahead struct {
	fd     int
	out    io.Writer // the terminal, for bracketed paste
	show   func(string)
	escape func()

	mu      sync.Mutex
	keys    []byte
	saved   *unix.Termios
	stop    chan struct{}
	stopped chan struct{}
}

func newTypeahead(fd int, out io.Writer, show func(string), escape func()) *typeahead {
	return &typeahead{fd: fd, out: out, show: show, escape: escape}
}

// escWait is how long an Esc waits for the rest of a key's escape
// sequence (a terminal writes a sequence at once): nothing more in that
// time, and it is the Esc key.
const escWait = 50 * time.Millisecond

// readable reports whether fd has input within d.
func readable(fd int, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d/time.Millisecond))
	return err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
}

// start begins reading keys; false when the terminal cannot be set.
func (t *typeahead) start() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stop != nil {
		return true
	}
	tio, err := unix.IoctlGetTermios(t.fd, ioctlGetTermios)
	if err != nil {
		return false
	}
	saved := *tio
	// Keys arrive one by one and unechoed; Enter stays a carriage return
	// (as the line editor reads it); output and signals are unchanged.
	tio.Lflag &^= unix.ICANON | unix.ECHO
	tio.Iflag &^= unix.ICRNL
	tio.Cc[unix.VMIN], tio.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(t.fd, ioctlSetTermios, tio); err != nil {
		return false
	}
	t.saved = &saved
	// A paste arrives marked, so it stays one message.
	_, _ = io.WriteString(t.out, "\x1b[?2004h")
	t.stop, t.stopped = make(chan struct{}), make(chan struct{})
	go t.read(t.stop, t.stopped)
	return true
}

// read takes the keys as they come, looking every pollWait whether to stop.
func (t *typeahead) read(stop, stopped chan struct{}) {
	defer close(stopped)
	buf := make([]byte, 1024)
	for {
		select {
		case <-stop:
			return
		default:
		}
		fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 50)
		if err != nil && err != unix.EINTR {
			return
		}
		if n <= 0 || fds[0].Revents&unix.POLLIN == 0 {
			if n > 0 {
				return // hung up
			}
			continue
		}
		select {
		case <-stop:
			return // the keys stay queued for whoever reads next
		default:
		}
		m, err := unix.Read(t.fd, buf)
		if m <= 0 || err != nil {
			return
		}
		if buf[m-1] == 0x1b && !readable(t.fd, escWait) {
			// Esc alone: it stops the turn, as Ctrl+C does, and is
			// not typed text.
			m--
			t.escape()
		}
		t.mu.Lock()
		t.keys = append(t.keys, buf[:m]...)
		shown := typeaheadText(t.keys)
		t.mu.Unlock()
		t.show(shown)
	}
}

// halt stops reading and restores the terminal's mode. t.mu is not held.
func (t *typeahead) halt() {
	t.mu.Lock()
	stop, stopped, saved := t.stop, t.stopped, t.saved
	t.stop, t.stopped, t.saved = nil, nil, nil
	t.mu.Unlock()
	if stop == nil {
		return
	}
	close(stop)
	<-stopped
	_, _ = io.WriteString(t.out, "\x1b[?2004l")
	_ = unix.IoctlSetTermios(t.fd, ioctlSetTermios, saved)
}

// pause stops reading for an approval prompt; the function returned
// starts again.
func (t *typeahead) pause() func() {
	t.mu.Lock()
	running := t.stop != nil
	t.mu.Unlock()
	if !running {
		return func() {}
	}
	t.halt()
	return func() { t.start() }
}

// finish stops reading and returns the keys typed.
func (t *typeahead) finish() []byte {
	t.halt()
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := t.keys
	t.keys = nil
	t.show("")
	return keys
}
