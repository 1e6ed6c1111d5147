package ptysession

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/testenv"
)

const helperEnv = "NB_PTYSESSION_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	goleak.VerifyTestMain(m)
}

// fast are short intervals for tests: reads end quickly once output settles.
var fast = config.Persistent{MinInterval: 0.05, SettleInterval: 0.3, MaxInterval: 5, BufferBytes: 1 << 16, Rows: 24, Cols: 80}

func newManager(t *testing.T, p config.Persistent) *Manager {
	t.Helper()
	dir := t.TempDir()
	m := New(Options{
		Host:        func() host.Host { return &host.Local{} },
		Dir:         func() string { return dir },
		Persistent:  p,
		MaxSessions: 8,
	})
	t.Cleanup(func() {
		if err := m.CloseAll(); err != nil {
			t.Errorf("close all: %v", err)
		}
	})
	return m
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// readUntil continues session id without input until its accumulated output
// contains want.
func readUntil(t *testing.T, m *Manager, id, want string) string {
	t.Helper()
	ctx := testCtx(t)
	var all strings.Builder
	for ctx.Err() == nil {
		out, err := m.Continue(ctx, id, "")
		if err != nil {
			t.Fatalf("continue %s: %v (output so far %q)", id, err, all.String())
		}
		all.WriteString(out.Text)
		if strings.Contains(all.String(), want) || out.Complete {
			break
		}
	}
	if !strings.Contains(all.String(), want) {
		t.Fatalf("output of %s never contained %q: %q", id, want, all.String())
	}
	return all.String()
}

func TestBashSessionKeepsState(t *testing.T) {
	// "sleep 30" below echoes and then waits the whole max interval.
	p := fast
	p.MaxInterval = 1.5
	m := newManager(t, p)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	if out.ID != "term-1" || out.Complete {
		t.Fatalf("start: %+v", out)
	}
	if !out.Prompt || !strings.HasSuffix(out.Text, "$ ") && !strings.HasSuffix(out.Text, "# ") {
		t.Fatalf("start did not end at the prompt: %+v", out)
	}
	if strings.Contains(out.Text, "\x1b") {
		t.Fatalf("escape sequences reach the model: %q", out.Text)
	}
	info, err := m.Get(out.ID)
	if err != nil || !info.Shell || info.Program != "bash" {
		t.Fatalf("info: %+v %v", info, err)
	}

	out, err = m.Continue(ctx, "term-1", "cd /tmp && mkdir -p nb-pty-test && cd nb-pty-test\n")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Prompt {
		t.Fatalf("cd did not end at the prompt: %+v", out)
	}
	out, err = m.Continue(ctx, "term-1", "pwd\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "\n/tmp/nb-pty-test\n") {
		t.Fatalf("cd did not persist: %q", out.Text)
	}
	// The text starts where the previous read ended: the echo of the input.
	if !strings.HasPrefix(out.Text, "pwd\n") {
		t.Fatalf("read did not start at the previous position: %q", out.Text)
	}
	if out.Position != info.End+int64(len(out.Text)) && out.Position <= info.End {
		t.Fatalf("position did not advance: %d", out.Position)
	}

	// A job in the foreground makes the session's input go to it, not to
	// the shell.
	if _, err := m.Continue(ctx, "term-1", "sleep 30\n"); err != nil {
		t.Fatal(err)
	}
	info, _ = m.Get("term-1")
	if info.Shell || info.Program != "sleep" {
		t.Fatalf("foreground job not seen: %+v", info)
	}
	if _, err := m.Continue(ctx, "term-1", "\x03"); err != nil {
		t.Fatal(err)
	}
	info, _ = m.Get("term-1")
	if !info.Shell {
		t.Fatalf("shell not back in the foreground after ^C: %+v", info)
	}

	if err := m.Stop("term-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Continue(ctx, "term-1", ""); !errors.Is(err, ErrNoSession) {
		t.Fatalf("continue after stop: %v", err)
	}
	if len(m.List()) != 0 {
		t.Fatalf("list after stop: %+v", m.List())
	}
}

func TestPromptEndsReadBeforeSettle(t *testing.T) {
	// With a settle interval of 10 s, only prompt detection can end these
	// reads quickly; a read that waits for settle fails the test by taking
	// the whole interval and not reporting a prompt.
	slow := fast
	slow.SettleInterval = 10
	slow.MaxInterval = 20
	m := newManager(t, slow)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Prompt {
		t.Fatalf("no prompt at start: %+v", out)
	}
	t0 := time.Now()
	out, err = m.Continue(ctx, out.ID, "echo hi\n")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Prompt || !strings.Contains(out.Text, "\nhi\n") || time.Since(t0) > 5*time.Second {
		t.Fatalf("echo hi: prompt=%v after %v: %q", out.Prompt, time.Since(t0), out.Text)
	}
}

func TestPythonREPL(t *testing.T) {
	testenv.Tool(t, "python3")
	m := newManager(t, fast)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "python3", "")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Prompt {
		// A slow start (pyenv shims on a busy machine) may end the first
		// read before the banner.
		readUntil(t, m, out.ID, ">>> ")
		out.Text, out.Prompt = ">>> ", true
	}
	if !strings.HasSuffix(out.Text, ">>> ") || !out.Prompt {
		t.Fatalf("no python prompt: %+v", out)
	}
	if info, _ := m.Get(out.ID); info.Shell || info.Program != "python3" {
		t.Fatalf("python3 seen as %+v", info)
	}
	out, err = m.Continue(ctx, out.ID, "def double(x):\n    return x * 2\n\nprint(double(21))\n")
	if err != nil {
		t.Fatal(err)
	}
	text := out.Text
	if !strings.Contains(text, "\n42\n") {
		text = readUntil(t, m, out.ID, "\n42\n")
	}
	if !strings.HasSuffix(text, ">>> ") {
		t.Fatalf("multi-line input: %q", text)
	}
	out, err = m.Continue(ctx, out.ID, "1/0\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "ZeroDivisionError") || !strings.HasSuffix(out.Text, ">>> ") {
		t.Fatalf("exception: %q", out.Text)
	}
	out, err = m.Continue(ctx, out.ID, "exit()\n")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Complete || out.ExitCode != 0 {
		t.Fatalf("exit: %+v", out)
	}
	if len(m.List()) != 0 {
		t.Fatalf("completed and read session still listed: %+v", m.List())
	}
}

