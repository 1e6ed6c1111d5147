package fleet

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/ssh"
	"github.com/nb-cli/nb/internal/sandwich"
)

// Defaults of the fleet block.
const (
	DefaultConcurrency    = 16
	DefaultConnectTimeout = 10 * time.Second
	// DefaultMaxOutputBytes caps each saved stream of each host.
	DefaultMaxOutputBytes = 16 << 20
	// keptRuns is how many runs' output directories are kept.
	keptRuns = 20
)

// Options configures a Fleet.
type Options struct {
	// Concurrency is how many hosts run at once (DefaultConcurrency).
	Concurrency int
	// ConnectTimeout bounds connecting to one host, handshake included.
	ConnectTimeout time.Duration
	// Home is the local home directory (default keys and known_hosts).
	Home string
	// AgentSocket is $SSH_AUTH_SOCK ("" for no agent).
	AgentSocket string
	// Shell runs the command remotely ("" for bash when present, else sh).
	Shell string
	// EnvPolicy says which variables of the remote environment commands
	// see (as on every host).
	EnvPolicy host.EnvPolicy
	// OutputRoot holds one directory per run with every host's full
	// output; "" saves nothing.
	OutputRoot string
	// MaxOutputBytes caps each saved stream (DefaultMaxOutputBytes).
	MaxOutputBytes int64
	// Limits shape the outputs the model sees, as run_cmd's.
	Limits sandwich.Limits
	// Keepalive is the interval of keepalive requests on idle connections.
	Keepalive time.Duration
}

// Fleet runs commands on the hosts of an inventory, keeping one
// connection per host for the session. It is safe for concurrent use.
type Fleet struct {
	inv  *Inventory
	opts Options

	mu     sync.Mutex
	conns  map[string]*ssh.Host // by host name; jump hops by "jump " + spec
	closed bool
	// dials counts TCP connections opened (reuse is measured by it).
	dials atomic.Int64
}

// Dials is how many TCP connections the fleet opened so far.
func (f *Fleet) Dials() int64 { return f.dials.Load() }

// dialTCP opens a direct connection and counts it.
func (f *Fleet) dialTCP(ctx context.Context, network, addr string) (net.Conn, error) {
	f.dials.Add(1)
	d := net.Dialer{Timeout: f.opts.ConnectTimeout}
	return d.DialContext(ctx, network, addr)
}

