package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/config"
)

// processesWith lists pids whose command line contains marker.
func processesWith(marker string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// Terminal sessions started over MCP end when the client disconnects.
func TestTerminalSessionsEndOnDisconnect(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc")
	}
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state")}
	srv, err := Build(context.Background(), BuildOptions{Config: config.Default(), LaunchDir: dir, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	cs := h.connect(t, &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}}, "")
	marker := fmt.Sprintf("nbmark%d", time.Now().UnixNano())
	out, isErr := callText(t, cs, "terminal_start", map[string]any{"command": "sleep 3600; : " + marker})
	if isErr || !strings.Contains(out, "term-1") {
		t.Fatalf("terminal_start: %s", out)
	}
	if len(processesWith(marker)) == 0 {
		t.Fatal("the session's process is not running")
	}
	out, _ = callText(t, cs, "terminal_list", map[string]any{})
	if !strings.Contains(out, "term-1") {
		t.Fatalf("terminal_list: %s", out)
	}
	cs.Close()
	select {
	case <-h.done:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
	h.done <- nil
	if pids := processesWith(marker); len(pids) != 0 {
		t.Fatalf("session processes outlived the client: %v", pids)
	}
}