func TestDevServerKeepsRunning(t *testing.T) {
	p := fast
	p.MaxInterval = 0.6
	m := newManager(t, p)
	ctx := testCtx(t)
	script := `echo "listening on http://localhost:3000"; i=0; while :; do echo "GET /$i 200"; i=$((i+1)); sleep 0.05; done`
	out, err := m.Start(ctx, script, "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Complete || !strings.Contains(out.Text, "listening on") {
		t.Fatalf("start: %+v", out)
	}
	first := out.Position
	out, err = m.Continue(ctx, out.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Complete || out.Position <= first || !strings.Contains(out.Text, " 200") || strings.Contains(out.Text, "listening") {
		t.Fatalf("continue: %+v", out)
	}
	infos := m.List()
	if len(infos) != 1 || !infos[0].Running || infos[0].Position != out.Position {
		t.Fatalf("list: %+v", infos)
	}
}

func TestFullScreenProgramIsRendered(t *testing.T) {
	testenv.Tool(t, "top")
	m := newManager(t, fast)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "top -d 0.3", "")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Screen {
		out, err = m.Continue(ctx, out.ID, "")
		if err != nil {
			t.Fatal(err)
		}
	}
	if !out.Screen || !strings.Contains(out.Text, "PID") || !strings.Contains(out.Text, "Tasks") {
		t.Fatalf("top not rendered as a screen: %+v", out)
	}
	if strings.Contains(out.Text, "\x1b") {
		t.Fatalf("escape sequences in screen: %q", out.Text)
	}
	if lines := strings.Count(out.Text, "\n") + 1; lines > fast.Rows {
		t.Fatalf("screen has %d lines, more than %d rows", lines, fast.Rows)
	}
	peek, err := m.Peek(out.ID)
	if err != nil || !strings.Contains(peek, "PID") {
		t.Fatalf("peek: %v %q", err, peek)
	}
	out, err = m.Continue(ctx, out.ID, "q")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Complete || out.Screen {
		t.Fatalf("after q: %+v", out)
	}
	if strings.Contains(out.Text, "PID") {
		t.Fatalf("screen drawing leaked into text after exit: %q", out.Text)
	}
}

