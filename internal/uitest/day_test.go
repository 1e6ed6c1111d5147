//go:build unix

package uitest

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/testenv"
)

// tmuxStart runs nb in tmux (a real terminal emulator, keys sent as tmux
// sends them) in work, with args.
func tmuxStart(t *testing.T, srv *llmtest.Server, work string, env []string, args ...string) *tmuxRun {
	t.Helper()
	testenv.Tool(t, "tmux")
	m := &tmuxRun{t: t, socket: fmt.Sprintf("nb-uitest-%d-%d", os.Getpid(), time.Now().UnixNano()),
		status: filepath.Join(t.TempDir(), "status")}
	var sb strings.Builder
	for _, kv := range append(env, "TERM=xterm-256color", "OPENAI_BASE_URL="+srv.URL()) {
		sb.WriteString(shellQuote(kv) + " ")
	}
	cmd := "env -i " + sb.String() + shellQuote(nbBin)
	for _, a := range args {
		cmd += " " + shellQuote(a)
	}
	// The pane's shell waits for nb and writes how it ended: tmux itself
	// does not always reap a pane's process it has already marked dead.
	// The shell's trap lets Ctrl+C and Ctrl+\ reach nb alone (a trapped
	// signal is reset to its default in the program the shell runs).
	cmd = "trap : INT QUIT; " + cmd + "; echo $? >" + shellQuote(m.status)
	// remain-on-exit keeps the pane, and its last screen, once nb ends:
	// set for the server before the session starts, in one invocation.
	m.tmux("start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
		"new-session", "-d", "-s", "nb", "-x", "100", "-y", "30", "-c", work, cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", m.socket, "kill-server").Run() })
	return m
}

func (m *tmuxRun) keys(keys ...string) { m.tmux(append([]string{"send-keys", "-t", "nb"}, keys...)...) }

// exited waits for nb to end and returns its exit status: "0", or the
// shell's status for it ("130" after SIGINT).
func (m *tmuxRun) exited() string {
	m.t.Helper()
	var status string
	m.waitFor("nb to end", func(string) bool {
		b, err := os.ReadFile(m.status)
		status = strings.TrimSpace(string(b))
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
	return status
}

func contains(want string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, want) }
}

// TestEscStopsATurn: Esc pressed alone while an answer streams stops the
// turn at once, as Ctrl+C does, and nb waits for the next message.
func TestEscStopsATurn(t *testing.T) {
	work, env := setup(t)
	srv := server(t, llmtest.Turn{Chunks: []string{"Once ", "upon ", "a ", "time "}, Hang: true})
	m := tmuxStart(t, srv, work, env)
	m.waitFor("the prompt", contains("nb>"))
	m.keys("tell me a story", "Enter")
	m.waitFor("the answer", contains("upon"))
	m.keys("Escape")
	m.waitFor("the turn to stop", func(s string) bool {
		return strings.Contains(s, "interrupted") && strings.Count(s, "nb>") >= 2
	})
	m.keys("C-d")
	if st := m.exited(); st != "0" {
		t.Fatalf("exit %s:\n%s", st, m.screen())
	}
}

// TestCtrlCTwiceLeaves: Ctrl+C at an empty prompt says how to leave;
// pressed again, nb leaves. A key between starts over.
func TestCtrlCTwiceLeaves(t *testing.T) {
	work, env := setup(t)
	m := tmuxStart(t, server(t), work, env)
	m.waitFor("the prompt", contains("nb>"))
	m.keys("C-c")
	m.waitFor("the hint", contains("press Ctrl+C again to leave (or Ctrl+D)"))
	m.keys("x", "BSpace")
	m.waitFor("the hint to go", func(s string) bool { return !strings.Contains(s, "again to leave") })
	m.keys("C-c")
	m.waitFor("the hint again", contains("press Ctrl+C again to leave"))
	m.keys("C-c")
	if st := m.exited(); st != "0" {
		t.Fatalf("exit %s:\n%s", st, m.screen())
	}
}

// TestEscInHistorySearch: Esc ends a Ctrl+R search at once, keeping the
// match, with no key after it.
func TestEscInHistorySearch(t *testing.T) {
	work, env := setup(t)
	state := stateDir(env)
	os.MkdirAll(state, 0o700)
	if err := os.WriteFile(filepath.Join(state, "input_history"), []byte("\"git status --short\"\n\"make test\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := tmuxStart(t, server(t), work, env)
	m.waitFor("the prompt", contains("nb>"))
	m.keys("C-r")
	m.keys("-l", "stat")
	m.waitFor("the match", contains("(search) stat: git status --short"))
	m.keys("Escape")
	m.waitFor("the search to end with its match", contains("nb> git status --short"))
	m.keys("C-c", "C-d")
	m.exited()
}

// stateDir is nb's state directory in env.
func stateDir(env []string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return filepath.Join(v, "nb")
		}
	}
	return ""
}

// TestPastedTextNeverActs: a paste holding an end marker and line breaks
// (as text copied from a terminal can) stays one paste: nothing is sent and
// no !command runs until a key is typed after it; Enter then sends the
// whole paste as a message.
func TestPastedTextNeverActs(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t, llmtest.Turn{Expect: llmtest.Expect{LastUser: "!touch pwned"}, Text: "Read your paste."})
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("\x1b[200~look\x1b[201~\r!touch pwned\r\x1b[200~x\x1b[201~\r\x1b[201~")
	n.waitText(ctx, "… !touch pwned")
	time.Sleep(500 * time.Millisecond)
	if exists(t, filepath.Join(work, "pwned")) || len(srv.Requests()) != 0 {
		t.Fatalf("the paste acted: file %v, %d requests", exists(t, filepath.Join(work, "pwned")), len(srv.Requests()))
	}
	n.send("\r")
	n.waitText(ctx, "Read your paste.")
	if got := typed(srv.Requests()[0]); got != "look\n!touch pwned\nx\n" {
		t.Errorf("sent %q", got)
	}
	if exists(t, filepath.Join(work, "pwned")) {
		t.Error("a pasted !command ran")
	}
	n.send("\x04")
	n.waitExit(ctx)
}

