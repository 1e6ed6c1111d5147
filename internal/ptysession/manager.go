// Package ptysession runs persistent terminal sessions (SPEC §7, seed 002):
// programs on pseudo-terminals that the model starts, types into and reads
// from across tool calls. Output is kept in a bounded buffer addressed by
// absolute positions, collected with the seed's min/settle/max intervals,
// returned early when the program waits for input, cleaned of escape
// sequences, and rendered as a screen for full-screen programs.
package ptysession

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
)

// promptQuiet is how long output must pause after a prompt appears before a
// read returns early; it keeps a chunk that merely ends in "> " from ending
// the read while the program is still printing.
const promptQuiet = 25 * time.Millisecond

// exitDrain is how long a read waits for the last output of an exited
// program when something (a background job) still holds the terminal open.
const exitDrain = 100 * time.Millisecond

// firstOutputWait is the least quiet time that ends a read in which no
// output has arrived at all.
const firstOutputWait = time.Second

// Options configures a Manager.
type Options struct {
	// Host returns the host sessions start on (the active one).
	Host func() host.Host
	// Dir returns the directory new sessions start in (the shell cwd).
	Dir func() string
	// Persistent holds the intervals, buffer size and terminal size.
	Persistent config.Persistent
	// MaxSessions bounds concurrent sessions (0: 8).
	MaxSessions int
	// Env is added to the environment of every session, after nb's own
	// settings.
	Env []string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Manager owns the sessions. It is safe for concurrent use.
type Manager struct {
	opts Options

	mu       sync.Mutex
	sessions map[string]*session
	next     int
}

// New returns a manager with no sessions.
func New(opts Options) *Manager {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 8
	}
	p := &opts.Persistent
	if p.MaxInterval <= 0 {
		p.MaxInterval = 30
	}
	if p.BufferBytes <= 0 {
		p.BufferBytes = 1 << 20
	}
	if p.Rows <= 0 {
		p.Rows = 40
	}
	if p.Cols <= 0 {
		p.Cols = 120
	}
	return &Manager{opts: opts, sessions: map[string]*session{}}
}

// Output is the result of one read of a session.
type Output struct {
	ID      string
	Command string
	// Position is the session's read position after this read: the
	// absolute number of bytes the program has written so far.
	Position int64
	// Complete is set when the program has exited; ExitCode is valid then.
	Complete bool
	ExitCode int
	// Text is the output since the previous read, cleaned.
	Text string
	// Lost counts bytes that were dropped from the bounded buffer before
	// they could be read.
	Lost int64
	// Screen is set when Text is a rendering of a full-screen program's
	// screen rather than its output stream.
	Screen bool
	// Prompt is set when the read ended because the program waits for
	// input.
	Prompt bool
	// Ended says what ended the read.
	Ended WaitEnd
}

// Info describes a session for listings.
type Info struct {
	ID, Command string
	// Program is the program receiving input now; Shell says it reads
	// shell command lines.
	Program string
	Shell   bool
	// Launched is the program the session started and LaunchedShell
	// whether it is a shell: the shell gets typed input whenever the
	// foreground program does not read it.
	Launched      string
	LaunchedShell bool
	// Host is the host the session runs on (not necessarily the active
	// one).
	Host host.Host
	// Dir is the working directory of the program the session started
	// (where a typed cd left the shell); "" when it cannot be told.
	Dir string
	// Pending is the text typed after the last Enter.
	Pending string
	// Question is what the program waits for, when its output ends in a
	// recognised question or password prompt (QuestionText).
	Question     Question
	QuestionText string
	// SecretRead is set when the foreground program (the session's shell
	// too: `read -s`) is blocked reading a line the terminal does not
	// echo: a password read, whatever its prompt says.
	SecretRead bool
	Position   int64 // the model's read position
	End        int64 // bytes written so far
	Running    bool
	ExitCode   int
	Started    time.Time
	Uptime     time.Duration
}

// ErrNoSession is returned for an unknown session id.
var ErrNoSession = errors.New("no such session")