func TestYesNoQuestion(t *testing.T) {
	slow := fast
	slow.SettleInterval = 10
	slow.MaxInterval = 20
	m := newManager(t, slow)
	ctx := testCtx(t)
	out, err := m.Start(ctx, `read -p "Delete 3 files? [y/N] " a; echo "answer=$a"`, "")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Prompt || !strings.HasSuffix(out.Text, "[y/N] ") {
		t.Fatalf("question not detected: %+v", out)
	}
	out, err = m.Continue(ctx, out.ID, "y\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, "answer=y") || !out.Complete {
		t.Fatalf("answer: %+v", out)
	}
}

func TestSessionExitsByItself(t *testing.T) {
	m := newManager(t, fast)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "echo first; sleep 0.5; echo last; exit 3", "")
	if err != nil {
		t.Fatal(err)
	}
	text := out.Text
	if !out.Complete {
		if l := m.List(); len(l) != 1 {
			t.Fatalf("list while running: %+v", l)
		}
		text += readUntil(t, m, out.ID, "last")
	}
	if !strings.Contains(text, "first\n") || !strings.Contains(text, "last") {
		t.Fatalf("output: %q", text)
	}
	if l := m.List(); len(l) != 0 {
		t.Fatalf("exited and read session still listed: %+v", l)
	}
}

