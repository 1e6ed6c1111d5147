package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/nb-cli/nb/internal/llm/llmtest"
)

// startNB starts interactive nb on a PTY in a fresh directory and returns
// it once the first prompt is on screen.
func startNB(tb testing.TB, env []string) (*exec.Cmd, *os.File, func() string) {
	tb.Helper()
	exe, err := exec.LookPath("nb")
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	home := filepath.Join(dir, "home")
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=xterm-256color",
		"XDG_CONFIG_HOME=" + home + "/.config", "XDG_STATE_HOME=" + home + "/.local/state"}, env...)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		tb.Fatal(err)
	}
	screen := record(f).String
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(screen(), "nb> ") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			tb.Fatalf("no prompt; screen:\n%s", screen())
		}
		time.Sleep(time.Millisecond)
	}
	return cmd, f, screen
}

func stopNB(tb testing.TB, cmd *exec.Cmd, f *os.File) {
	f.Write([]byte{4}) // Ctrl+D
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			tb.Errorf("nb exited with %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		tb.Errorf("nb did not leave on Ctrl+D")
	}
	f.Close()
}

// children lists the processes whose parent is pid.
func children(pid int) []string {
	var kids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			kids = append(kids, e.Name()+" "+s[strings.IndexByte(s, '('):strings.LastIndexByte(s, ')')+1])
		}
	}
	return kids
}

// At the first prompt nb has made no model request and started no process.
func TestStartupTouchesNothing(t *testing.T) {
	srv, err := llmtest.Start("openai", nil, func(msg string) { t.Errorf("fake model: %s", msg) })
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cmd, f, _ := startNB(t, []string{"OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=" + srv.URL()})
	if kids := children(cmd.Process.Pid); len(kids) > 0 {
		t.Errorf("nb started processes before they were needed: %v", kids)
	}
	stopNB(t, cmd, f)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("nb sent %d model requests before the first message", n)
	}
}

// BenchmarkVersion measures `nb --version`, a whole process start.
func BenchmarkVersion(b *testing.B) {
	exe, err := exec.LookPath("nb")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := exec.Command(exe, "--version").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelperStart measures the start of a helper nb re-executes
// itself as (here the preview's overlay helper, given no command, which
// it refuses after package initialisation): what every sandboxed preview
// pays before its work, so package initialisation must stay small.
func BenchmarkHelperStart(b *testing.B) {
	exe, err := exec.LookPath("nb")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		out, err := exec.Command(exe, "__preview-overlay").CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !strings.Contains(string(out), "preview helper: usage") {
			b.Fatalf("nb __preview-overlay: %v\n%s", err, out)
		}
	}
}

// BenchmarkStartToPrompt measures interactive start-up until the first
// prompt is drawn.
func BenchmarkStartToPrompt(b *testing.B) {
	// A model named: asking a server for its models is a round trip,
	// not start-up work.
	env := []string{"OPENAI_API_KEY=sk-test", "OPENAI_BASE_URL=http://127.0.0.1:9/v1", "OPENAI_MODEL=m"}
	for b.Loop() {
		cmd, f, _ := startNB(b, env)
		b.StopTimer()
		stopNB(b, cmd, f)
		b.StartTimer()
	}
}
