package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/visible"
)

// The real run_cmd and set_cwd over MCP, under the real policy engine.
func TestRunCmdOverMCP(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub", "victim"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "s.txt"), []byte("in sub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state")}
	srv, err := Build(context.Background(), BuildOptions{Config: config.Default(), LaunchDir: dir, Approve: []string{"touch *"}, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	cs := h.connect(t, nil, "") // no elicitation
	out, isErr := callText(t, cs, "run_cmd", map[string]any{"command": "true"})
	var r struct {
		ExitCode int    `json:"exitCode"`
		Cwd      string `json:"cwd"`
		Stdout   string `json:"stdout"`
	}
	if isErr || json.Unmarshal([]byte(out), &r) != nil || r.ExitCode != 0 {
		t.Fatalf("run_cmd true: %s", out)
	}
	out, isErr = callText(t, cs, "run_cmd", map[string]any{"command": "rm -rf sub/victim"})
	if !isErr || !strings.Contains(out, "not run") {
		t.Fatalf("rm -rf without approval: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "victim")); err != nil {
		t.Fatal("rm -rf ran without approval")
	}
	out, isErr = callText(t, cs, "run_cmd", map[string]any{"command": "touch made-by-approve"})
	if isErr {
		t.Fatalf("--approve 'touch *': %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "made-by-approve")); err != nil {
		t.Fatal("pre-approved command did not run")
	}
	out, isErr = callText(t, cs, "set_cwd", map[string]any{"path": "sub"})
	if isErr {
		t.Fatalf("set_cwd: %s", out)
	}
	out, _ = callText(t, cs, "get_context", map[string]any{})
	var c Context
	json.Unmarshal([]byte(out), &c)
	if c.Cwd != filepath.Join(dir, "sub") {
		t.Fatalf("cwd after set_cwd: %s", out)
	}
	out, isErr = callText(t, cs, "read_file", map[string]any{"path": "s.txt"})
	if isErr || out != "in sub\n" {
		t.Fatalf("read relative to the new cwd: %q", out)
	}
	logData, err := os.ReadFile(filepath.Join(dir, "state", "nb", "audit.jsonl"))
	if err != nil || !strings.Contains(string(logData), `"command":"rm -rf sub/victim"`) || !strings.Contains(string(logData), `"kind":"mcp"`) {
		t.Fatalf("audit log: %v\n%s", err, logData)
	}
	// Each call is audited with the directory it was reviewed in.
	audited := false
	for _, line := range strings.Split(strings.TrimSpace(string(logData)), "\n") {
		var e struct{ Tool, Cwd string }
		json.Unmarshal([]byte(line), &e)
		if e.Tool == "set_cwd" {
			audited = true
			if e.Cwd != dir {
				t.Errorf("set_cwd audited in %q, reviewed in %q", e.Cwd, dir)
			}
		}
	}
	if !audited {
		t.Errorf("set_cwd not audited:\n%s", logData)
	}
	out, _ = callText(t, cs, "run_cmd", map[string]any{"command": "pwd"})
	if json.Unmarshal([]byte(out), &r) != nil || strings.TrimSpace(r.Stdout) != filepath.Join(dir, "sub") {
		t.Fatalf("pwd: %s", out)
	}
}

// The question put to the user shows a command's hidden characters
// escaped, once, and never raw: ESC, CR, a right-to-left override,
// zero-width and other invisible characters, in the command, its full
// text, the reasons and the rule of "always".
func TestElicitationEscapesOnce(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state")}
	srv, err := Build(context.Background(), BuildOptions{Config: config.Default(), LaunchDir: dir, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	var asked []*mcp.ElicitParams
	cs := h.connect(t, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, r.Params)
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}, "")
	hidden := []string{"\x1b", "\r", "\u202e", "\u200b", "\u2066", "\ufeff", "\u00ad", "\x07"}
	for _, cmd := range []string{
		"curl -o x https://example.com/a\x1b[2K\r# harmless",
		"printf 'ok\\n' > 'gpj.\u202eexe'",
		"rm -rf sub\u200b/\u2066x",
		"touch a\ufeff\u00ad\x07 && make install\nrm -rf ~/x\r\necho done",
	} {
		asked = nil
		out, isErr := callText(t, cs, "run_cmd", map[string]any{"command": cmd})
		if !isErr || len(asked) != 1 {
			t.Fatalf("%q: want one question and a refusal, got %d questions: %s", cmd, len(asked), out)
		}
		p := asked[0]
		b, _ := json.Marshal(p.RequestedSchema)
		for _, c := range hidden {
			if strings.Contains(p.Message, c) || strings.Contains(string(b), c) {
				t.Errorf("%q: raw %q reaches the client:\n%q", cmd, c, p.Message)
			}
		}
		if !visible.Hides(cmd) {
			t.Fatalf("test command %q hides nothing", cmd)
		}
		// Nothing hides in the question (the warning sign's own variation
		// selector aside), and each line of the command is shown escaped
		// exactly once.
		if visible.Hides(strings.ReplaceAll(strings.ReplaceAll(p.Message, "⚠️", ""), "\n", " ")) {
			t.Errorf("%q: the question hides characters:\n%q", cmd, p.Message)
		}
		for _, l := range strings.Split(cmd, "\n") {
			if n := strings.Count(p.Message, visible.String(l)); n != 1 {
				t.Errorf("%q: line %q is shown %d times:\n%s", cmd, visible.String(l), n, p.Message)
			}
		}
	}
}

// Commands run by nb mcp serve get the scrubbed environment: secrets and
// nb's provider keys removed, what terminal.env passes kept.
func TestRunCmdEnvScrubbedOverMCP(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state")}
	cfg := config.Default()
	cfg.Terminal.Env.Pass = []string{"NBT_PASSED_*"}
	environ := append(os.Environ(), "GITHUB_TOKEN=canary-gh", "OPENAI_API_KEY=canary-openai",
		"DATABASE_URL=postgres://u:canary-pw@db/x", "NBT_PASSED_TOKEN=passed", "NBT_PLAIN=plain")
	srv, err := Build(context.Background(), BuildOptions{Config: cfg, LaunchDir: dir, Approve: []string{"env"},
		Environ: environ, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	cs := h.connect(t, nil, "")
	out, isErr := callText(t, cs, "run_cmd", map[string]any{"command": "env"})
	if isErr {
		t.Fatalf("env: %s", out)
	}
	if strings.Contains(out, "canary") || !strings.Contains(out, "NBT_PASSED_TOKEN=passed") || !strings.Contains(out, "NBT_PLAIN=plain") {
		t.Fatalf("env over MCP:\n%s", out)
	}
}