func TestExitedSessionStaysUntilRead(t *testing.T) {
	m := newManager(t, fast)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "read x; echo bye $x; exit 4", "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Complete {
		t.Fatalf("exited early: %+v", out)
	}
	// Type the answer behind the manager's back, so the program exits
	// with output nobody has read.
	s, _ := m.get(out.ID)
	if _, err := s.term.Write([]byte("now\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.term.Done():
	case <-ctx.Done():
		t.Fatal("program did not exit")
	}
	l := m.List()
	if len(l) != 1 || l[0].Running || l[0].ExitCode != 4 {
		t.Fatalf("exited session with unread output: %+v", l)
	}
	out, err = m.Continue(ctx, out.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Complete || out.ExitCode != 4 || !strings.Contains(out.Text, "bye now") {
		t.Fatalf("final read: %+v", out)
	}
	if len(m.List()) != 0 {
		t.Fatal("session still listed after its output was read")
	}
	if _, err := m.Continue(ctx, out.ID, "x\n"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("continue after the end: %v", err)
	}
}

func TestLostOutputIsReported(t *testing.T) {
	p := fast
	p.BufferBytes = 4096
	m := newManager(t, p)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "read x; seq 1 20000; read y", "")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := m.get(out.ID)
	_, _ = s.term.Write([]byte("\n"))
	// Wait until the whole sequence is in, without reading it.
	for ctx.Err() == nil {
		s.mu.Lock()
		done := strings.Contains(string(s.ring.tail(0, 64)), "20000")
		s.mu.Unlock()
		if done {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	out, err = m.Continue(ctx, out.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Lost <= 0 || !strings.HasSuffix(strings.TrimSpace(out.Text), "20000") || len(out.Text) > 4096 {
		t.Fatalf("lost=%d len=%d tail=%q", out.Lost, len(out.Text), out.Text[max(0, len(out.Text)-40):])
	}
}

func TestEightSessionsAndLimit(t *testing.T) {
	m := newManager(t, fast)
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := m.Start(ctx, fmt.Sprintf("bash --norc --noprofile -i; echo %d", i), "")
			if err == nil && !out.Prompt {
				err = fmt.Errorf("session %s: no prompt: %q", out.ID, out.Text)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Start(ctx, "bash", ""); !errors.Is(err, ErrTooMany) {
		t.Fatalf("ninth session: %v", err)
	}
	infos := m.List()
	if len(infos) != 8 {
		t.Fatalf("list: %d sessions", len(infos))
	}
	var pids []int
	for i, in := range infos {
		if in.ID != "term-"+strconv.Itoa(i+1) || !in.Running {
			t.Fatalf("list order: %+v", infos)
		}
		out, err := m.Continue(ctx, in.ID, "echo $$\n")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(out.Text)
		pid, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("no pid in %q", out.Text)
		}
		pids = append(pids, pid)
	}
	if err := m.CloseAll(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if alive(pid) {
			t.Errorf("process %d survived CloseAll", pid)
		}
	}
	if len(m.List()) != 0 {
		t.Fatal("sessions listed after CloseAll")
	}
	// The manager stays usable after CloseAll (/clear).
	out, err := m.Start(ctx, "echo again", "")
	if err != nil || !strings.Contains(out.Text, "again") || out.ID != "term-9" {
		t.Fatalf("start after CloseAll: %+v %v", out, err)
	}
}

func TestStopEndsBackgroundJobs(t *testing.T) {
	m := newManager(t, fast)
	ctx := testCtx(t)
	out, err := m.Start(ctx, "bash --norc --noprofile", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err = m.Continue(ctx, out.ID, "trap '' HUP TERM; sleep 300 & echo bg=$!\n")
	if err != nil {
		t.Fatal(err)
	}
	match := regexp.MustCompile(`bg=(\d+)`).FindStringSubmatch(out.Text)
	if match == nil {
		t.Fatalf("no pid: %q", out.Text)
	}
	pid, _ := strconv.Atoi(match[1])
	if !alive(pid) {
		t.Fatal("background job not running")
	}
	if err := m.Stop(out.ID); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Fatalf("background job %d survived terminal_stop", pid)
	}
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] != 'Z' && s[i+2] != 'X'
}

// helperMain is a stand-in for nb: it starts sessions, prints the pids of
// their processes, and waits to be killed. On SIGTERM or SIGHUP it ends the
// sessions the way nb does at exit.
func helperMain() int {
	// As nb does: a guard ends what the sessions started if this process
	// is killed outright (a shell's background jobs get no hangup then).
	host.EnableGuard()
	// "sleep 301" echoes and then waits the whole max interval.
	p := fast
	p.MaxInterval = 1
	m := New(Options{Host: func() host.Host { return &host.Local{} }, Dir: os.TempDir, Persistent: p})
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	ctx := context.Background()
	cmds := []string{"sleep 300; echo never", "bash --norc --noprofile"}
	if os.Getenv(helperEnv) == "background" {
		// A job in the background of an interactive shell gets no hangup
		// from the kernel; the shell must pass it on, or nb end it.
		cmds = append(cmds, "bash --norc --noprofile")
	}
	var ids []string
	for _, c := range cmds {
		out, err := m.Start(ctx, c, "")
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		ids = append(ids, out.ID)
	}
	if _, err := m.Continue(ctx, ids[1], "sleep 301\n"); err != nil {
		fmt.Println("error", err)
		return 1
	}
	if len(ids) > 2 {
		if _, err := m.Continue(ctx, ids[2], "sleep 302 &\n"); err != nil {
			fmt.Println("error", err)
			return 1
		}
	}
	// Report every process in the sessions: scan /proc for descendants.
	for _, pid := range descendants(os.Getpid()) {
		fmt.Println("pid", pid)
	}
	fmt.Println("ready")
	<-sigs
	_ = m.CloseAll()
	return 0
}

// descendants lists the processes below pid.
func descendants(root int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			parent[pid] = pp
		}
	}
	var out []int
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == root {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

func TestNoSurvivorsWhenNbDies(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		mode string
		sig  syscall.Signal
	}{
		{"SIGKILL", "foreground", syscall.SIGKILL},
		{"SIGKILL with a background job", "background", syscall.SIGKILL},
		{"SIGTERM", "background", syscall.SIGTERM},
		{"SIGHUP", "background", syscall.SIGHUP},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testCtx(t)
			cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), helperEnv+"="+tc.mode)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var pids []int
			sc := bufio.NewScanner(stdout)
			ready := false
			for sc.Scan() {
				line := sc.Text()
				if line == "ready" {
					ready = true
					break
				}
				if p, ok := strings.CutPrefix(line, "pid "); ok {
					pid, _ := strconv.Atoi(p)
					pids = append(pids, pid)
				} else {
					t.Logf("helper: %s", line)
				}
			}
			if !ready {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatal("helper did not get ready")
			}
			want := 4 // sleep 300's shell and sleep, bash and sleep 301
			if tc.mode == "background" {
				want = 6 // and bash with sleep 302 in the background
			}
			if len(pids) < want {
				t.Fatalf("helper reported %d processes, want %d: %v", len(pids), want, pids)
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			// The kernel delivers the death signal and hangups
			// asynchronously: give the processes a moment to go.
			deadline := time.Now().Add(5 * time.Second)
			for {
				var left []int
				for _, pid := range pids {
					if alive(pid) {
						left = append(left, pid)
					}
				}
				if len(left) == 0 {
					return
				}
				if time.Now().After(deadline) {
					for _, pid := range left {
						if p, err := os.FindProcess(pid); err == nil {
							_ = p.Kill()
						}
					}
					t.Fatalf("processes survived nb's %s: %v", tc.name, left)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

func TestAlternateScreenProgram(t *testing.T) {
	testenv.Tool(t, "less")
	m := newManager(t, fast)
	ctx := testCtx(t)
	file := filepath.Join(t.TempDir(), "long.txt")
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&b, "line number %d\n", i)
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := m.Start(ctx, "echo before; LESS= less "+file, "")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Screen {
		out, err = m.Continue(ctx, out.ID, "")
		if err != nil {
			t.Fatal(err)
		}
	}
	if !out.Screen || !strings.Contains(out.Text, "line number 1\n") || strings.Contains(out.Text, "line number 30\n") || strings.Contains(out.Text, "before") {
		t.Fatalf("less screen: %+v", out)
	}
	// A key moves the screen; the read shows the new screen.
	out, err = m.Continue(ctx, out.ID, "G")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Screen || !strings.Contains(out.Text, "line number 200") || strings.Contains(out.Text, "line number 1\n") {
		t.Fatalf("after G: %+v", out)
	}
	out, err = m.Continue(ctx, out.ID, "q")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Complete || out.Screen || strings.Contains(out.Text, "line number") {
		t.Fatalf("after q: %+v", out)
	}
}

func TestCancelledReadReturns(t *testing.T) {
	p := fast
	p.SettleInterval = 20
	p.MaxInterval = 30
	m := newManager(t, p)
	// The question ends the first read early; the second read has
	// nothing to end it but the context.
	out, err := m.Start(testCtx(t), `read -p "go? [y/N] " x; sleep 60`, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	out, err = m.Continue(ctx, out.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(t0) > 10*time.Second || out.Complete || out.Text != "" {
		t.Fatalf("cancelled read: %+v after %v", out, time.Since(t0))
	}
}
