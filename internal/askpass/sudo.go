package askpass

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
)

// Options configures Sudo.
type Options struct {
	// Asker asks the user; nil means nobody can be asked.
	Asker Asker
	// Self is nb's executable (os.Executable when "").
	Self string
	// Environ is the environment commands run with; sudo, su and doas are
	// found on its PATH (os.Environ when nil).
	Environ []string
	// Dirs are where the private directory may be made, the first whose
	// file system lets its scripts run (os.TempDir is tried after them).
	Dirs []string
}

// Sudo passes the password requests of commands' sudo to the user. It is
// safe for concurrent use.
type Sudo struct {
	opts Options
	mem  memory
	// sudoCommand is nb's own SUDO_COMMAND: sudo's askpass program
	// inherits it, a command sudo runs has its own.
	sudoCommand *string

	mu      sync.Mutex
	started bool
	told    bool   // startEr was returned once
	dir     string // the private directory of the shims, "" when none
	env     []string
	ln      net.Listener
	runs    map[string]*run
	closed  bool
	conns   sync.WaitGroup
	startEr error
}

// New returns a Sudo; nothing starts before the first Prepare.
func New(o Options) *Sudo {
	s := &Sudo{opts: o, runs: map[string]*run{}}
	if v, ok := os.LookupEnv("SUDO_COMMAND"); ok {
		s.sudoCommand = &v
	}
	return s
}

// run is one command's registration with the bridge.
type run struct {
	command string
	ctx     context.Context
	cancel  context.CancelFunc

	mu  sync.Mutex
	out Outcome
	// lastSudo is the sudo process answered last; its asking again means
	// the answer was wrong. fromMemory says that answer was remembered.
	lastSudo   int
	fromMemory bool
}

// Run is one prepared command. A nil *Run adds nothing.
type Run struct {
	s     *Sudo
	token string
	r     *run
	env   []string
}

// Prepare readies one run of command on this machine: Env is added to
// its environment, End is called once it ended. It returns nil when
// there is nothing to bridge (no sudo here, or a system the bridge does
// not support), and why the bridge could not start the first time.
func (s *Sudo) Prepare(ctx context.Context, command string) (*Run, error) {
	if s == nil || !supported {
		return nil, nil
	}
	env, err := s.start()
	if err != nil || env == nil {
		return nil, err
	}
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	token := hex.EncodeToString(tok[:])
	rctx, cancel := context.WithCancel(ctx)
	r := &run{command: command, ctx: rctx, cancel: cancel}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		cancel()
		return nil, errClosed
	}
	if s.ln != nil {
		s.runs[token] = r
		env = append(env, EnvBridge+"="+token)
	}
	return &Run{s: s, token: token, r: r, env: env}, nil
}

var errClosed = errors.New("askpass: closed")

// Env is what the command's environment gets: PATH with the shims first,
// SUDO_ASKPASS and the run's token for the bridge.
func (r *Run) Env() []string {
	if r == nil {
		return nil
	}
	return r.env
}

// End unregisters the run (a prompt still open for it is cancelled) and
// says what sudo asked.
func (r *Run) End() Outcome {
	if r == nil {
		return Outcome{}
	}
	r.s.mu.Lock()
	delete(r.s.runs, r.token)
	r.s.mu.Unlock()
	r.r.cancel()
	r.r.mu.Lock()
	defer r.r.mu.Unlock()
	return r.r.out
}

// Forget drops every remembered password (/clear).
func (s *Sudo) Forget() {
	if s != nil {
		s.mem.clear()
	}
}

// Close stops the bridge, forgets the passwords and removes the private
// directory.
func (s *Sudo) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	s.closed = true
	ln, dir := s.ln, s.dir
	s.ln, s.dir = nil, ""
	for _, r := range s.runs {
		r.cancel()
	}
	s.mu.Unlock()
	var err error
	if ln != nil {
		err = ln.Close()
	}
	s.conns.Wait()
	s.mem.clear()
	if dir != "" {
		if rerr := os.RemoveAll(dir); err == nil {
			err = rerr
		}
	}
	return err
}