// TestPastedMentionShownBeforeSending: a pasted @path says, under the
// message, that sending it attaches the file.
func TestPastedMentionShownBeforeSending(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("secret plans\n"), 0o600)
	n := start(t, server(t), work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("\x1b[200~summarise @notes.txt please\x1b[201~")
	n.waitText(ctx, "sending attaches notes.txt (13 bytes)")
	n.send("\x15") // Ctrl+U: the message goes, and the note with it
	if err := n.scr.WaitFor(ctx, "the note to go", func(s string) bool { return !strings.Contains(s, "sending attaches") }); err != nil {
		t.Fatal(err)
	}
	n.send("\x04")
	n.waitExit(ctx)
}

// TestContinuationSaysSo: a chat that goes on with the directory's
// conversation says so in one line.
func TestContinuationSaysSo(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	h, err := store.OpenHistory(work, stateDir(env), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	h.Save([]llm.Message{{Role: llm.RoleUser, Text: "what is in /etc?"}, {Role: llm.RoleAssistant, Text: strings.Repeat("config files ", 400)}})
	h.Close()
	n := start(t, server(t), work, env, runOpts{cols: 160, rows: 24})
	n.waitText(ctx, "nb>")
	line := lineWith(n.scr.String(), "continuing")
	if !regexp.MustCompile(`continuing this directory's conversation: 2 messages, about \d+(\.\d)? k tokens \(/clear starts a new one\)`).MatchString(line) {
		t.Errorf("line %q\n%s", line, n.scr.String())
	}
	n.send("\x04")
	n.waitExit(ctx)
}

// TestTwoChatsInOneDirectory: a second chat in a directory whose
// conversation another holds is not refused: it says so, keeps its own
// conversation, and the first lists it once it ended.
func TestTwoChatsInOneDirectory(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "from the second window"}, Text: "Second here."},
	)
	first := start(t, srv, work, env, runOpts{cols: 160, rows: 24})
	first.waitText(ctx, "nb>")
	second := start(t, srv, work, env, runOpts{cols: 160, rows: 24})
	second.waitText(ctx, "nb>")
	if !regexp.MustCompile(`another nb \(pid \d+\) is using this directory's conversation: this one is kept apart`).MatchString(second.scr.String()) {
		t.Fatalf("second chat:\n%s", second.scr.String())
	}
	second.send("from the second window\r")
	second.waitText(ctx, "Second here.")
	second.send("\x04")
	if code := second.waitExit(ctx); code != 0 {
		t.Fatalf("second exit %d", code)
	}
	first.send("/conversations\r")
	first.waitText(ctx, "2 messages  from the second window")
	first.send("\x04")
	first.waitExit(ctx)
}

