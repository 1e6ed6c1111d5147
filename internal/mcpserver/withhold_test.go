package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool/files"
	"github.com/nb-cli/nb/internal/tool/tooltest"
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

// TestWithheldEveryPath: a tool's text result, the question an approval
// puts to the client's user (write_file shows the content to write), a
// result's structured content and an error a handler returns pass the
// detector too (in process: what the binary's test cannot mutate).
func TestWithheldEveryPath(t *testing.T) {
	det := redact.New(redact.Options{Values: func() []redact.Value { return []redact.Value{{Kind: "$DEPLOY_TOKEN", Value: envCanary}} }})
	h := newHarness(t, false)
	srv, err := New(Options{Tools: files.New(files.Options{Roots: mustRoots(t, h.root), Policy: tooltest.Engine(t, nil)}), Cwd: h.wd.Cwd,
		Redact: func(text string) redact.Result { return det.Redact(text, nil) }})
	if err != nil {
		t.Fatal(err)
	}
	h.srv = srv
	notes := filepath.Join(h.root, "notes.txt")
	if err := os.WriteFile(notes, []byte("token "+envCanary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked string
	cs := h.connect(t, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = r.Params.Message
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}, nil
	}}, "")
	if got, _ := callText(t, cs, "read_file", map[string]any{"path": notes}); strings.Contains(got, envCanary) || !strings.Contains(got, "[withheld: $DEPLOY_TOKEN]") {
		t.Errorf("a file read: %q", got)
	}
	callText(t, cs, "write_file", map[string]any{"path": "notes.txt", "content": "token " + envCanary + "\n"})
	if strings.Contains(asked, envCanary) || !strings.Contains(asked, "[withheld: $DEPLOY_TOKEN]") {
		t.Errorf("the approval question: %q", asked)
	}

	handler := srv.withheld(func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{"token": envCanary}, Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}},
			errors.New("failed with " + envCanary)
	})
	res, err := handler(context.Background(), &mcp.CallToolRequest{})
	b, _ := json.Marshal(res.StructuredContent)
	if err == nil || strings.Contains(err.Error(), envCanary) || strings.Contains(string(b), envCanary) || res.Meta[WithheldMeta] == nil {
		t.Errorf("error %v, structured content %s, meta %v", err, b, res.Meta)
	}
}

func mustRoots(t *testing.T, dir string) *files.Roots {
	roots, err := files.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	return roots
}
