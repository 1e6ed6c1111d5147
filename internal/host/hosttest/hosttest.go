// Package hosttest is the conformance suite every host.Host passes: exit
// codes, separate stdout and stderr, scripts passed intact, timeouts and
// cancellation, background children, measured working directory, large
// outputs, PTY sessions and Probe.
package hosttest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
)

// NewHost returns the host under test for a fresh working directory dir
// (which the host must be able to write, e.g. its sandbox workspace).
type NewHost func(t *testing.T, dir string) host.Host

// deadline bounds every run of the suite.
const deadline = 30 * time.Second

// Run runs the suite.
func Run(t *testing.T, newHost NewHost) {
	tests := []struct {
		name string
		fn   func(t *testing.T, h host.Host, dir string)
	}{
		{"ExitCodes", testExitCodes},
		{"Streams", testStreams},
		{"ScriptIntact", testScriptIntact},
		{"Env", testEnv},
		{"Timeout", testTimeout},
		{"Cancel", testCancel},
		{"BackgroundChild", testBackground},
		{"Cwd", testCwd},
		{"LargeOutput", testLargeOutput},
		{"PTY", testPTY},
		{"PTYEcho", testPTYEcho},
		{"PTYExitCode", testPTYExit},
		{"Probe", testProbe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := workdir(t)
			h := newHost(t, dir)
			t.Cleanup(func() { _ = h.Close() })
			tc.fn(t, h, dir)
		})
	}
}

func workdir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Result is one finished run.
type Result struct {
	Stdout, Stderr string
	Exit           *host.Exit
}

// Exec runs c on h with a deadline and collects its output.
func Exec(t *testing.T, ctx context.Context, h host.Host, c host.Command) Result {
	t.Helper()
	var o, e syncBuffer
	c.Stdout, c.Stderr = &o, &e
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	ex, err := h.Run(ctx, &c)
	if err != nil {
		t.Fatalf("run %q: %v", c.Script, err)
	}
	if ex == nil {
		t.Fatalf("run %q: nil exit", c.Script)
	}
	return Result{o.String(), e.String(), ex}
}

func sh(t *testing.T, h host.Host, dir, script string) Result {
	t.Helper()
	return Exec(t, context.Background(), h, host.Command{Script: script, Dir: dir, Timeout: 20 * time.Second})
}

func testExitCodes(t *testing.T, h host.Host, dir string) {
	for script, want := range map[string]int{"true": 0, "exit 7": 7, "false": 1, "sh -c 'kill -9 $$'": 137, "nonexistent-command-nb-test": 127} {
		r := sh(t, h, dir, script)
		if r.Exit.Code != want {
			t.Errorf("%q: exit %d, want %d (stderr %q)", script, r.Exit.Code, want, r.Stderr)
		}
		if r.Exit.TimedOut || r.Exit.Interrupted {
			t.Errorf("%q: %+v", script, r.Exit)
		}
	}
}

