package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	return nbCommandWith(t, dir, s, "", args...)
}

// nbCommandWith is nbCommand with more configuration keys (JSON members,
// "" for none).
func nbCommandWith(t *testing.T, dir string, s *llmtest.Server, more string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := exec.LookPath("nb")
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(t.TempDir(), "home")
	// A context window that holds the whole (large) history, so that it is
	// sent and saved as it is rather than compacted.
	if more != "" {
		more = ", " + more
	}
	cfg := fmt.Sprintf(`{"activeProvider": "big", "providers": {"big": {"type": "openai-compatible", "baseUrl": %q, "model": "m", "contextWindow": 100000000}}%s}`, s.URL(), more)
	if err := os.MkdirAll(filepath.Join(home, ".config", "nb"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "nb", "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home + "/.config",
		"XDG_STATE_HOME=" + home + "/.local/state", "OPENAI_BASE_URL=" + s.URL(), "OPENAI_API_KEY=sk-fakellm",
		proctest.EnvMarker + "=" + os.Getenv(proctest.EnvMarker)}
	return cmd
}

// saveScale is how many messages make a history whose save takes long
// enough to be interrupted: n, or a quarter of it when the race detector
// slows the save down by more than that.
func saveScale(n int) int {
	if raceEnabled {
		return n / 4
	}
	return n
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
			for range saveScale(10000) {
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

// TestSIGKILLDuringSave: nb killed with SIGKILL at any moment of saving a
// large history (written in pieces into a temporary file, then renamed)
// leaves either the history before the turn or the one after it, never a
// damaged one; the next nb removes the temporary file.
func TestSIGKILLDuringSave(t *testing.T) {
	proctest.Check(t)
	dir := t.TempDir()
	h, err := store.OpenHistory(dir, t.TempDir(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []llm.Message
	for i := range saveScale(3000) {
		out := fmt.Sprintf(`{"stdout":%q,"exitCode":0}`, strings.Repeat(fmt.Sprintf("src/pkg%d/file.go:12: TODO \"tidy\" <this>\n", i), 30))
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d", i)},
			llm.Message{Role: llm.RoleAssistant, Text: out, Usage: &llm.Usage{InputTokens: 100 + i, OutputTokens: 7}, Model: "m"})
	}
	if err := h.Save(msgs); err != nil {
		t.Fatal(err)
	}
	h.Close()
	path := filepath.Join(dir, store.HistoryFile)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kept := map[bool]int{}
	midway := 0
	for _, delay := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 6 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 200 * time.Millisecond} {
		if err := os.WriteFile(path, before, 0o600); err != nil {
			t.Fatal(err)
		}
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
		for sc.Scan() {
			if strings.Contains(sc.Text(), "the final answer") {
				time.Sleep(delay)
				_ = cmd.Process.Signal(syscall.SIGKILL)
				break
			}
		}
		for sc.Scan() {
		}
		cmd.Wait()
		if temps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(temps) > 0 {
			midway++
		}
		h, err := store.OpenHistory(dir, t.TempDir(), time.Now)
		if err != nil {
			t.Fatal(err)
		}
		got, warn, err := h.Load()
		h.Close()
		if err != nil || warn != "" {
			t.Fatalf("killed %v after the answer: load: %q %v", delay, warn, err)
		}
		switch n := len(got); {
		case n == len(msgs):
			kept[false]++
		case n == len(msgs)+2 && got[n-2].Text == "the last question" && got[n-1].Text == "the final answer":
			kept[true]++
		default:
			t.Fatalf("killed %v after the answer: %d messages, want %d or %d ending in the exchange", delay, n, len(msgs), len(msgs)+2)
		}
		if got[len(msgs)-1].Text != msgs[len(msgs)-1].Text || got[0].Text != msgs[0].Text {
			t.Fatalf("killed %v after the answer: the earlier conversation changed", delay)
		}
		if temps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(temps) > 0 {
			t.Fatalf("killed %v after the answer: temporary files left after the next open: %v", delay, temps)
		}
	}
	t.Logf("histories after the kill: %d before the turn, %d after it; %d killed in the middle of writing", kept[false], kept[true], midway)
}

// TestSIGKILLLeavesNoDescendants: nb killed with SIGKILL while a run_cmd
// command's setsid'd child and a terminal session's setsid'd and nohup'd
// children run leaves none of them behind.
func TestSIGKILLLeavesNoDescendants(t *testing.T) {
	proctest.Check(t)
	n := os.Getpid()%1000 + 7000
	secs := func(i int) string { return strconv.Itoa(n*10 + i) }
	// The command waits until setsid has run and exec'd sleep: a process
	// still in the shell's group when the shell exits is ended with it by
	// design, and under load setsid may not have run yet.
	runCmd := `{"command": "setsid sleep ` + secs(1) + ` >/dev/null 2>&1 & until pgrep -xf 'sleep ` + secs(1) + `' >/dev/null; do :; done; echo bg"}`
	term := `{"command": "setsid sleep ` + secs(2) + ` >/dev/null 2>&1 & nohup sleep ` + secs(3) + ` >/dev/null 2>&1 & echo started; sleep ` + secs(4) + `"}`
	s := llmtest.NewOpenAI(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "run_cmd", Arguments: runCmd}, {Name: "terminal_start", Arguments: term}}},
		llmtest.Turn{Silent: true},
	)
	// The processes nb may leave behind are those it runs unsandboxed
	// (what the user allowed); in the read-only sandbox (the safe list's
	// setsid and sleep) none outlives its command.
	cmd := nbCommandWith(t, t.TempDir(), s, `"terminal": {"readOnlySandbox": {"enabled": false}}`, "start things")
	out := startKilledAtCleanup(t, cmd)
	for deadline := time.Now().Add(20 * time.Second); len(s.Requests()) < 2; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the tools never ran")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 1; i <= 4; i++ {
		if !waitRunning("sleep "+secs(i), 5*time.Second) {
			t.Fatalf("sleep %s is not running before the kill; nb printed:\n%s\nrequest: %s", secs(i), out.String(), s.Requests()[1].Raw)
		}
	}
	stateDir := nbStateDir(cmd)
	if recs := procRecords(stateDir); len(recs) != 1 {
		t.Errorf("records of the running nb: %v, want one", recs)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if left := waitGone("sleep "+secs(1), "sleep "+secs(2), "sleep "+secs(3), "sleep "+secs(4)); len(left) > 0 {
		t.Errorf("left running after SIGKILL of nb: %v", left)
		killLeft(left)
	}
	// The guard removed nb's record once it had cleaned up.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		recs := procRecords(stateDir)
		if len(recs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("records left: %v", recs)
			break
		}
	}
}

