package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Canaries of the withholding tests: the value of a secret variable of
// nb's environment, and a token of a forge's shape (made up).
const (
	envCanary   = "cnry-mcp-4Tq9-Zx7Lw2"
	shapeCanary = "ghp_Q7mZx2Lw9Tq4Vb8Nc1Kd5Hs3Fj6Pr0Ya2UeW"
)

// TestBinaryWithholdsSecrets: whatever nb mcp serve returns to its client
// (a command's output, a file read, an error naming a path) has the
// secrets nb knows of withheld, and _meta says what was. The policy would
// ask for these reads (the file holds a token's shape); the client's
// approval is trusted here so that the detector is the last line.
func TestBinaryWithholdsSecrets(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("token "+envCanary+"\nforge "+shapeCanary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "nb.json")
	if err := os.WriteFile(cfg, []byte(`{"approval": {"trustClientApproval": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nbBinary(t), "mcp", "serve", "--config", cfg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, ".cfg"), "XDG_STATE_HOME="+filepath.Join(dir, ".state"),
		"DEPLOY_TOKEN="+envCanary)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "go-test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"run_cmd", map[string]any{"command": "cat notes.txt"}},
		{"read_file", map[string]any{"path": "notes.txt"}},
		{"run_cmd", map[string]any{"command": "cat notes.txt; ls no-such-" + envCanary}},
		{"read_file", map[string]any{"path": "missing-" + envCanary + ".txt"}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var text strings.Builder
		for _, content := range res.Content {
			if tc, ok := content.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		got := text.String()
		if strings.Contains(got, envCanary) || strings.Contains(got, shapeCanary) {
			t.Errorf("%s %v: a secret reached the client: %s", c.name, c.args, got)
		}
		if !strings.Contains(got, "[withheld: $DEPLOY_TOKEN]") || c.name != "read_file" && !strings.Contains(got, "[withheld: github-pat]") {
			t.Errorf("%s %v: no marker: %s", c.name, c.args, got)
		}
		if res.Meta[WithheldMeta] == nil {
			t.Errorf("%s %v: no %s in _meta: %v", c.name, c.args, WithheldMeta, res.Meta)
		}
	}
}