func testStreams(t *testing.T, h host.Host, dir string) {
	r := sh(t, h, dir, "echo to-out; echo to-err >&2; printf 'no newline'")
	if r.Stdout != "to-out\nno newline" || r.Stderr != "to-err\n" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

func testScriptIntact(t *testing.T, h host.Host, dir string) {
	script := "printf '%s|' 'single '\\''quoted'\\''' \"double \\\"q\\\" \\$HOME\" '$(not run)' `echo run`\n" +
		"cat <<'EOF'\nliteral $HOME \\n\nEOF\n" +
		"echo \"é 日本 \\x1e\"; echo '\x1e' | od -An -c | tr -d ' \\n'; echo"
	r := sh(t, h, dir, script)
	want := "single 'quoted'|double \"q\" $HOME|$(not run)|run|literal $HOME \\n\né 日本 \\x1e\n036\\n\n"
	if r.Stdout != want || r.Exit.Code != 0 {
		t.Errorf("stdout %q, want %q (stderr %q)", r.Stdout, want, r.Stderr)
	}
}

func testEnv(t *testing.T, h host.Host, dir string) {
	r := Exec(t, context.Background(), h, host.Command{Script: `printf '%s' "$NB_CONFORMANCE"`, Dir: dir, Env: []string{"NB_CONFORMANCE=a 'b' $c"}})
	if r.Stdout != "a 'b' $c" {
		t.Errorf("env: %q", r.Stdout)
	}
}

func testTimeout(t *testing.T, h host.Host, dir string) {
	start := time.Now()
	r := Exec(t, context.Background(), h, host.Command{Script: "echo begun; sleep 30; echo never", Dir: dir, Timeout: 2 * time.Second, KillGrace: 500 * time.Millisecond})
	if !r.Exit.TimedOut || r.Exit.Code == 0 || strings.Contains(r.Stdout, "never") || !strings.Contains(r.Stdout, "begun") {
		t.Errorf("timeout: %+v stdout %q", r.Exit, r.Stdout)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("timeout took %v", d)
	}
	// A command ignoring SIGTERM is killed after the grace period.
	r = Exec(t, context.Background(), h, host.Command{Script: "trap '' TERM; sleep 30", Dir: dir, Timeout: 300 * time.Millisecond, KillGrace: 300 * time.Millisecond})
	if !r.Exit.TimedOut {
		t.Errorf("TERM-ignoring command: %+v", r.Exit)
	}
}

func testCancel(t *testing.T, h host.Host, dir string) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	r := Exec(t, ctx, h, host.Command{Script: "sleep 30", Dir: dir, KillGrace: 500 * time.Millisecond})
	if !r.Exit.Interrupted || r.Exit.Code == 0 {
		t.Errorf("cancel: %+v", r.Exit)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("cancel took %v", d)
	}
}

func testBackground(t *testing.T, h host.Host, dir string) {
	start := time.Now()
	r := sh(t, h, dir, "sleep 30 & echo started")
	if r.Stdout != "started\n" || r.Exit.Code != 0 {
		t.Errorf("background: %+v %q %q", r.Exit, r.Stdout, r.Stderr)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("a background child held the run for %v", d)
	}
	// Detached from the output, a background child does not hold the run.
	r = sh(t, h, dir, "sleep 30 >/dev/null 2>&1 & echo ok")
	if r.Stdout != "ok\n" {
		t.Errorf("detached background: %q", r.Stdout)
	}
}

func testCwd(t *testing.T, h host.Host, dir string) {
	sub := filepath.Join(dir, "sub dir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r := sh(t, h, dir, "cd 'sub dir'")
	if r.Exit.Code != 0 || r.Exit.Cwd != sub {
		t.Errorf("cd: %+v (stderr %q), want cwd %q", r.Exit, r.Stderr, sub)
	}
	r = sh(t, h, dir, "cd /nonexistent-nb-dir")
	if r.Exit.Code == 0 || r.Exit.Cwd != dir {
		t.Errorf("failed cd: %+v, want cwd %q", r.Exit, dir)
	}
	r = sh(t, h, dir, "(cd 'sub dir' && pwd)")
	if r.Exit.Cwd != dir || strings.TrimSpace(r.Stdout) != sub {
		t.Errorf("subshell cd: %+v stdout %q", r.Exit, r.Stdout)
	}
	r = sh(t, h, sub, "cd ..; exit 4")
	if r.Exit.Code != 4 || r.Exit.Cwd != dir {
		t.Errorf("cd then exit: %+v", r.Exit)
	}
}

func testLargeOutput(t *testing.T, h host.Host, dir string) {
	r := sh(t, h, dir, "i=0; while [ $i -lt 20000 ]; do echo line $i; i=$((i+1)); done; echo tail >&2")
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) != 20000 || lines[0] != "line 0" || lines[19999] != "line 19999" || r.Stderr != "tail\n" {
		t.Errorf("large output: %d lines, first %q, stderr %q", len(lines), lines[0], r.Stderr)
	}
}

// reader collects a terminal's output in the background.
type reader struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	more chan struct{}
	eof  chan struct{}
}

