package ptysession

import (
	"io"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/host"
)

// foregrounder is implemented by terminals that can tell which program is
// in the foreground (the local host's).
type foregrounder interface {
	Foreground() (name string, leader bool, ok bool)
}

// ttyStater is implemented by terminals that can tell what the foreground
// program does with the terminal (the local host's, on Linux).
type ttyStater interface {
	TTYState() (host.TTYState, bool)
}

// ttyState is the terminal's state; ok is false when it cannot be told.
func (s *session) ttyState() (host.TTYState, bool) {
	if t, ok := s.term.(ttyStater); ok {
		return t.TTYState()
	}
	return host.TTYState{}, false
}

// session is one program on a terminal.
type session struct {
	id, command string
	program     string
	shell       bool
	started     time.Time
	term        host.Terminal
	now         func() time.Time
	// host is where the session runs.
	host host.Host

	// op serialises Start/Continue on the session.
	op sync.Mutex

	mu      sync.Mutex
	ring    *ring
	cursor  int64     // the model's read position
	lastOut time.Time // when output last arrived
	eof     bool      // the reader has seen the end of the output
	pending string    // text typed after the last Enter
	// pendingFg is the foreground program pending was typed to.
	pendingFg string
	changed   chan struct{}

	// emuMu guards the emulator and emuPos, the position up to which it
	// has been given the output.
	emuMu  sync.Mutex
	emu    *screen
	emuPos int64
	// kick wakes the emulator's feeder after new output.
	kick chan struct{}

	readerDone chan struct{}
	drainDone  chan struct{}
	feedDone   chan struct{}
	closeOnce  sync.Once
}

func newSession(id, command string, term host.Terminal, bufBytes, rows, cols int, now func() time.Time) *session {
	program, shell := programOf(command)
	emu := newEmulator(cols, rows)
	s := &session{
		id: id, command: command, program: program, shell: shell,
		started: now(), term: term, now: now,
		ring:       newRing(bufBytes),
		changed:    make(chan struct{}),
		emu:        emu,
		readerDone: make(chan struct{}),
		drainDone:  make(chan struct{}),
		feedDone:   make(chan struct{}),
		kick:       make(chan struct{}, 1),
	}
	s.lastOut = s.started
	go s.read()
	go s.drain()
	go s.feed()
	return s
}

// read is the only reader of the terminal: it fills the ring buffer and
// wakes collectors and the emulator's feeder. It never waits for the
// emulator, so output moves at the speed the program writes it.
func (s *session) read() {
	defer close(s.readerDone)
	defer close(s.kick)
	buf := make([]byte, 64<<10)
	for {
		n, err := s.term.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			s.mu.Lock()
			s.ring.write(chunk)
			s.lastOut = s.now()
			s.broadcastLocked()
			s.mu.Unlock()
			select {
			case s.kick <- struct{}{}:
			default:
			}
		}
		if err != nil {
			s.mu.Lock()
			s.eof = true
			s.broadcastLocked()
			s.mu.Unlock()
			return
		}
	}
}

// feedPause is how long the feeder rests after it had to skip output: a
// flood of output then costs the emulator a bounded share of a core.
const feedPause = 200 * time.Millisecond

// feed keeps the screen emulator close behind the output, so that it
// answers terminal queries (cursor position, device attributes) while the
// program waits for them.
func (s *session) feed() {
	defer close(s.feedDone)
	for range s.kick {
		if s.catchUp() {
			select {
			case <-time.After(feedPause):
			case <-s.readerDone:
			}
		}
	}
}

// catchUp gives the emulator the output it has not seen, at most the last
// emuWindow bytes of it, and reports whether it skipped any.
func (s *session) catchUp() (skipped bool) {
	s.emuMu.Lock()
	defer s.emuMu.Unlock()
	s.mu.Lock()
	end := s.ring.end()
	from := max(s.emuPos, end-emuWindow)
	data, lost := s.ring.read(from)
	s.mu.Unlock()
	skipped = from > s.emuPos || lost > 0
	_, _ = s.emu.Write(data)
	s.emuPos = end
	return skipped
}

// drain sends the emulator's answers to terminal queries (cursor position,
// device attributes) back to the program; without it the emulator blocks.
func (s *session) drain() {
	defer close(s.drainDone)
	buf := make([]byte, 1024)
	for {
		n, err := s.emu.Read(buf)
		if n > 0 {
			_, _ = s.term.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

func (s *session) broadcastLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// close ends the program and waits for the session's goroutines.
func (s *session) close() error {
	var err error
	s.closeOnce.Do(func() {
		err = s.term.Close()
		<-s.readerDone
		<-s.feedDone
		if pw, ok := s.emu.InputPipe().(io.Closer); ok {
			_ = pw.Close()
		}
		<-s.drainDone
	})
	return err
}

// done reports whether the program has exited.
func (s *session) done() bool {
	select {
	case <-s.term.Done():
		return true
	default:
		return false
	}
}

// direr is implemented by terminals that can tell the working directory of
// the program nb started (the local host's, where /proc exists).
type direr interface {
	Dir() (string, bool)
}

// dir is the working directory of the session's program, "" when unknown.
func (s *session) dir() string {
	if d, ok := s.term.(direr); ok {
		if dir, ok := d.Dir(); ok {
			return dir
		}
	}
	return ""
}

// foreground returns the program that receives typed input now and whether
// that input is a shell command line: a shell session counts as a shell only
// while the shell itself is in the foreground, not a job it started.
func (s *session) foreground() (program string, shell bool) {
	if f, ok := s.term.(foregrounder); ok {
		if name, leader, ok := f.Foreground(); ok {
			if !leader {
				return name, false
			}
			return s.program, s.shell
		}
	}
	return s.program, s.shell
}

// screen renders the emulator's current screen, after giving it the
// output it has not seen yet.
func (s *session) screen() (text string, alt bool) {
	s.catchUp()
	s.emuMu.Lock()
	defer s.emuMu.Unlock()
	return s.emu.String(), s.emu.IsAltScreen()
}