// ErrTooMany is returned when MaxSessions sessions are open.
var ErrTooMany = errors.New("too many sessions")

// sessionEnv is what every session gets on top of the host environment: a
// capable terminal type, pagers that do not wait for keys, and REPLs in
// their plain line mode.
var sessionEnv = []string{
	"TERM=xterm-256color",
	"NB=1",
	"PAGER=cat",
	"GIT_PAGER=cat",
	"PYTHON_BASIC_REPL=1",
	`PS1=\u@\h:\w\$ `,
}

// Start starts command on a new terminal, sends stdin when given, and
// collects the first output.
func (m *Manager) Start(ctx context.Context, command, stdin string) (*Output, error) {
	return m.StartWatch(ctx, command, stdin, nil)
}

// StartWatch is Start that also passes the raw output to live (when not
// nil) as it arrives, for the user to watch; live runs on the calling
// goroutine.
func (m *Manager) StartWatch(ctx context.Context, command, stdin string, live func(raw []byte)) (*Output, error) {
	h := m.opts.Host()
	if h == nil {
		return nil, errors.New("start session: no host")
	}
	dir := ""
	if m.opts.Dir != nil {
		dir = m.opts.Dir()
	}
	return m.StartOn(ctx, h, dir, command, stdin, live)
}

// StartOn is StartWatch on host h in directory dir: exactly where the
// command was approved to run.
func (m *Manager) StartOn(ctx context.Context, h host.Host, dir, command, stdin string, live func(raw []byte)) (*Output, error) {
	if h == nil {
		return nil, errors.New("start session: no host")
	}
	m.mu.Lock()
	if len(m.sessions) >= m.opts.MaxSessions {
		n := len(m.sessions)
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: %d of %d open; stop one with terminal_stop", ErrTooMany, n, m.opts.MaxSessions)
	}
	m.next++
	id := "term-" + strconv.Itoa(m.next)
	m.mu.Unlock()

	env := append(append([]string{}, sessionEnv...), m.opts.Env...)
	p := m.opts.Persistent
	term, err := h.StartPTY(ctx, &host.PTYCommand{Script: command, Dir: dir, Env: env, Rows: p.Rows, Cols: p.Cols})
	if err != nil {
		return nil, fmt.Errorf("start session: %w", err)
	}
	s := newSession(id, command, term, p.BufferBytes, p.Rows, p.Cols, m.opts.Now)
	s.host = h

	m.mu.Lock()
	if len(m.sessions) >= m.opts.MaxSessions {
		m.mu.Unlock()
		_ = s.close()
		return nil, fmt.Errorf("%w: %d open; stop one with terminal_stop", ErrTooMany, m.opts.MaxSessions)
	}
	m.sessions[id] = s
	m.mu.Unlock()

	return m.exchange(ctx, s, stdin, true, live)
}

// Continue sends stdin (when not empty) to session id and returns the
// output since the previous read. A newline in stdin is the Enter key.
func (m *Manager) Continue(ctx context.Context, id, stdin string) (*Output, error) {
	return m.ContinueWatch(ctx, id, stdin, nil)
}

// ContinueWatch is Continue that also passes the raw output to live (when
// not nil) as it arrives.
func (m *Manager) ContinueWatch(ctx context.Context, id, stdin string, live func(raw []byte)) (*Output, error) {
	s, err := m.get(id)
	if err != nil {
		return nil, err
	}
	return m.exchange(ctx, s, stdin, false, live)
}