func newReader(term io.Reader) *reader {
	r := &reader{more: make(chan struct{}, 1), eof: make(chan struct{})}
	go func() {
		defer close(r.eof)
		b := make([]byte, 4096)
		for {
			n, err := term.Read(b)
			if n > 0 {
				r.mu.Lock()
				r.buf.Write(b[:n])
				r.mu.Unlock()
				select {
				case r.more <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return r
}

func (r *reader) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// Expect waits until the output contains want.
func (r *reader) expect(t *testing.T, want string) {
	t.Helper()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	for !strings.Contains(r.String(), want) {
		select {
		case <-r.more:
		case <-r.eof:
			if !strings.Contains(r.String(), want) {
				t.Fatalf("terminal ended without %q; got %q", want, r.String())
			}
		case <-timer.C:
			t.Fatalf("no %q on the terminal; got %q", want, r.String())
		}
	}
}

func startPTY(t *testing.T, h host.Host, dir, script string) (host.Terminal, *reader) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	term, err := h.StartPTY(ctx, &host.PTYCommand{Script: script, Dir: dir, Rows: 30, Cols: 100, Env: []string{"PS1=nb$ ", "TERM=dumb"}})
	if err != nil {
		t.Fatalf("start pty: %v", err)
	}
	r := newReader(term)
	t.Cleanup(func() {
		_ = term.Close()
		<-r.eof
	})
	return term, r
}

func waitDone(t *testing.T, term host.Terminal) {
	t.Helper()
	select {
	case <-term.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal program did not end")
	}
}

func testPTY(t *testing.T, h host.Host, dir string) {
	term, r := startPTY(t, h, dir, "stty -echo 2>/dev/null; echo ready; read line; echo \"got[$line]\"; [ -t 0 ] && echo is-a-tty; stty size; exit 0")
	r.expect(t, "ready")
	if _, err := term.Write([]byte("hello pty\n")); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "got[hello pty]")
	r.expect(t, "is-a-tty")
	r.expect(t, "30 100")
	waitDone(t, term)
	if term.ExitCode() != 0 {
		t.Errorf("exit code %d", term.ExitCode())
	}
	if err := term.Close(); err != nil {
		t.Errorf("close after exit: %v", err)
	}
	if err := term.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func testPTYEcho(t *testing.T, h host.Host, dir string) {
	term, r := startPTY(t, h, dir, "echo ready; read line; echo \"[$line]\"")
	r.expect(t, "ready")
	if _, err := term.Write([]byte("typed-text\n")); err != nil {
		t.Fatal(err)
	}
	r.expect(t, "[typed-text]")
	if n := strings.Count(r.String(), "typed-text"); n != 2 {
		t.Errorf("typed input not echoed by the terminal: %q", r.String())
	}
	waitDone(t, term)
}

func testPTYExit(t *testing.T, h host.Host, dir string) {
	term, r := startPTY(t, h, dir, "echo started; exit 5")
	r.expect(t, "started")
	waitDone(t, term)
	if term.ExitCode() != 5 {
		t.Errorf("exit code %d, want 5", term.ExitCode())
	}
	// A running program is ended by Close.
	term2, r2 := startPTY(t, h, dir, "echo sleeping; sleep 30")
	r2.expect(t, "sleeping")
	if err := term2.Resize(40, 120); err != nil {
		t.Errorf("resize: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = term2.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("close did not end the program")
	}
	waitDone(t, term2)
}

func testProbe(t *testing.T, h host.Host, dir string) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	info, err := h.Probe(ctx, []string{"sh", "nb-no-such-tool"})
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	if info.OS == "" || info.Shell == "" || info.Arch == "" || info.User == "" {
		t.Errorf("probe: %+v", info)
	}
	if fmt.Sprint(info.Present) != "[sh]" || fmt.Sprint(info.Missing) != "[nb-no-such-tool]" {
		t.Errorf("tools: present %v missing %v", info.Present, info.Missing)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