// start makes the private directory with its shims and starts the bridge
// (once). env is nil when this machine has none of sudo, su and doas.
func (s *Sudo) start() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if !s.started {
		s.started = true
		if err := s.setup(); err != nil {
			s.startEr = fmt.Errorf("askpass: %w", err)
		}
	}
	if s.env == nil {
		// why the bridge is off is said once, not with every command
		if s.startEr != nil && !s.told {
			s.told = true
			return nil, s.startEr
		}
		return nil, nil
	}
	return append([]string(nil), s.env...), nil
}

// setup makes what start starts. Callers hold s.mu.
func (s *Sudo) setup() error {
	environ := s.opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	path := lookupEnv(environ, "PATH")
	progs := findPrograms(path)
	if progs == (programs{}) {
		return nil
	}
	self := s.opts.Self
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return err
		}
	}
	var ln net.Listener
	addr := ""
	if progs.sudo != "" {
		var err error
		if ln, err = listen(); err != nil {
			return err
		}
		addr = ln.Addr().String()
	}
	dir, err := privateDir(append(append([]string(nil), s.opts.Dirs...), os.TempDir()))
	if err == nil {
		if err = writeShims(dir, self, addr, progs); err != nil {
			os.RemoveAll(dir)
		}
	}
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	s.dir, s.ln = dir, ln
	s.env = []string{"PATH=" + joinPath(dir, path)}
	if ln != nil {
		s.env = append(s.env, "SUDO_ASKPASS="+shimPath(dir, askpassShim))
		s.conns.Add(1)
		go s.serve(ln)
	}
	return nil
}

func joinPath(dir, path string) string {
	if path == "" {
		return dir
	}
	return dir + string(os.PathListSeparator) + path
}

func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// answer finds the password for a request of sudo process sudoPid in r:
// the remembered one, unless sudo refused it a moment ago, else the
// user's. The caller zeroes it.
func (s *Sudo) answer(ctx context.Context, r *run, prompt string, sudoPid int) ([]byte, error) {
	r.mu.Lock()
	retry := r.lastSudo == sudoPid
	if retry && r.fromMemory {
		s.mem.forget(localKey)
	}
	r.lastSudo, r.fromMemory = sudoPid, false
	r.out.Asked++
	r.mu.Unlock()
	if !retry {
		if pw := s.mem.get(localKey); pw != nil {
			r.mu.Lock()
			r.fromMemory = true
			r.mu.Unlock()
			return pw, nil
		}
	}
	ans, err := s.ask(ctx, Question{Command: r.command, Prompt: prompt, Retry: retry})
	if err != nil {
		r.mu.Lock()
		switch {
		case errors.Is(err, ErrNoTerminal):
			r.out.NoTerminal = true
		case ctx.Err() != nil && !errors.Is(err, ErrInterrupted):
			// withdrawn (sudo or the command ended), not the user's doing
		default:
			r.out.Cancelled = true
		}
		r.mu.Unlock()
		return nil, err
	}
	if ans.Remember {
		s.mem.put(localKey, ans.Password)
	}
	return ans.Password, nil
}

// localKey is the memory's key for this machine's sudo.
const localKey = ""

// ask asks the Asker, or fails when there is none.
func (s *Sudo) ask(ctx context.Context, q Question) (Answer, error) {
	if s.opts.Asker == nil {
		return Answer{}, ErrNoTerminal
	}
	if err := ctx.Err(); err != nil {
		return Answer{}, ErrCancelled
	}
	ans, err := s.opts.Asker.AskPassword(ctx, q)
	if err == nil && len(ans.Password) > MaxPassword {
		Wipe(ans.Password)
		return Answer{}, fmt.Errorf("the password is longer than sudo reads (%d bytes)", MaxPassword)
	}
	if err != nil {
		Wipe(ans.Password)
	}
	return ans, err
}
