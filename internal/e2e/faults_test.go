package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/store"
)

// nbCommand is the real nb binary run in dir with a fresh HOME and the
// fake model server s.
func nbCommand(t *testing.T, dir string, s *llmtest.Server, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := exec.LookPath("nb")
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config",
		"XDG_STATE_HOME=" + home + "/.local/state", "OPENAI_BASE_URL=" + s.URL(), "OPENAI_API_KEY=sk-fakellm",
		proctest.EnvMarker + "=" + os.Getenv(proctest.EnvMarker)}
	return cmd
}

// TestSignalDuringLargeSave: SIGTERM or SIGHUP arriving just after the
// answer is printed, while a large history is being saved, neither loses
// the exchange nor leaves temporary files; nb exits 130.
func TestSignalDuringLargeSave(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			proctest.Check(t)
			dir := t.TempDir()
			h, err := store.OpenHistory(dir, t.TempDir(), time.Now)
			if err != nil {
				t.Fatal(err)
			}
			big := strings.Repeat("earlier words ", 150)
			var msgs []llm.Message
			for range 10000 {
				msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: big}, llm.Message{Role: llm.RoleAssistant, Text: big})
			}
			if err := h.Save(msgs); err != nil {
				t.Fatal(err)
			}
			h.Close()

			s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "the final answer"})
			cmd := nbCommand(t, dir, s, "the last question")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(out)
			seen := false
			for sc.Scan() {
				if strings.Contains(sc.Text(), "the final answer") {
					seen = true
					_ = cmd.Process.Signal(sig)
					break
				}
			}
			for sc.Scan() {
			}
			err = cmd.Wait()
			if !seen {
				t.Fatalf("the answer was never printed (%v)", err)
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("exit code %d, want 130", code)
			}
			h, err = store.OpenHistory(dir, t.TempDir(), time.Now)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			got, warn, err := h.Load()
			if err != nil || warn != "" {
				t.Fatalf("load: %q %v", warn, err)
			}
			if n := len(got); n != len(msgs)+2 || got[n-1].Text != "the final answer" || got[n-2].Text != "the last question" {
				t.Fatalf("history has %d messages, want %d ending in the exchange", len(got), len(msgs)+2)
			}
			if temps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(temps) > 0 {
				t.Errorf("temporary files left: %v", temps)
			}
		})
	}
}