// New returns a Fleet over inv; connections are made on first use.
func New(inv *Inventory, o Options) *Fleet {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.MaxOutputBytes <= 0 {
		o.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if o.Limits == (sandwich.Limits{}) {
		o.Limits = sandwich.DefaultLimits()
	}
	return &Fleet{inv: inv, opts: o, conns: map[string]*ssh.Host{}}
}

// Inventory is the fleet's inventory.
func (f *Fleet) Inventory() *Inventory { return f.inv }

// Close ends every connection.
func (f *Fleet) Close() error {
	f.mu.Lock()
	conns := f.conns
	f.conns = map[string]*ssh.Host{}
	f.closed = true
	f.mu.Unlock()
	var errs []error
	// Targets first, then the jump hosts their connections go through.
	for _, jumps := range []bool{false, true} {
		for k, c := range conns {
			if strings.HasPrefix(k, "jump ") == jumps {
				if err := c.Close(); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// Request is one command for a selection of hosts.
type Request struct {
	Command string
	// Dir is the remote directory ("" for the login directory).
	Dir string
	// Timeout ends the command on each host (0: none).
	Timeout time.Duration
	// Progress, when set, is told about each host that finished.
	Progress func(Progress)
	// Sudo, when set, answers for sudo on the hosts where it needs a
	// password: those hosts are found first (sudo -n -v), Sudo is asked
	// once for all of them, and each validates its password (sudo -S -v,
	// the password on its standard input) in the shell that then runs
	// the command. Hosts whose sudo needs none run as they are.
	Sudo func(ctx context.Context, hosts []string) (SudoPasswords, error)
}

// Progress reports one finished host.
type Progress struct {
	Done, Total int
	Host        string
	Status      Status
}

// Status is how one host's run ended.
type Status string

const (
	StatusOK          Status = "ok"
	StatusFailed      Status = "failed"      // non-zero exit
	StatusUnreachable Status = "unreachable" // no connection
	StatusRefused     Status = "refused"     // host key or authentication
	StatusTimedOut    Status = "timedOut"
	StatusInterrupted Status = "interrupted" // Ctrl+C: stopped or not started
)

// HostResult is one host's outcome.
type HostResult struct {
	Host     string
	Status   Status
	ExitCode int
	// Error is why a host did not run (unreachable, refused, interrupted
	// before it started).
	Error    string
	Stdout   sandwich.Result
	Stderr   sandwich.Result
	Duration time.Duration
	// Ran says the command started on the host (its output counts).
	Ran bool
	sum [2][32]byte
	// hostKey: refused because its host key is not trusted.
	hostKey bool
}

// Run runs req on hosts in parallel, at most Concurrency at once. An
// unreachable or refused host never holds up the others; ctx (Ctrl+C)
// ends the running commands and skips the hosts not started.
func (f *Fleet) Run(ctx context.Context, hosts []*Host, req Request) *Result {
	start := time.Now()
	sudo := &sudoState{}
	if req.Sudo != nil {
		sudo = f.sudoNeeds(ctx, hosts, req)
	}
	dir, derr := f.outputDir()
	results := make([]*HostResult, len(hosts))
	sem := make(chan struct{}, f.opts.Concurrency)
	var wg sync.WaitGroup
	var pmu sync.Mutex
	done := 0
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
			}
			var r *HostResult
			if ctx.Err() != nil {
				r = &HostResult{Host: h.Name, Status: StatusInterrupted, ExitCode: -1, Error: "not started: interrupted"}
			} else {
				r = f.runOne(ctx, h, req, dir, sudo)
			}
			results[i] = r
			if req.Progress != nil {
				pmu.Lock()
				done++
				p := Progress{Done: done, Total: len(hosts), Host: h.Name, Status: r.Status}
				req.Progress(p)
				pmu.Unlock()
			}
		}()
	}
	wg.Wait()
	res := build(results)
	res.Duration = time.Since(start)
	if dir != "" {
		res.OutputDir = dir
		if err := writeIndex(dir, results); err != nil {
			res.Note = appendNote(res.Note, "the host index could not be saved: "+err.Error())
		}
	} else if derr != nil {
		res.Note = appendNote(res.Note, "outputs not saved: "+derr.Error())
	}
	return res
}

func appendNote(note, s string) string {
	if note == "" {
		return s
	}
	return note + "; " + s
}

// runOne runs the command on h.
func (f *Fleet) runOne(ctx context.Context, h *Host, req Request, dir string, sudo *sudoState) *HostResult {
	r := &HostResult{Host: h.Name, ExitCode: -1}
	start := time.Now()
	defer func() { r.Duration = time.Since(start) }()
	conn, err := f.conn(h)
	if err != nil {
		r.Status, r.Error = StatusUnreachable, err.Error()
		return r
	}
	var password []byte
	if sudo.needs[h.Name] {
		if sudo.err == nil {
			password = sudo.pw.For(h.Name)
		}
		if password == nil {
			r.Status, r.Error = StatusFailed, sudoError(sudo.err)
			return r
		}
	}
	out := newStream(f.opts, dir, h.Name, "stdout")
	errs := newStream(f.opts, dir, h.Name, "stderr")
	c := &host.Command{Script: req.Command, Dir: req.Dir, Stdout: out, Stderr: errs, Timeout: req.Timeout}
	var ex *host.Exit
	accepted := true
	if password != nil {
		ex, accepted, err = conn.RunSudo(ctx, c, password)
	} else {
		ex, err = conn.Run(ctx, c)
	}
	r.Stdout, r.sum[0] = out.close()
	r.Stderr, r.sum[1] = errs.close()
	if err != nil {
		r.Status, r.Error, r.hostKey = classify(ctx, err), hostError(err), errors.Is(err, ssh.ErrHostKey)
		return r
	}
	if !accepted {
		sudo.pw.Refused(h.Name)
		r.Status, r.ExitCode = StatusFailed, ex.Code
		r.Error = "sudo did not accept the password; the command did not run here"
		r.Stderr.Text = appendLine(r.Stderr.Text, refusedNote)
		return r
	}
	r.Ran, r.ExitCode = true, ex.Code
	switch {
	case ex.TimedOut:
		r.Status = StatusTimedOut
		r.Stderr.Text = appendLine(r.Stderr.Text, fmt.Sprintf("[Killed - exceeded %s timeout]", seconds(req.Timeout)))
	case ex.Interrupted:
		r.Status = StatusInterrupted
		r.Stderr.Text = appendLine(r.Stderr.Text, "[Interrupted by the user (Ctrl+C)]")
	case ex.Code != 0:
		r.Status = StatusFailed
	default:
		r.Status = StatusOK
	}
	return r
}

func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

func appendLine(s, line string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + line
}

// hostError is the error of a host that did not run, its cause first: a
// host key that is not trusted says so before the layers of the
// connection that met it ("ssh: handshake failed: host key verification
// failed: …"), so that a line cut to the terminal's width keeps it.
func hostError(err error) string {
	msg := err.Error()
	if errors.Is(err, ssh.ErrHostKey) {
		if _, cause, ok := strings.Cut(msg, ssh.ErrHostKey.Error()+": "); ok {
			return cause
		}
	}
	return msg
}

// classify names why a host did not run: its key or our credentials
// were refused, Ctrl+C came first, or it could not be reached (no
// answer, connection refused, a jump host down, the connection lost).
func classify(ctx context.Context, err error) Status {
	switch {
	case errors.Is(err, ssh.ErrHostKey), strings.Contains(err.Error(), "unable to authenticate"):
		return StatusRefused
	case ctx.Err() != nil:
		return StatusInterrupted
	}
	return StatusUnreachable
}

// conn is the session's connection to h (made on first use by Run).
func (f *Fleet) conn(h *Host) (*ssh.Host, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, errors.New("fleet: closed")
	}
	if c := f.conns[h.Name]; c != nil {
		return c, nil
	}
	dial := f.dialTCP
	if h.SSH.ProxyJump != "" {
		j, err := f.jumpLocked(h.SSH.ProxyJump)
		if err != nil {
			return nil, err
		}
		dial = j.DialContext
	}
	c, err := f.newHost(h.Name, h.SSH, dial)
	if err != nil {
		return nil, err
	}
	f.conns[h.Name] = c
	return c, nil
}

// jumpLocked is the connection to the last hop of a ProxyJump chain
// ([user@]host[:port],…), each hop resolved through the ssh config and
// reached through the one before.
func (f *Fleet) jumpLocked(chain string) (*ssh.Host, error) {
	var prev *ssh.Host
	key := "jump "
	for _, hop := range strings.Split(chain, ",") {
		hop = strings.TrimSpace(strings.TrimPrefix(hop, "ssh://"))
		key += hop + ","
		if c := f.conns[key]; c != nil {
			prev = c
			continue
		}
		user, hostport, ok := strings.Cut(hop, "@")
		if !ok {
			user, hostport = "", hop
		}
		name, port := hostport, ""
		if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.Contains(hostport[i+1:], "]") {
			name, port = hostport[:i], hostport[i+1:]
		}
		name = strings.Trim(name, "[]")
		r := f.inv.ssh.Resolve(name)
		if user != "" {
			r.User = user
		}
		if port != "" {
			p, err := strconv.Atoi(port)
			if err != nil {
				return nil, fmt.Errorf("ProxyJump %s: bad port %q", chain, port)
			}
			r.Port = p
		}
		dial := f.dialTCP
		if prev != nil {
			dial = prev.DialContext
		}
		c, err := f.newHost("jump "+hop, r, dial)
		if err != nil {
			return nil, fmt.Errorf("ProxyJump %s: %w", hop, err)
		}
		f.conns[key] = c
		prev = c
	}
	if prev == nil {
		return nil, fmt.Errorf("ProxyJump %q names no host", chain)
	}
	return prev, nil
}

func (f *Fleet) newHost(name string, r Resolved, dial func(ctx context.Context, network, addr string) (net.Conn, error)) (*ssh.Host, error) {
	var ask ssh.AskHostKeyFunc
	if r.StrictHostKeyChecking == "accept-new" || r.StrictHostKeyChecking == "no" {
		// The user's own setting: an unknown key is learnt. A changed key
		// is refused whatever the setting.
		ask = func(string, gossh.PublicKey) (bool, error) { return true, nil }
	}
	return ssh.New(ssh.Options{
		Name:            "fleet " + name,
		Host:            r.HostName,
		Port:            r.Port,
		User:            r.User,
		Home:            f.opts.Home,
		SSHConfig:       "none",
		IdentityFiles:   r.IdentityFiles,
		KnownHostsFiles: r.KnownHostsFiles,
		IdentitiesOnly:  r.IdentitiesOnly,
		AgentSocket:     f.opts.AgentSocket,
		AskHostKey:      ask,
		EnvPolicy:       f.opts.EnvPolicy,
		DialTimeout:     f.opts.ConnectTimeout,
		Keepalive:       f.opts.Keepalive,
		Shell:           f.opts.Shell,
		Dial:            dial,
	})
}

// stream captures one stream of one host: its hash (for grouping), the
// shaped text the model sees, and the full saved file.
type stream struct {
	cap  *sandwich.Capture
	h    hash.Hash
	file *os.File
	left int64
	cut  bool
	err  error
}

func newStream(o Options, dir, hostName, kind string) *stream {
	s := &stream{cap: sandwich.New(sandwich.Options{Limits: o.Limits}), h: sha256.New(), left: o.MaxOutputBytes}
	if dir != "" {
		f, err := os.OpenFile(filepath.Join(dir, fileName(hostName)+"."+kind), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		s.file, s.err = f, err
	}
	return s
}

func (s *stream) Write(p []byte) (int, error) {
	s.h.Write(p)
	s.cap.Write(p)
	if s.file != nil && !s.cut {
		w := p
		if int64(len(w)) > s.left {
			w, s.cut = w[:s.left], true
		}
		if _, err := s.file.Write(w); err != nil && s.err == nil {
			s.err = err
		}
		s.left -= int64(len(w))
	}
	return len(p), nil
}

func (s *stream) close() (sandwich.Result, [32]byte) {
	res, _ := s.cap.Close()
	if s.file != nil {
		if s.cut {
			_, _ = io.WriteString(s.file, "\n[nb: output cut here: the saved file is capped]\n")
		}
		_ = s.file.Close()
	}
	var sum [32]byte
	copy(sum[:], s.h.Sum(nil))
	return res, sum
}

// fileName makes a host name safe as a file name.
func fileName(h string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' || r == '@' {
			return r
		}
		return '_'
	}, h)
}

