package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/testenv"
)

// nb mcp serve runs commands on the configured terminal provider: with the
// sandbox configured, run_cmd is sandboxed (decided as sandboxed, and
// really confined) and get_context says so.
func TestServeHonoursTerminalProvider(t *testing.T) {
	testenv.Tool(t, "bwrap")
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state"), "PATH": os.Getenv("PATH")}
	cfg := config.Default()
	cfg.Terminal.Provider = "box"
	cfg.Terminal.Providers = map[string]config.HostSpec{"box": {Type: "sandbox", Mechanism: "bwrap"}}
	srv, err := Build(context.Background(), BuildOptions{Config: cfg, LaunchDir: dir, Getenv: func(k string) string { return env[k] }, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	cs := h.connect(t, nil, "") // no elicitation: anything asked is refused
	out, _ := callText(t, cs, "get_context", map[string]any{})
	var c Context
	if err := json.Unmarshal([]byte(out), &c); err != nil || c.Host != "box" || c.Isolation != "sandbox" {
		t.Fatalf("get_context: %v %s", err, out)
	}
	// Not safe, not dangerous: allowed only because the host is a sandbox.
	out, isErr := callText(t, cs, "run_cmd", map[string]any{"command": "touch made.txt"})
	if isErr {
		t.Fatalf("touch in the sandbox was not auto-approved: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Fatalf("touch made.txt did not run: %s", out)
	}
	// outside the workspace, not a system path (which would be asked):
	// only the sandbox stops it
	escape := filepath.Join("/var/tmp", "nb-escape-"+filepath.Base(dir))
	out, _ = callText(t, cs, "run_cmd", map[string]any{"command": "touch " + escape})
	if _, err := os.Stat(escape); err == nil {
		os.Remove(escape)
		t.Fatalf("the command escaped the sandbox: %s", out)
	}
	if !strings.Contains(out, "Read-only file system") && !strings.Contains(out, "Permission denied") {
		t.Errorf("write outside the workspace: %s", out)
	}
}