func (m *Manager) exchange(ctx context.Context, s *session, stdin string, first bool, live func([]byte)) (*Output, error) {
	s.op.Lock()
	defer s.op.Unlock()
	s.mu.Lock()
	from := s.cursor
	// A prompt counts only in output that follows the input sent; with no
	// input, unread output ending in a prompt also ends the read.
	mark := s.ring.end()
	if stdin == "" {
		mark = from
	}
	s.mu.Unlock()
	if stdin != "" {
		if s.done() {
			return nil, fmt.Errorf("send to %s: the program has exited", s.id)
		}
		// What is typed without Enter stays pending for the program that
		// reads it, the one in the foreground as it is typed; another
		// program in the foreground later does not see it.
		fg, _ := s.foreground()
		if _, err := s.term.Write(keys(stdin)); err != nil {
			return nil, fmt.Errorf("send to %s: %w", s.id, err)
		}
		s.mu.Lock()
		if fg != s.pendingFg {
			s.pending = ""
		}
		s.pending, s.pendingFg = pendingAfter(s.pending, stdin), fg
		s.mu.Unlock()
	}
	end := m.collect(ctx, s, waitFor{from: from, mark: mark, input: stdin, started: first}, live)
	out := m.take(s, from)
	out.Ended = end
	out.Prompt = end == EndPrompt || end == EndReading
	if out.Complete {
		s.mu.Lock()
		drained := s.cursor >= s.ring.end()
		s.mu.Unlock()
		if drained {
			m.remove(s)
		}
	}
	return out, nil
}

// WaitEnd says what ended a read.
type WaitEnd int

const (
	// EndSettled: output that matters arrived and then paused for the
	// settle interval.
	EndSettled WaitEnd = iota
	// EndPrompt: the program waits for input at a recognised prompt.
	EndPrompt
	// EndExit: the program exited.
	EndExit
	// EndMaxInterval: the longest wait passed without output that matters.
	EndMaxInterval
	// EndQuiet: a program just started has written nothing for a while.
	EndQuiet
	// EndCancelled: the call was cancelled.
	EndCancelled
	// EndReading: the program's output paused and its foreground process
	// is blocked reading the terminal (cat, input() with no prompt).
	EndReading
)

func (e WaitEnd) String() string {
	switch e {
	case EndSettled:
		return "output settled"
	case EndPrompt:
		return "waiting for input"
	case EndExit:
		return "program exited"
	case EndMaxInterval:
		return "max interval"
	case EndQuiet:
		return "no output yet"
	case EndCancelled:
		return "cancelled"
	case EndReading:
		return "reading the terminal"
	}
	return "unknown"
}

// waitFor is what one read waits for.
type waitFor struct {
	from  int64  // the model's read position
	mark  int64  // where output following the input begins
	input string // what was typed (its echo does not count as output)
	// started is set for the first read of a new session: silence there
	// means a program still starting, and ends the read after a while.
	started bool
}

