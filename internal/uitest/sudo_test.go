//go:build linux

package uitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/askpass/sudotest"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/testenv"
)

// sudoWorld is nb installed in a sudo world (package sudotest) with a home
// and state of the world's user, and the environment to run it with.
func sudoWorld(t *testing.T) (w *sudotest.World, bin, work string, env []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: builds and runs nb")
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	w = sudotest.New(t, sudotest.Options{})
	w.MakeTmp(t)
	bin = w.Install(t, nbBin)
	work = filepath.Join(w.Home, "work")
	for _, d := range []string{"work", ".config", ".local/state", ".cache"} {
		if err := os.MkdirAll(filepath.Join(w.Home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	w.Chown(t, w.Home)
	env = w.Env("XDG_CONFIG_HOME="+filepath.Join(w.Home, ".config"), "XDG_STATE_HOME="+filepath.Join(w.Home, ".local/state"),
		"XDG_CACHE_HOME="+filepath.Join(w.Home, ".cache"), "OPENAI_API_KEY=sk-test", "TERM=xterm-256color")
	return w, bin, work, env
}

// noPasswordLeft checks every file nb wrote (history, audit log, state,
// saved outputs, temporary files) and every request the model received.
func noPasswordLeft(t *testing.T, w *sudotest.World, srv *llmtest.Server) {
	t.Helper()
	if hits := sudotest.FilesHolding(t, w.Password, w.Home, w.Tmp()); len(hits) > 0 {
		t.Errorf("the password is in files nb wrote: %v", hits)
	}
	for i, r := range srv.Requests() {
		if bytes.Contains(r.Raw, []byte(w.Password)) {
			t.Errorf("request %d to the model holds the password", i+1)
		}
	}
	if _, err := os.Stat(filepath.Join(w.Home, ".local/state/nb/audit.jsonl")); err != nil {
		t.Errorf("no audit log was written, so none was checked: %v", err)
	}
}

// Interactive: sudo's password is typed at nb's masked prompt, which
// names the command; "remember" spares the next prompt until /clear.
func TestSudoPasswordPrompt(t *testing.T) {
	testenv.Tool(t, "tmux")
	w, bin, work, env := sudoWorld(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("sudo whoami", "who is root")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: `"stdout":"root\n"`}, Text: "You are root there."},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("sudo id -un", "")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: `"stdout":"root\n"`}, Text: "Root again."},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("sudo whoami", "")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "cancelled"}, Text: "You cancelled it."},
	)
	stop := sudotest.Watch(w.Password)
	m := &tmuxRun{t: t, socket: fmt.Sprintf("nb-uitest-sudo-%d", os.Getpid())}
	cmd := w.Command(bin)
	var sb strings.Builder
	for _, kv := range append(env, "OPENAI_BASE_URL="+srv.URL()) {
		sb.WriteString(shellQuote(kv) + " ")
	}
	for _, a := range cmd.Args {
		sb.WriteString(" " + shellQuote(a))
	}
	m.tmux("new-session", "-d", "-s", "nb", "-x", "110", "-y", "40", "-c", work, "env -i "+sb.String())
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", m.socket, "kill-server").Run() })
	has := func(s string) func(string) bool { return func(scr string) bool { return strings.Contains(scr, s) } }
	// asking: the approval of command is the last thing on the screen
	asking := func(command string) func(string) bool {
		return func(scr string) bool {
			scr = strings.TrimRight(scr, "\n ")
			i := strings.LastIndex(scr, "run ⚠️: "+command)
			return i >= 0 && strings.HasSuffix(scr, "[y]es  [N]o  [?]")
		}
	}
	// typePassword pastes it from a tmux buffer: typed with send-keys it
	// would be in the tmux client's command line, which the watch sees.
	typePassword := func() {
		load := exec.Command("tmux", "-L", m.socket, "-f", "/dev/null", "load-buffer", "-b", "pw", "-")
		load.Stdin = strings.NewReader(w.Password)
		if out, err := load.CombinedOutput(); err != nil {
			t.Fatalf("tmux load-buffer: %v %s", err, out)
		}
		m.tmux("paste-buffer", "-d", "-b", "pw", "-t", "nb")
	}
	m.waitFor("the prompt", has("nb>"))
	m.tmux("send-keys", "-t", "nb", "-l", "am I root?")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the approval", asking("sudo whoami"))
	m.tmux("send-keys", "-t", "nb", "y")
	m.waitFor("the password prompt", has("[sudo] password for "+sudotest.User))
	// the command's live view (drawn after 150ms) stays off the prompt
	time.Sleep(400 * time.Millisecond)
	scr := m.screen()
	if !strings.HasSuffix(strings.TrimRight(scr, "\n "), "[sudo] password for "+sudotest.User+":") {
		t.Fatalf("the prompt was drawn over:\n%s", scr)
	}
	if !strings.Contains(scr, "sudo asks for a password to run: sudo whoami") || !strings.Contains(scr, "Tab: remember for this session") {
		t.Fatalf("the prompt does not name the command:\n%s", scr)
	}
	typePassword()
	m.tmux("send-keys", "-t", "nb", "Tab")
	m.waitFor("remember", has("[remembered for this session]"))
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the answer", has("You are root there."))
	scr = m.screen()
	if !strings.Contains(scr, "password given, remembered for this session") {
		t.Errorf("no trace of the prompt:\n%s", scr)
	}
	// remembered: the next sudo asks nothing
	m.tmux("send-keys", "-t", "nb", "-l", "again")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the approval", asking("sudo id -un"))
	m.tmux("send-keys", "-t", "nb", "y")
	m.waitFor("the answer", has("Root again."))
	if n := strings.Count(m.tmux("capture-pane", "-p", "-t", "nb", "-S", "-"), "🔒 sudo: password"); n != 1 {
		t.Errorf("asked %d times; the remembered password should have answered", n)
	}
	// /clear forgets it: asked again, and Esc cancels
	m.tmux("send-keys", "-t", "nb", "-l", "/clear")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the clear", has("conversation cleared"))
	m.tmux("send-keys", "-t", "nb", "-l", "once more")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the approval", asking("sudo whoami"))
	m.tmux("send-keys", "-t", "nb", "y")
	m.waitFor("the password prompt again", func(s string) bool { return strings.Contains(s, "[sudo] password for") })
	m.tmux("send-keys", "-t", "nb", "Escape")
	m.waitFor("the answer", has("You cancelled it."))
	if !strings.Contains(m.screen(), "🔒 sudo: password not given · sudo whoami") {
		t.Errorf("the cancelled prompt left no trace:\n%s", m.screen())
	}
	all := m.tmux("capture-pane", "-p", "-t", "nb", "-S", "-")
	if strings.Contains(all, w.Password) {
		t.Errorf("the password is on the screen:\n%s", all)
	}
	m.tmux("send-keys", "-t", "nb", "C-d")
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "-L", m.socket, "has-session", "-t", "nb").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("nb did not leave:\n%s", m.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if seen := stop(); len(seen) > 0 {
		t.Errorf("the password was in the process table: %v", seen)
	}
	noPasswordLeft(t, w, srv)
}