// TestSIGKILLSandboxedLeavesNoDescendants: a command nb allowed on its own
// judgement runs in the sandbox's process namespace, whose first process
// dies with nb: nb killed with SIGKILL leaves nothing of it behind, and
// this holds without the guard, which such a run does not start.
func TestSIGKILLSandboxedLeavesNoDescendants(t *testing.T) {
	proctest.Check(t)
	n := os.Getpid()%1000 + 8000
	secs := func(i int) string { return strconv.Itoa(n*10 + i) }
	runCmd := `{"command": "setsid sleep ` + secs(1) + ` >/dev/null 2>&1 & sleep ` + secs(2) + `"}`
	s := llmtest.NewOpenAI(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "run_cmd", Arguments: runCmd}}},
	)
	cmd := nbCommandWith(t, t.TempDir(), s, "", "start things")
	out := startKilledAtCleanup(t, cmd)
	for i := 1; i <= 2; i++ {
		if !waitRunning("sleep "+secs(i), 20*time.Second) {
			t.Fatalf("sleep %s is not running before the kill; nb printed:\n%s", secs(i), out.String())
		}
	}
	// It runs in the sandbox (its own process namespace) and no guard
	// was started: what ends it below is the namespace alone.
	for _, pid := range pgrep("sleep " + secs(2)) {
		self, err1 := os.Readlink("/proc/self/ns/pid")
		its, err2 := os.Readlink("/proc/" + pid + "/ns/pid")
		if err1 != nil || err2 != nil || self == its {
			t.Fatalf("the command runs in nb's process namespace (%s, %v, %v): not sandboxed", its, err1, err2)
		}
	}
	if recs := procRecords(nbStateDir(cmd)); len(recs) != 0 {
		t.Errorf("a guard was started for a contained command: records %v", recs)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if left := waitGone("sleep "+secs(1), "sleep "+secs(2)); len(left) > 0 {
		t.Errorf("left running after SIGKILL of nb: %v", left)
		killLeft(left)
	}
}

