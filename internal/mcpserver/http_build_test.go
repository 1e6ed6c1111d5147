package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/config"
)

func TestServeHTTP(t *testing.T) {
	h := newHarness(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srvCtx, stop := context.WithCancel(ctx)
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- h.srv.ServeHTTP(srvCtx, "127.0.0.1:0", func(a string) { addrc <- a }) }()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, isErr := callText(t, cs, "fake_allow", map[string]any{"command": "over http"})
	if isErr || out != "ran over http" {
		t.Fatalf("call: %q", out)
	}
	cs.Close()
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if h.closed.n.Load() != 1 {
		t.Fatal("closers not called at shutdown")
	}
	if err := h.srv.ServeHTTP(ctx, "0.0.0.0:0", nil); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("non-loopback address: %v", err)
	}
}

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "o.txt"), []byte("other root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(dir, "state"), "USER": "tester", "SHELL": "/bin/bash"}
	srv, err := Build(context.Background(), BuildOptions{Config: config.Default(), LaunchDir: dir, Roots: []string{dir, other}, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	cs := h.connect(t, nil, "")
	out, isErr := callText(t, cs, "get_context", map[string]any{})
	var c Context
	if isErr || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("get_context: %s", out)
	}
	if c.Cwd != dir || len(c.Roots) != 2 || c.Host != "local" || c.Info == nil || c.OS == "" || c.User == "" {
		t.Fatalf("context: %s", out)
	}
	out, isErr = callText(t, cs, "read_file", map[string]any{"path": filepath.Join(other, "o.txt")})
	if isErr || out != "other root\n" {
		t.Fatalf("second root: %q", out)
	}
	if _, err := Build(context.Background(), BuildOptions{LaunchDir: dir, Roots: []string{filepath.Join(dir, "missing")}}); err == nil {
		t.Fatal("a missing root must be an error")
	}
}
