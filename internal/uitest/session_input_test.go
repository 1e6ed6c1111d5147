//go:build unix

package uitest

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/testenv"
)

func toolCall(name string, args map[string]string) llmtest.ToolCall {
	b, _ := json.Marshal(args)
	return llmtest.ToolCall{Name: name, Arguments: string(b)}
}

func typeInto(id, stdin string) llmtest.ToolCall {
	return toolCall("terminal_continue", map[string]string{"sessionId": id, "stdin": stdin})
}

// quickSessions writes a configuration whose session reads give up after
// one second without output that matters.
func quickSessions(t *testing.T, work string) {
	t.Helper()
	dir := filepath.Join(filepath.Dir(work), "config", "nb")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"terminal": {"persistent": {"minInterval": 0.05, "settleInterval": 0.3, "maxInterval": 1}}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTypeaheadIntoBusyShellIsShellCode(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	quickSessions(t, work)
	canary := filepath.Join(work, "canary")
	if err := os.MkdirAll(filepath.Join(canary, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{toolCall("terminal_start", map[string]string{"command": "bash --norc --noprofile"})}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{typeInto("term-1", "sleep 30\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "still running"}, ToolCalls: []llmtest.ToolCall{typeInto("term-1", "rm -rf canary\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "declined"}, Text: "Left it."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"--approve", "bash --norc --noprofile", "clean up"}})
	n.waitText(ctx, "[N]o")
	screen := n.scr.String()
	line := lineWith(screen, "canary")
	for _, want := range []string{"input → term-1 (bash, sleep running)", "⚠️", "canary"} {
		if !strings.Contains(line, want) {
			t.Errorf("prompt line %q lacks %q:\n%s", line, want, screen)
		}
	}
	if strings.Contains(screen, "lways") {
		t.Errorf("a dangerous input offers Always:\n%s", screen)
	}
	n.send("\r") // Enter is No
	n.waitText(ctx, "reason")
	n.send("\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !exists(t, canary) {
		t.Fatal("Enter on typeahead rm -rf deleted the canary")
	}
}

func TestREPLInputAlwaysIsExact(t *testing.T) {
	testenv.Tool(t, "python3")
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{toolCall("terminal_start", map[string]string{"command": "python3 -q"})}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{typeInto("term-1", "print('first')\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "first"}, ToolCalls: []llmtest.ToolCall{typeInto("term-1", "print('first')\n")}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{typeInto("term-1", "import os; os.system('touch pwned')\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "declined"}, Text: "Fine."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"--approve", "python3 -q", "try python"}})
	n.waitText(ctx, "lways")
	if l := lineWith(n.scr.String(), "print('first')"); !strings.Contains(l, "input → term-1 (python3): print('first')") {
		t.Errorf("prompt line %q", l)
	}
	n.send("a")
	n.waitText(ctx, "[N]o")
	screen := n.scr.String()
	if l := lineWith(screen, "os.system"); !strings.Contains(l, "⚠️") {
		t.Errorf("os.system not warned: %q\n%s", l, screen)
	}
	if c := strings.Count(n.scr.Raw(), "lways"); c != 1 {
		t.Errorf("Always offered %d times, want once (not for the same input again, not for os.system)", c)
	}
	n.send("\r")
	n.waitText(ctx, "reason")
	n.send("\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if exists(t, filepath.Join(work, "pwned")) {
		t.Fatal("os.system ran after Always on other input")
	}
	grants := readGrants(t, filepath.Join(filepath.Dir(work), "state"))
	if grants != `input → python3: print('first')` {
		t.Errorf("saved grants = %q, want the exact input without a session id", grants)
	}
}