// Headless: a sudo that needs a password fails at once, says what to do,
// and the run ends with exit code 3; sudo without a password still runs.
func TestSudoHeadlessExit3(t *testing.T) {
	w, bin, work, env := sudoWorld(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("sudo id -u", ""), runCmd("sudo whoami", "")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "NOPASSWD"}, Text: "sudo needs a password."},
	)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := w.Command(bin, "--output-format", "json", "--approve", "sudo id -u", "--approve", "sudo whoami", "become root")
	cmd.Dir = work
	cmd.Env = append(env, "OPENAI_BASE_URL="+srv.URL())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		t.Fatalf("nb hung on sudo; stderr:\n%s", stderr.String())
	}
	t.Logf("took %v\nstdout:\n%s\nstderr:\n%s", time.Since(start), stdout.String(), stderr.String())
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("nb: %v, want exit 3", err)
	}
	if strings.Count(stderr.String(), "nb: "+askpass.NoTerminalAdvice) != 1 {
		t.Errorf("stderr lacks the one line saying what to do")
	}
	var res struct {
		Status string `json:"status"`
		Error  struct {
			Message  string   `json:"message"`
			Remedies []string `json:"remedies"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != "approval_required" || !strings.Contains(res.Error.Message, "sudo needed a password") || len(res.Error.Remedies) != 1 {
		t.Errorf("result: %+v", res)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].Raw
	if !bytes.Contains(last, []byte(`\"stdout\":\"0\\n\"`)) {
		t.Errorf("sudo without a password did not run: %s", last)
	}
	noPasswordLeft(t, w, srv)
}