// collect waits for output that matters: at least MinInterval, then until
// output has been quiet for SettleInterval, at most MaxInterval. Output
// matters when it is more than the terminal's echo of the input typed
// (a command that is still running, such as "sleep 5; echo five", has
// echoed its line and nothing more, and is waited for). The read returns
// as soon as the program exits, and early when output written after the
// input ends in a prompt and has paused briefly; a read with no input
// returns at once when the program already waits at a prompt. It sleeps on
// channels and timers only, and reports what ended it.
func (m *Manager) collect(ctx context.Context, s *session, w waitFor, live func([]byte)) WaitEnd {
	p := m.opts.Persistent
	minI := seconds(p.MinInterval)
	settle := seconds(p.SettleInterval)
	maxI := seconds(p.MaxInterval)
	start := time.Now()
	timer := time.NewTimer(maxI)
	defer timer.Stop()
	exited := s.term.Done()
	var doneAt time.Time
	checked := int64(-1)
	promptSeen, matters := false, false
	sent := w.from
	// A program blocked reading the terminal waits for input even with no
	// prompt: once the output pauses, the read ends (where the terminal
	// can tell; readPoll paces the look).
	_, canTell := s.ttyState()
	// A poll of a program that already waits at a prompt returns at once.
	waiting := false
	if w.input == "" && !w.started {
		s.mu.Lock()
		if end := s.ring.end(); end == w.from && end > 0 {
			waiting = isPrompt(lastLine(cleanText(s.ring.tail(max(end-512, 0), 512))))
		}
		s.mu.Unlock()
	}
	for {
		s.mu.Lock()
		end := s.ring.end()
		var chunk []byte
		if live != nil && end > sent {
			chunk, _ = s.ring.read(sent)
			sent = end
		}
		last := s.lastOut
		eof := s.eof
		changed := s.changed
		if end > w.mark && end != checked {
			checked = end
			promptSeen = isPrompt(lastLine(cleanText(s.ring.tail(w.mark, 512))))
			if !matters {
				matters = s.mattersLocked(w, end)
			}
		}
		s.mu.Unlock()
		if len(chunk) > 0 {
			live(chunk)
		}

		now := time.Now()
		elapsed := now.Sub(start)
		if !doneAt.IsZero() && (eof || now.Sub(doneAt) >= exitDrain) {
			return EndExit
		}
		if waiting {
			return EndPrompt
		}
		if elapsed >= maxI {
			return EndMaxInterval
		}
		// Quiet time counts from the later of the read's start and the
		// last output; the wall clock of lastOut comes from Now, so
		// compare through elapsed times.
		sinceOut := m.opts.Now().Sub(last)
		quiet := min(sinceOut, elapsed)
		if promptSeen && end > w.mark && quiet >= promptQuiet {
			return EndPrompt
		}
		if matters && elapsed >= minI && quiet >= settle {
			return EndSettled
		}
		if canTell && elapsed >= minI && quiet >= settle && s.blockedReading() {
			return EndReading
		}
		// A program just started that has written nothing yet (still
		// starting, or silent by nature) is given a little longer.
		quietStart := w.started && end <= w.from
		startWait := max(settle, firstOutputWait)
		if quietStart && elapsed >= minI && quiet >= startWait {
			return EndQuiet
		}
		// Sleep until the next moment a rule could fire, or new output.
		wait := maxI - elapsed
		if matters {
			wait = min(wait, max(minI-elapsed, settle-quiet))
		}
		if quietStart {
			wait = min(wait, max(minI-elapsed, startWait-quiet))
		}
		if promptSeen {
			wait = min(wait, promptQuiet-quiet)
		}
		if canTell {
			wait = min(wait, max(minI-elapsed, settle-quiet, readPoll))
		}
		if !doneAt.IsZero() {
			wait = min(wait, exitDrain-now.Sub(doneAt))
		}
		wait = max(wait, time.Millisecond)
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return EndCancelled
		case <-changed:
		case <-exited:
			exited = nil
			doneAt = time.Now()
		case <-timer.C:
		}
	}
}

// readPoll is how often a read that waits looks whether the foreground
// program is blocked reading the terminal.
const readPoll = 100 * time.Millisecond

// blockedReading reports whether the session's foreground process is
// blocked reading the terminal.
func (s *session) blockedReading() bool {
	st, ok := s.ttyState()
	return ok && st.WaitsForInput()
}

// maxEchoCheck bounds the output compared with the input's echo: more
// output than this is more than an echo.
const maxEchoCheck = 64 << 10

// mattersLocked reports whether the output written after the input (up to
// end) is more than the terminal's echo of it. s.mu is held.
func (s *session) mattersLocked(w waitFor, end int64) bool {
	if end <= w.mark {
		return false
	}
	if w.input == "" || end-w.mark > int64(len(w.input))+maxEchoCheck {
		return true
	}
	raw, _ := s.ring.read(w.mark)
	if altEnter(raw) || altExit(raw) >= 0 || lastAddressing(raw) >= 0 {
		return true // a screen being drawn
	}
	return beyondEcho(cleanText(raw), w.input)
}