// outputDir makes this run's directory below OutputRoot and removes the
// oldest runs beyond keptRuns.
func (f *Fleet) outputDir() (string, error) {
	if f.opts.OutputRoot == "" {
		return "", nil
	}
	if err := os.MkdirAll(f.opts.OutputRoot, 0o700); err != nil {
		return "", fmt.Errorf("fleet outputs: %w", err)
	}
	var rnd [3]byte
	_, _ = rand.Read(rnd[:])
	dir := filepath.Join(f.opts.OutputRoot, time.Now().UTC().Format("20060102T150405")+"-"+hex.EncodeToString(rnd[:]))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("fleet outputs: %w", err)
	}
	if entries, err := os.ReadDir(f.opts.OutputRoot); err == nil {
		var runs []string
		for _, e := range entries {
			if e.IsDir() {
				runs = append(runs, e.Name())
			}
		}
		sort.Strings(runs)
		for len(runs) > keptRuns {
			if filepath.Join(f.opts.OutputRoot, runs[0]) != dir {
				_ = os.RemoveAll(filepath.Join(f.opts.OutputRoot, runs[0]))
			}
			runs = runs[1:]
		}
	}
	return dir, nil
}

// writeIndex saves hosts.tsv: host, status, exit code, error.
func writeIndex(dir string, rs []*HostResult) error {
	var b strings.Builder
	b.WriteString("host\tstatus\texitCode\terror\n")
	for _, r := range rs {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", r.Host, r.Status, r.ExitCode, strings.ReplaceAll(r.Error, "\n", " "))
	}
	return os.WriteFile(filepath.Join(dir, "hosts.tsv"), []byte(b.String()), 0o600)
}
