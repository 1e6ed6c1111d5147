//go:build unix

package uitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/testenv"
)

// Ctrl+G opens $EDITOR on the message; what the editor saves is the
// message, sent on Enter. Ctrl+X Ctrl+E does the same.
func TestExternalEditorWritesTheMessage(t *testing.T) {
	testenv.Tool(t, "sh")
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	script := filepath.Join(filepath.Dir(work), "editor.sh")
	body := "#!/bin/sh\n{ cat \"$1\"; printf ' and the editor\\nsecond line\\n'; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := server(t,
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "draft and the editor\nsecond line"}, Text: "Got it."},
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "again and the editor"}, Text: "Again."},
	)
	n := start(t, srv, work, env, runOpts{env: []string{"EDITOR=" + script, "VISUAL="}})
	n.waitText(ctx, "nb>")
	n.send("draft")
	n.waitText(ctx, "nb> draft")
	n.send("\x07")
	n.waitText(ctx, "… second line")
	if got := len(srv.Requests()); got != 0 {
		t.Fatalf("the editor sent %d requests before Enter", got)
	}
	n.send("\r")
	n.waitText(ctx, "Got it.")
	n.waitPrompts(ctx, 2)
	n.send("again\x18\x05")
	n.waitText(ctx, "nb> again and the editor")
	n.send("\r")
	n.waitText(ctx, "Again.")
	reqs := srv.Requests()
	if got := typed(reqs[0]); got != "draft and the editor\nsecond line" {
		t.Fatalf("the model received %q", got)
	}
	n.waitPrompts(ctx, 3)
	n.send("\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// Ctrl+J and Shift+Enter (as terminals report it once asked) add a line;
// Enter sends.
func TestNewlineKeysInTheInput(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t, llmtest.Turn{Expect: llmtest.Expect{LastUser: "one\ntwo\nthree"}, Text: "Three lines."})
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("one\ntwo\x1b[27;2;13~three")
	n.waitText(ctx, "… three")
	if got := len(srv.Requests()); got != 0 {
		t.Fatalf("a newline key sent %d requests", got)
	}
	n.send("\r")
	n.waitText(ctx, "Three lines.")
	if got := typed(srv.Requests()[0]); got != "one\ntwo\nthree" {
		t.Fatalf("the model received %q", got)
	}
	if !strings.Contains(n.scr.Raw(), "\x1b[>4;1m") {
		t.Error("modified keys were never asked for")
	}
	n.waitPrompts(ctx, 2)
	n.send("\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// tmuxRun is nb in a real terminal emulator that reflows its lines on
// resize (tmux), on its own server socket.
type tmuxRun struct {
	t      *testing.T
	socket string
	status string // file the pane's shell writes nb's exit status to
}

func (m *tmuxRun) tmux(args ...string) string {
	m.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", m.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (m *tmuxRun) screen() string { return m.tmux("capture-pane", "-p", "-t", "nb") }

func (m *tmuxRun) waitFor(what string, ok func(string) bool) string {
	m.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := m.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("waiting for %s; screen:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Resizing the window while typing leaves exactly one copy of the message:
// nb redraws on SIGWINCH, counting its old rows at the new width.
func TestResizeWhileTypingLeavesOneCopy(t *testing.T) {
	testenv.Tool(t, "tmux")
	work, env := setup(t)
	srv := server(t)
	m := &tmuxRun{t: t, socket: fmt.Sprintf("nb-uitest-%d", os.Getpid())}
	var sb strings.Builder
	for _, kv := range append(env, "TERM=xterm-256color", "OPENAI_BASE_URL="+srv.URL()) {
		sb.WriteString(shellQuote(kv) + " ")
	}
	m.tmux("new-session", "-d", "-s", "nb", "-x", "100", "-y", "30", "-c", work, "env -i "+sb.String()+shellQuote(nbBin))
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", m.socket, "kill-server").Run() })
	m.waitFor("the prompt", func(s string) bool { return strings.Contains(s, "nb>") })
	// Empty messages bring the prompt to the bottom row, where it is when
	// the window has been in use (tmux keeps the cursor's row on resize,
	// pushing rows above it into the scrollback).
	for range 30 {
		m.tmux("send-keys", "-t", "nb", "Enter")
	}
	m.waitFor("the prompt at the bottom", func(s string) bool {
		l := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return len(l) >= 30 && strings.HasPrefix(l[len(l)-1], "nb>")
	})
	msg := "STARTMARK " + strings.Repeat("lorem ipsum dolor ", 9) + "ENDMARK"
	m.tmux("send-keys", "-t", "nb", "-l", msg)
	m.waitFor("the message", func(s string) bool { return strings.Contains(s, "ENDMARK") })
	all := func() string { return m.tmux("capture-pane", "-p", "-t", "nb", "-S", "-") }
	// settle waits until the screen, scrollback included, shows exactly
	// one copy of the message, drawn for cols columns and ending in want;
	// a stale copy never goes away.
	settle := func(cols int, want string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			s := all()
			joined := m.tmux("capture-pane", "-p", "-J", "-t", "nb")
			if strings.Count(s, "STARTMARK") == 1 && strings.Contains(strings.ReplaceAll(s, "\n", ""), want) && rowsAt(joined, cols) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("at %d columns, %d copies of the message:\n%s", cols, strings.Count(s, "STARTMARK"), s)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Each resize is redrawn on SIGWINCH alone; a key typed after it is
	// drawn over the same rows.
	for i, cols := range []int{60, 45, 90, 38, 50} {
		m.tmux("resize-window", "-t", "nb", "-x", fmt.Sprint(cols), "-y", "30")
		settle(cols, "ENDMARK"+"01234"[:i])
		m.tmux("send-keys", "-t", "nb", "-l", fmt.Sprint(i))
		settle(cols, "ENDMARK"+"01234"[:i+1])
	}
	// Leave with the message dropped (an input that ends sends its text).
	m.tmux("send-keys", "-t", "nb", "C-c", "C-d")
	// nb leaves, and its tmux session with it.
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "-L", m.socket, "has-session", "-t", "nb").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("nb did not leave on Ctrl+C, Ctrl+D:\n%s", m.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rowsAt reports whether the message's rows were drawn for a terminal
// cols wide: in a capture that joins the rows the terminal wrapped, its
// first row is as wide as nb draws (one column free, less a trailing
// space).
func rowsAt(joined string, cols int) bool {
	n := len([]rune(strings.TrimRight(lineWith(joined, "STARTMARK"), " ")))
	return n == cols-1 || n == cols-2
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// "!command" runs the user's own command without asking, shows its output,
// and puts the command and its output into the next message.
func TestShellModeOutputReachesTheNextMessage(t *testing.T) {
	testenv.Tool(t, "bash")
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := server(t, llmtest.Turn{Expect: llmtest.Expect{LastUser: "shell-mode-42"}, Text: "I see 42."})
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	// rm is asked about when the model runs it; typed after "!" it runs.
	n.send("!echo shell-mode-$((6*7)); rm notes.txt\r")
	n.waitText(ctx, "next message")
	screen := n.scr.String()
	if strings.Contains(screen, "[Y]es") || !strings.Contains(screen, "shell-mode-42") {
		t.Fatalf("shell mode screen:\n%s", screen)
	}
	if exists(t, filepath.Join(work, "notes.txt")) {
		t.Fatal("the command did not run")
	}
	if len(srv.Requests()) != 0 {
		t.Fatal("shell mode sent a request by itself")
	}
	n.send("what did it print?\r")
	n.waitText(ctx, "I see 42.")
	got := srv.Requests()[0].LastUserText()
	for _, want := range []string{"echo shell-mode-$((6*7))", "shell-mode-42", "what did it print?"} {
		if !strings.Contains(got, want) {
			t.Errorf("the next message lacks %q:\n%s", want, got)
		}
	}
	n.waitPrompts(ctx, 3)
	n.send("\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// "@" completes project files fuzzily with Tab, leaving out what
// .gitignore ignores, and a mentioned file is attached to the message.
func TestMentionCompletesAndAttaches(t *testing.T) {
	testenv.Tool(t, "git")
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	for name, body := range map[string]string{
		"src/server/handler.go": "package server // HANDLER-BODY\n",
		"src/server/routes.go":  "package server\n",
		".gitignore":            "secrets/\n*.log\n",
		"secrets/handler.key":   "KEY\n",
		"debug-handler.log":     "LOG\n",
	} {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "-C", work, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	srv := server(t, llmtest.Turn{Expect: llmtest.Expect{LastUser: "HANDLER-BODY"}, Text: "Read it."})
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	// "hndl" is no prefix of anything: fuzzy. Only one file is not ignored.
	n.send("explain @hndl\t")
	n.waitText(ctx, "nb> explain @src/server/handler.go")
	if strings.Contains(n.scr.String(), "handler.key") || strings.Contains(n.scr.String(), ".log") {
		t.Fatalf("ignored files offered:\n%s", n.scr.String())
	}
	// Several matches with nothing in common: listed under the message.
	n.send("and @srv\t")
	n.waitText(ctx, "@src/server/routes.go")
	n.send("\x17\x17please\r")
	n.waitText(ctx, "Read it.")
	got := srv.Requests()[0].LastUserText()
	for _, want := range []string{"File src/server/handler.go:", "HANDLER-BODY", "explain @src/server/handler.go please"} {
		if !strings.Contains(got, want) {
			t.Errorf("the message lacks %q:\n%s", want, got)
		}
	}
	n.waitPrompts(ctx, 2)
	n.send("\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// What is typed while the model works shows on the spinner line and
// becomes the next message, sent when the turn ends if Enter was typed;
// keys typed before an approval prompt never answer it.
func TestTypingDuringATurn(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{Text: "First answer.", Delay: 1500 * time.Millisecond},
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "second question"}, ToolCalls: []llmtest.ToolCall{runCmd("mkdir typed", "")}, Delay: 800 * time.Millisecond},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "declined"}, Text: "Not made."},
	)
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("first\r")
	n.waitText(ctx, "thinking")
	n.send("second questoin\x7f\x7f\x7fion")
	n.waitText(ctx, "next: second question")
	n.waitText(ctx, "First answer.")
	// Not sent: it waits at the prompt, editable.
	n.waitText(ctx, "nb> second question")
	if got := len(srv.Requests()); got != 1 {
		t.Fatalf("%d requests; the typed text was sent without Enter", got)
	}
	n.send("\r")
	n.waitText(ctx, "thinking")
	n.send("yyy") // typed before the prompt appears
	n.waitText(ctx, "[Y]es")
	time.Sleep(300 * time.Millisecond)
	if exists(t, filepath.Join(work, "typed")) {
		t.Fatal("keys typed during the turn answered the prompt")
	}
	n.send("n")
	n.waitText(ctx, "reason")
	n.send("\r")
	n.waitText(ctx, "Not made.")
	n.waitText(ctx, "nb> yyy")
	n.send("\x15\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A message finished with Enter during a turn is sent when the turn ends.
func TestMessageTypedDuringATurnIsSentAfterIt(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{Text: "First answer.", Delay: 1500 * time.Millisecond},
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "then this\nand this"}, Text: "Second answer."},
	)
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("first\r")
	n.waitText(ctx, "thinking")
	n.send("then this\nand this\r") // Ctrl+J adds a line, Enter sends
	n.waitText(ctx, "Second answer.")
	if got := strings.TrimSpace(typed(srv.Requests()[1])); got != "then this\nand this" {
		t.Fatalf("second message %q", got)
	}
	n.waitPrompts(ctx, 3)
	n.send("\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// While an answer streams, what is typed shows under it.
func TestTypingWhileAnAnswerStreams(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	chunks := []string{"First line of the answer.\n\n"}
	for i := range 12 {
		chunks = append(chunks, fmt.Sprintf("word%d ", i))
	}
	srv := server(t, llmtest.Turn{Chunks: append(chunks, "END."), Delay: 250 * time.Millisecond})
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("go\r")
	n.waitText(ctx, "First line of the answer.")
	n.send("while streaming")
	n.waitText(ctx, "next: while streaming")
	if strings.Contains(n.scr.String(), "END.") {
		t.Fatal("the answer ended before the typed text showed; the test proves nothing")
	}
	n.waitText(ctx, "END.")
	n.waitText(ctx, "nb> while streaming")
	if strings.Contains(n.scr.String(), "next:") {
		t.Errorf("the typed line stayed under the answer:\n%s", n.scr.String())
	}
	n.send("\x15\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A paste made while the model works stays one message.
func TestPasteDuringATurnIsOneMessage(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{Text: "First answer.", Delay: 1500 * time.Millisecond},
		llmtest.Turn{Expect: llmtest.Expect{LastUser: "line one\nline two\nline three"}, Text: "Three lines."},
	)
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("first\r")
	n.waitText(ctx, "thinking")
	// The terminal is asked to mark pastes during the turn too.
	if raw := n.scr.Raw(); strings.LastIndex(raw, "\x1b[?2004h") < strings.LastIndex(raw, "\x1b[?2004l") {
		t.Fatal("bracketed paste is off while the model works")
	}
	n.send(bracketed([]string{"line one", "line two", "line three"}))
	n.waitText(ctx, "First answer.")
	n.waitText(ctx, "… line three")
	if got := len(srv.Requests()); got != 1 {
		t.Fatalf("the paste sent %d messages by itself", got-1)
	}
	n.send("\r")
	n.waitText(ctx, "Three lines.")
	n.waitPrompts(ctx, 3)
	n.send("\x04")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// A single-shot message attaches the files it mentions too.
func TestMentionInASingleShotMessage(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	if err := os.WriteFile(filepath.Join(work, "notes.txt"), []byte("NOTES-BODY\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := server(t, llmtest.Turn{Expect: llmtest.Expect{LastUser: "NOTES-BODY"}, Text: "Summarised."})
	n := start(t, srv, work, env, runOpts{args: []string{"summarise @notes.txt and @nobody"}})
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "summarise @notes.txt and @nobody") {
		t.Errorf("message %q", got)
	}
}