// keys turns text into what a keyboard sends: a newline is the Enter key,
// which terminals send as a carriage return (raw-mode programs such as
// full-screen tools and line editors expect it; the terminal driver turns
// it back into a newline for line-mode programs).
func keys(text string) []byte {
	text = strings.ReplaceAll(text, "\r\n", "\r")
	return []byte(strings.ReplaceAll(text, "\n", "\r"))
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// take reads the session's output from position from to the end and moves
// the read position there.
func (m *Manager) take(s *session, from int64) *Output {
	s.mu.Lock()
	data, lost := s.ring.read(from)
	end := s.ring.end()
	s.cursor = end
	s.mu.Unlock()
	out := &Output{ID: s.id, Command: s.command, Position: end, Lost: lost}
	if s.done() {
		out.Complete = true
		out.ExitCode = s.term.ExitCode()
	}
	screen, alt := s.screen()
	const omitted = "[full-screen program output omitted]\n"
	switch {
	case alt:
		out.Screen = true
		out.Text = screen
	case altEnter(data) || altExit(data) >= 0:
		// A full-screen program ran and ended within this read: its
		// drawing is noise; what follows it is the output.
		rest := data
		if i := altExit(data); i >= 0 {
			rest = data[i:]
		}
		out.Text = omitted + limitText(cleanText(rest))
	case lastAddressing(data) >= 0:
		// A program drawing on the main screen (top): while it runs its
		// screen is the output; once it has exited, what it wrote after
		// its last drawing is.
		if !out.Complete {
			out.Screen = true
			out.Text = screen
			break
		}
		out.Text = omitted + limitText(cleanText(data[lastAddressing(data):]))
	default:
		out.Text = limitText(cleanText(data))
	}
	return out
}

// Stop ends session id and forgets it.
func (m *Manager) Stop(id string) error {
	s, err := m.get(id)
	if err != nil {
		return err
	}
	m.remove(s)
	return nil
}

func (m *Manager) get(id string) (*session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNoSession, id)
	}
	return s, nil
}

// remove forgets s and ends its program.
func (m *Manager) remove(s *session) {
	m.mu.Lock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	m.mu.Unlock()
	_ = s.close()
}

// List describes the sessions, in start order.
func (m *Manager) List() []Info {
	m.mu.Lock()
	ss := make([]*session, 0, len(m.sessions))
	for _, s := range m.sessions {
		ss = append(ss, s)
	}
	m.mu.Unlock()
	sort.Slice(ss, func(i, j int) bool {
		a, _ := strconv.Atoi(ss[i].id[len("term-"):])
		b, _ := strconv.Atoi(ss[j].id[len("term-"):])
		return a < b
	})
	now := m.opts.Now()
	infos := make([]Info, 0, len(ss))
	for _, s := range ss {
		infos = append(infos, s.info(now))
	}
	return infos
}

// Get describes session id.
func (m *Manager) Get(id string) (Info, error) {
	s, err := m.get(id)
	if err != nil {
		return Info{}, err
	}
	return s.info(m.opts.Now()), nil
}

func (s *session) info(now time.Time) Info {
	s.mu.Lock()
	pos, end := s.cursor, s.ring.end()
	last := strings.TrimRight(lastLine(cleanText(s.ring.tail(0, 512))), "\n")
	pending, pendingFg := s.pending, s.pendingFg
	s.mu.Unlock()
	program, shell := s.foreground()
	if program != pendingFg {
		pending = ""
	}
	in := Info{
		ID: s.id, Command: s.command, Program: program, Shell: shell,
		Launched: s.program, LaunchedShell: s.shell, Pending: pending, Dir: s.dir(), Host: s.host,
		Question: questionOf(last), QuestionText: strings.TrimSpace(last),
		Position: pos, End: end, Running: !s.done(), Started: s.started,
		Uptime: now.Sub(s.started),
	}
	if !in.Running {
		in.ExitCode = s.term.ExitCode()
	} else if st, ok := s.ttyState(); ok && st.SecretRead() {
		in.SecretRead = true
	}
	return in
}

// Peek renders what session id's terminal shows now, for the user. It does
// not move the model's read position.
func (m *Manager) Peek(id string) (string, error) {
	s, err := m.get(id)
	if err != nil {
		return "", err
	}
	text, _ := s.screen()
	return text, nil
}

// CloseAll ends every session (nb exit, /clear) and waits until their
// programs are gone. The manager stays usable.
func (m *Manager) CloseAll() error {
	m.mu.Lock()
	ss := make([]*session, 0, len(m.sessions))
	for id, s := range m.sessions {
		ss = append(ss, s)
		delete(m.sessions, id)
	}
	m.mu.Unlock()
	errs := make([]error, len(ss))
	var wg sync.WaitGroup
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.close()
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
