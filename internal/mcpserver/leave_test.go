//go:build unix

package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/proctest"
)

// TestServeExitsWhenClientLeaves: `nb mcp serve` ends, with everything it
// started, as soon as its client closes the connection, even while tool
// calls are still waiting: a long command, a terminal session printing
// hostile escape sequences, and a read of a FIFO.
func TestServeExitsWhenClientLeaves(t *testing.T) {
	proctest.Check(t)
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nbBinary(t), "mcp", "serve")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "leaver", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := []*mcp.CallToolParams{
		{Name: "run_cmd", Arguments: map[string]any{"command": "sleep 300", "timeout": 600}},
		{Name: "terminal_start", Arguments: map[string]any{"command": `while :; do printf 'a\033[999999999b\033[999999999S'; done`}},
		{Name: "read_file", Arguments: map[string]any{"path": "pipe"}},
	}
	for _, p := range calls {
		go func() { _, _ = cs.CallTool(ctx, p) }()
	}
	time.Sleep(500 * time.Millisecond)
	// The client leaves: its end of the connection closes, no signal.
	stdin.Close()
	select {
	case <-exited:
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("nb mcp serve did not exit after its client left")
	}
	_ = cs.Close()
}
