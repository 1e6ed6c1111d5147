//go:build unix

package uitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/testenv"
)

// In a real terminal (tmux): a command that only writes files is
// previewed, its diff and output approved with one key and applied
// without running it again; an edit is approved from its coloured diff;
// /changes lists both and /undo puts the files back one change at a time,
// saying what it restored.
func TestDiffPromptPreviewAndUndo(t *testing.T) {
	testenv.Tool(t, "tmux")
	testenv.Tool(t, "bwrap")
	work, env := setup(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(work, "notes.txt"), []byte("alpha\nbeta\n"), 0o644))
	must(os.WriteFile(filepath.Join(work, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("sed -i s/beta/BETA/ notes.txt && echo changed-it", "")}},
		llmtest.Turn{Text: "Sed done."},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Arguments: `{"path":"main.go","oldText":"func main() {}","newText":"func main() { println(1) }"}`}}},
		llmtest.Turn{Text: "Edit done."},
	)
	m := &tmuxRun{t: t, socket: fmt.Sprintf("nb-uitest-changes-%d", os.Getpid())}
	var sb strings.Builder
	for _, kv := range append(env, "TERM=xterm-256color", "OPENAI_BASE_URL="+srv.URL()) {
		sb.WriteString(shellQuote(kv) + " ")
	}
	m.tmux("new-session", "-d", "-s", "nb", "-x", "100", "-y", "40", "-c", work, "env -i "+sb.String()+shellQuote(nbBin))
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", m.socket, "kill-server").Run() })
	has := func(parts ...string) func(string) bool {
		return func(s string) bool {
			for _, p := range parts {
				if !strings.Contains(s, p) {
					return false
				}
			}
			return true
		}
	}
	m.waitFor("the prompt", has("nb>"))
	m.tmux("send-keys", "-t", "nb", "-l", "fix the notes")
	m.tmux("send-keys", "-t", "nb", "Enter")
	s := m.waitFor("the previewed diff", has("output of the preview:", "changed-it", "modified notes.txt (+1 -1)", "-beta", "+BETA", "[y]es"))
	if !strings.Contains(s, "previewed") {
		t.Errorf("the prompt does not say the command was previewed:\n%s", s)
	}
	if got, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(got) != "alpha\nbeta\n" {
		t.Fatalf("the preview changed the file before the approval: %q", got)
	}
	m.tmux("send-keys", "-t", "nb", "y")
	m.waitFor("the answer", has("Sed done."))
	if got, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(got) != "alpha\nBETA\n" {
		t.Fatalf("the approved preview was not applied: %q", got)
	}
	m.tmux("send-keys", "-t", "nb", "-l", "and main")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the edit's diff", has("modified main.go (+1 -1)", "-func main() {}", "+func main() { println(1) }"))
	// the colours: removed red, added green
	esc := m.tmux("capture-pane", "-p", "-e", "-t", "nb")
	if !strings.Contains(esc, "\x1b[31m-func main() {}") || !strings.Contains(esc, "\x1b[32m+func main() { println(1) }") {
		t.Errorf("the diff is not coloured:\n%q", esc)
	}
	m.tmux("send-keys", "-t", "nb", "y")
	m.waitFor("the answer", has("Edit done."))
	m.tmux("send-keys", "-t", "nb", "-l", "/changes")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the list", has("1  ", "modified notes.txt", "2  ", "modified main.go"))
	m.tmux("send-keys", "-t", "nb", "-l", "/undo")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the undo", has("undid change 2 (edit: main.go)", "restored main.go"))
	m.tmux("send-keys", "-t", "nb", "-l", "/undo")
	m.tmux("send-keys", "-t", "nb", "Enter")
	m.waitFor("the second undo", has("undid change 1", "restored notes.txt"))
	for name, want := range map[string]string{"notes.txt": "alpha\nbeta\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if got, _ := os.ReadFile(filepath.Join(work, name)); string(got) != want {
			t.Errorf("%s after /undo: %q", name, got)
		}
	}
	m.tmux("send-keys", "-t", "nb", "C-d")
}