// killLeft ends the processes a failed test found left running (a
// mutant's run, say), so that they do not outlive it by a day.
func killLeft(pids []string) {
	for _, p := range pids {
		pid, err := strconv.Atoi(p)
		if err != nil {
			continue
		}
		if proc, err := os.FindProcess(pid); err == nil {
			_ = proc.Kill()
		}
	}
}

// startKilledAtCleanup starts nb's cmd with its output collected: a
// failure of the test must not leave nb (and what it started) running.
func startKilledAtCleanup(t *testing.T, cmd *exec.Cmd) *strings.Builder {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return &out
}

// waitRunning waits up to d for a process running cmdline.
func waitRunning(cmdline string, d time.Duration) bool {
	for deadline := time.Now().Add(d); len(pgrep(cmdline)) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// nbStateDir is nb's state directory in cmd's environment.
func nbStateDir(cmd *exec.Cmd) string {
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return filepath.Join(v, "nb")
		}
	}
	return ""
}

// procRecords are the records of running nbs in state (the guard's).
func procRecords(state string) []string {
	recs, _ := filepath.Glob(filepath.Join(state, "procs", "*"))
	return recs
}

// waitGone waits up to 5 s for no process to run any of cmdlines and
// returns those still running.
func waitGone(cmdlines ...string) []string {
	var left []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		left = nil
		for _, c := range cmdlines {
			left = append(left, pgrep(c)...)
		}
		if len(left) == 0 {
			break
		}
	}
	return left
}

// pgrep lists the pids of live processes whose command line ends in
// cmdline.
func pgrep(cmdline string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.HasSuffix(" "+strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " ")), " "+cmdline) {
			continue
		}
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		pids = append(pids, e.Name())
	}
	return pids
}

// TestConcurrentRunsKeepEveryExchange: runs started together in one
// directory are none refused, and every exchange is kept exactly once:
// in the directory's history (the run that got it first, and the later
// ones that find it free) or in a conversation of its own beside it.
func TestConcurrentRunsKeepEveryExchange(t *testing.T) {
	proctest.Check(t)
	dir := t.TempDir()
	s := llmtest.NewOpenAI(t, llmtest.Turn{Standing: true, Text: "answered", Delay: 20 * time.Millisecond})
	first := nbCommand(t, dir, s, "warm up")
	var home string
	for _, kv := range first.Env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if out, err := first.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	const n = 6
	errs := make(chan error, n)
	for i := range n {
		cmd := nbCommand(t, dir, s, fmt.Sprintf("question %d", i))
		cmd.Env = append(cmd.Env, "HOME="+home, "XDG_STATE_HOME="+home+"/.local/state", "XDG_CONFIG_HOME="+home+"/.config")
		go func() {
			out, err := cmd.CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%v: %s", err, out)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	seen := map[string]int{}
	count := func(msgs []llm.Message) {
		for _, m := range msgs {
			if m.Role == llm.RoleUser {
				seen[strings.TrimSpace(strings.SplitN(m.Text, "\n", 2)[0])]++
			}
		}
	}
	h, err := store.OpenHistory(dir, t.TempDir(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	msgs, _, err := h.Load()
	h.Close()
	if err != nil {
		t.Fatal(err)
	}
	count(msgs)
	arch := store.NewArchive(filepath.Join(home, ".local", "state", "nb"), dir, time.Now)
	t.Logf("%d conversations kept apart", len(arch.List()))
	for _, a := range arch.List() {
		got, err := arch.Take(a.ID)
		if err != nil {
			t.Fatal(err)
		}
		count(got)
	}
	for i := range n {
		if q := fmt.Sprintf("question %d", i); seen[q] != 1 {
			t.Errorf("%q kept %d times, want once (kept: %v)", q, seen[q], seen)
		}
	}
}
