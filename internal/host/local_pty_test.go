//go:build unix

package host

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/proctest"
)

// readAll collects a terminal's output until it ends, with a deadline.
func readAll(t *testing.T, term Terminal) string {
	t.Helper()
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(term)
		got <- b
	}()
	select {
	case b := <-got:
		return string(b)
	case <-time.After(20 * time.Second):
		_ = term.Close()
		t.Fatal("terminal output never ended")
		return ""
	}
}

func TestStartPTYRunsOnATerminal(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	dir := t.TempDir()
	l := &Local{}
	term, err := l.StartPTY(context.Background(), &PTYCommand{
		Script: `tty -s && echo tty=yes; echo "size=$(stty size)"; echo "dir=$PWD"; echo "v=$NB_TEST_V"; ps -o sid= -o pgid= -o pid= $$; exit 7`,
		Dir:    dir, Env: []string{"NB_TEST_V=42"}, Rows: 33, Cols: 101,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	out := strings.ReplaceAll(readAll(t, term), "\r\n", "\n")
	for _, want := range []string{"tty=yes\n", "size=33 101\n", "dir=" + dir + "\n", "v=42\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The shell leads its own session and process group.
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == f[1] && f[1] == f[2] {
			goto ok
		}
	}
	t.Errorf("shell is not a session and group leader:\n%s", out)
ok:
	<-term.Done()
	if term.ExitCode() != 7 {
		t.Fatalf("exit code %d", term.ExitCode())
	}
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	if err := term.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
}

func TestStartPTYInputAndResize(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	l := &Local{}
	term, err := l.StartPTY(context.Background(), &PTYCommand{Script: `read a; stty size; echo "got $a"`, Dir: t.TempDir(), Rows: 10, Cols: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	if err := term.Resize(50, 160); err != nil {
		t.Fatal(err)
	}
	if _, err := term.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	out := readAll(t, term)
	if !strings.Contains(out, "50 160") || !strings.Contains(out, "got hello") {
		t.Fatalf("output: %q", out)
	}
}

func TestStartPTYCloseEndsTheSession(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	pidFile := filepath.Join(t.TempDir(), "pids")
	l := &Local{}
	// A child that ignores SIGTERM and SIGHUP, in another process group,
	// must still go.
	term, err := l.StartPTY(context.Background(), &PTYCommand{
		Script: `set -m; (trap '' TERM HUP; exec sleep 300) & echo $! > ` + pidFile + `; trap '' TERM; echo ready; while :; do sleep 1; done`,
		Dir:    t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Read concurrently: Close must also end a pending Read.
	readDone := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(term)
		readDone <- string(b)
	}()
	var pid int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(pidFile)
		if err == nil && len(bytes.TrimSpace(b)) > 0 {
			pid, _ = strconv.Atoi(string(bytes.TrimSpace(b)))
			break
		}
	}
	if pid == 0 {
		t.Fatal("no child pid")
	}
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-readDone:
	case <-time.After(10 * time.Second):
		t.Fatal("Read did not return after Close")
	}
	if f, ok := statFields(strconv.Itoa(pid)); ok && len(f) > 0 && !zombie(f[0]) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("child %d survived Close", pid)
	}
}

func TestStartPTYWrapAndShell(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var seen []string
	l := &Local{Shell: "/bin/sh", Wrap: func(w *Launch) error {
		seen = w.Argv
		w.Argv = append([]string{"/usr/bin/env", "NB_WRAPPED=1"}, w.Argv...)
		return nil
	}}
	term, err := l.StartPTY(context.Background(), &PTYCommand{Script: `echo "wrapped=$NB_WRAPPED"`, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	out := readAll(t, term)
	if len(seen) != 3 || seen[0] != "/bin/sh" || seen[1] != "-c" || seen[2] != `echo "wrapped=$NB_WRAPPED"` {
		t.Fatalf("argv given to Wrap: %q", seen)
	}
	if !strings.Contains(out, "wrapped=1") {
		t.Fatalf("output: %q", out)
	}
}

func TestStartPTYForeground(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	l := &Local{}
	term, err := l.StartPTY(context.Background(), &PTYCommand{Script: "exec bash --norc --noprofile -i", Dir: t.TempDir(), Env: []string{"PS1=$ "}})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	go func() { _, _ = io.Copy(io.Discard, term) }()
	fg := term.(interface {
		Foreground() (string, bool, bool)
	})
	wait := func(wantName string, wantLeader bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if name, leader, ok := fg.Foreground(); ok && name == wantName && leader == wantLeader {
				return
			}
		}
		name, leader, ok := fg.Foreground()
		t.Fatalf("foreground %q leader=%v ok=%v, want %q leader=%v", name, leader, ok, wantName, wantLeader)
	}
	wait("bash", true)
	if _, err := term.Write([]byte("sleep 30\n")); err != nil {
		t.Fatal(err)
	}
	wait("sleep", false)
}

// TestPTYCloseKillsDetachedChildren: closing a terminal ends the children
// that left its session (setsid) or ignore hang-ups (nohup) too.
func TestPTYCloseKillsDetachedChildren(t *testing.T) {
	proctest.Check(t)
	l := &Local{}
	n := strconv.Itoa(os.Getpid()%1000 + 81000)
	term, err := l.StartPTY(context.Background(), &PTYCommand{
		Script: "setsid sleep " + n + "1 >/dev/null 2>&1 & nohup sleep " + n + "2 >/dev/null 2>&1 & echo started; sleep " + n + "3",
		Dir:    t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	buf := make([]byte, 1024)
	for !strings.Contains(out.String(), "started") {
		k, err := term.Read(buf)
		out.Write(buf[:k])
		if err != nil {
			t.Fatalf("output %q: %v", out.String(), err)
		}
	}
	time.Sleep(200 * time.Millisecond) // let the background sleeps start
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	// proctest.Check fails the test if any of the sleeps is left.
}