func TestAnswerToAQuestion(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	command := `sh -c "printf 'Overwrite notes.txt? [y/N] '; read a; echo answered \$a"`
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{toolCall("terminal_start", map[string]string{"command": command})}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{typeInto("term-1", "y\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "answered y"}, Text: "Answered."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"--approve", command, "answer it"}})
	n.waitText(ctx, "[Y]es")
	if l := lineWith(n.scr.String(), "answer →"); !strings.Contains(l, `answer → term-1 (sh) "Overwrite notes.txt? [y/N]": y`) {
		t.Errorf("prompt line %q:\n%s", l, n.scr.String())
	}
	n.send("y")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// readGrants returns the rules of the grants files under state, one a line.
func readGrants(t *testing.T, state string) string {
	t.Helper()
	var rules []string
	_ = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "grants.json" {
			data, _ := os.ReadFile(p)
			var g struct{ Rules []string }
			_ = json.Unmarshal(data, &g)
			rules = append(rules, g.Rules...)
		}
		return nil
	})
	return strings.Join(rules, "\n")
}

func TestContinueWaitsForASilentCommand(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	// The default settle interval (0.5 s) is far shorter than the silence:
	// a read that stopped at the echo would not contain "five".
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{toolCall("terminal_start", map[string]string{"command": "bash --norc --noprofile"})}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{typeInto("term-1", "sleep 2; echo five\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "five"}, Text: "It said five."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"--approve", "bash --norc --noprofile", "wait for it"}})
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	reqs := srv.Requests()
	var read string
	for _, m := range reqs[len(reqs)-1].Messages {
		for _, r := range m.ToolResults {
			if strings.Contains(r.Content, "five") {
				read = r.Content
			}
		}
	}
	if !strings.Contains(read, "Wait Ended: the program waits for input") {
		t.Errorf("the read did not say what ended it: %q", read)
	}
	if !strings.Contains(n.scr.String(), "It said five.") {
		t.Errorf("screen:\n%s", n.scr.String())
	}
}

// A password read by the session's own shell (`read -s`) and typed by the
// model: masked at the prompt, Always never offered, and the secret is
// nowhere on screen or in the state directory (grants, audit log, saved
// conversation, input history).
func TestPasswordReadByTheShellIsHidden(t *testing.T) {
	testenv.Tool(t, "bash")
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	quickSessions(t, work)
	const secret = "hunter2xyz"
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{toolCall("terminal_start", map[string]string{"command": "bash --norc --noprofile"})}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{typeInto("term-1", "read -s -p 'Password: ' pw; echo len=${#pw}\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "Password:"}, ToolCalls: []llmtest.ToolCall{typeInto("term-1", secret+"\n")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "len=10"}, Text: "Typed it."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"--approve", "bash --norc --noprofile", "log in"}})
	n.waitText(ctx, "read -s")
	if strings.Contains(n.scr.String(), "•") {
		t.Fatal("the read command itself is masked")
	}
	n.send("y")
	n.waitText(ctx, "•••")
	screen := n.scr.String()
	line := lineWith(screen, "•••")
	if !strings.Contains(line, "answer → term-1 (bash)") {
		t.Errorf("secret prompt line %q:\n%s", line, screen)
	}
	if strings.Contains(screen, "lways") {
		t.Errorf("Always offered for a secret:\n%s", screen)
	}
	n.send("y")
	n.waitText(ctx, "Typed it.")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(n.scr.Raw(), secret) {
		t.Errorf("the secret reached the screen:\n%s", n.scr.String())
	}
	root := filepath.Dir(work)
	seen := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, work) {
			return nil
		}
		seen++
		if data, _ := os.ReadFile(p); strings.Contains(string(data), secret) {
			t.Errorf("the secret is kept in clear in %s", p)
		}
		return nil
	})
	if seen == 0 {
		t.Fatal("no state written at all: the check proves nothing")
	}
	if g := readGrants(t, filepath.Join(root, "state")); g != "" {
		t.Errorf("grants saved: %q", g)
	}
	// The next request carries the call without the secret (the read's
	// "len=10" result above shows the secret did reach the shell).
	reqs := srv.Requests()
	if b, _ := json.Marshal(reqs[len(reqs)-1].Messages); strings.Contains(string(b), secret) {
		t.Errorf("the conversation sent to the model keeps the secret")
	}
}
