package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
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