// TestHelpTextsOnTheTerminal: nb --help and /help, as the binary prints
// them: no placeholder, the short flags, the keys.
func TestHelpTextsOnTheTerminal(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	for _, args := range [][]string{{"--help"}, {"help"}} {
		n := start(t, server(t), work, env, runOpts{args: args, rows: 80, cols: 100})
		if code := n.waitExit(ctx); code != 0 {
			t.Fatalf("nb %v: exit %d", args, code)
		}
		s := n.scr.String()
		if strings.Contains(s, "{{") || !strings.Contains(s, "-r, --resume") || !strings.Contains(s, "OPENAI_BASE_URL") || !strings.Contains(s, "Fleets") {
			t.Errorf("nb %v:\n%s", args, s)
		}
	}
	n := start(t, server(t), work, env, runOpts{rows: 60})
	n.waitText(ctx, "nb>")
	n.send("/help\r")
	n.waitText(ctx, "Ctrl+C twice")
	s := n.scr.String()
	for _, want := range []string{"!COMMAND", "@path", "Shift+Enter", "Ctrl+R", "Ctrl+G", "Esc or Ctrl+C"} {
		if !strings.Contains(s, want) {
			t.Errorf("/help lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "{{") {
		t.Errorf("/help holds a placeholder:\n%s", s)
	}
	n.send("\x04")
	n.waitExit(ctx)
}

// TestPipedAnswerWaitsForTheTurn: with stdout a pipe (nb make c | cat),
// the answer reaches the pipe only once the turn is over, so the reader
// never prints into an approval question on the terminal.
func TestPipedAnswerWaitsForTheTurn(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{Text: "I will build it.", ToolCalls: []llmtest.ToolCall{runCmd("touch built", "")}},
		llmtest.Turn{Text: "Built."},
	)
	pr, pw := io.Pipe()
	var mu sync.Mutex
	var piped strings.Builder
	go func() {
		b := make([]byte, 4096)
		for {
			k, err := pr.Read(b)
			mu.Lock()
			piped.Write(b[:k])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	n := start(t, srv, work, env, runOpts{args: []string{"make", "c"}, stdout: pw})
	n.waitText(ctx, "[Y]es")
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	early := piped.String()
	mu.Unlock()
	if early != "" {
		t.Fatalf("the answer went to the pipe while the question was up: %q", early)
	}
	n.send("y")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	pw.Close()
	mu.Lock()
	defer mu.Unlock()
	if got := piped.String(); got != "I will build it.\nBuilt.\n" {
		t.Errorf("piped %q", got)
	}
	if strings.Contains(n.scr.String(), "Built.") {
		t.Errorf("the answer went to the terminal:\n%s", n.scr.String())
	}
}

// TestResumePicker: nb -r in a chat lists the conversations /clear kept
// and reopens the one picked.
func TestResumePicker(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	arch := store.NewArchive(stateDir(env), work, time.Now)
	for _, q := range []string{"how big is /var/log", "why is nginx down"} {
		if _, err := arch.Keep([]llm.Message{{Role: llm.RoleUser, Text: q}, {Role: llm.RoleAssistant, Text: "answered"}}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // distinct, ordered names
	}
	n := start(t, server(t), work, env, runOpts{args: []string{"-r"}, cols: 120, rows: 30})
	n.waitText(ctx, "reopen which conversation? [1]")
	s := n.scr.String()
	if !strings.Contains(s, "1  ") || !strings.Contains(lineWith(s, "  1  "), "why is nginx down") || !strings.Contains(lineWith(s, "  2  "), "how big is /var/log") {
		t.Fatalf("list:\n%s", s)
	}
	n.send("2\r")
	n.waitText(ctx, "reopened the conversation of")
	if !strings.Contains(lineWith(n.scr.String(), "reopened"), "how big is /var/log") {
		t.Errorf("reopened another:\n%s", n.scr.String())
	}
	n.send("\x04")
	n.waitExit(ctx)
}
