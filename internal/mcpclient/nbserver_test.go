package mcpclient

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/mcpserver"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/files"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// nb's client against nb's server: tools, approval through elicitation
// answered by the client's Elicit callback, and the path confinement.
func TestAgainstNBServer(t *testing.T) {
	root := t.TempDir()
	roots, err := files.NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	wd := tool.NewWorkdir(roots.Dirs()[0])
	eng := tooltest.Engine(t, nil)
	srv, err := mcpserver.New(mcpserver.Options{Cwd: wd.Cwd, Tools: append(files.New(files.Options{Roots: roots, Policy: eng}), &mcpserver.ContextTool{Workdir: wd, Policy: eng})})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, st) }()

	var mu sync.Mutex
	var asked []string
	c := New(map[string]config.MCPServer{"nb": {Command: "unused"}}, Options{Policy: eng,
		Elicit: func(_ context.Context, server string, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			mu.Lock()
			asked = append(asked, server+": "+p.Message)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		},
	})
	c.transports = map[string]mcp.Transport{"nb": ct}
	c.Start(ctx)
	tools := byName(c.Tools())
	if tools["nb_write_file"] == nil || tools["nb_get_context"] == nil {
		t.Fatalf("tools: %+v", c.Status())
	}
	_, res := call(t, tools["nb_write_file"], map[string]any{"path": "out.txt", "content": "via nb\n"})
	if res.IsError {
		t.Fatalf("write: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "out.txt")); string(b) != "via nb\n" {
		t.Fatalf("file: %q", b)
	}
	mu.Lock()
	if len(asked) != 1 || !strings.HasPrefix(asked[0], "nb: write_file: write ⚠️: out.txt") {
		t.Fatalf("asked: %q", asked)
	}
	mu.Unlock()
	_, res = call(t, tools["nb_read_file"], map[string]any{"path": "../../../etc/passwd"})
	if !res.IsError || !strings.Contains(res.Content, "outside the allowed roots") {
		t.Fatalf("escape: %+v", res)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
