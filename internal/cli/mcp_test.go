package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/iostreams"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveOnce runs `nb mcp serve` with the global flags of global, sends an
// initialize request, waits for the answer and returns what went to stderr.
func serveOnce(t *testing.T, global *Options) string {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := &syncBuffer{}
	streams := &iostreams.IO{In: inR, Out: outW, Err: stderr, Getenv: func(k string) string { return "" }, Now: time.Now, Width: func() int { return 80 }}
	done := make(chan int, 1)
	go func() { done <- finish(streams, runMCP([]string{"serve"}, streams, global)); outW.Close() }()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"protocolVersion"`) {
		t.Fatalf("initialize answer %q, %v", line, err)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("exit %d; stderr:\n%s", code, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nb mcp serve did not end at EOF")
	}
	return stderr.String()
}

func TestGlobalVerboseReachesMCPServe(t *testing.T) {
	if got := serveOnce(t, &Options{}); strings.Contains(got, "level=INFO") {
		t.Errorf("without --verbose the log is quiet, got:\n%s", got)
	}
	opts, err := parseFlags([]string{"--verbose", "mcp", "serve"})
	if err != nil {
		t.Fatal(err)
	}
	if got := serveOnce(t, opts); !strings.Contains(got, "level=INFO") {
		t.Errorf("nb --verbose mcp serve logged nothing below warnings:\n%s", got)
	}
}

// TestMCPLogQuietOnCancel: the end a Ctrl+C asks for is not logged as an
// error ("server run cancelled"); other errors still are.
func TestMCPLogQuietOnCancel(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(quietCancel{slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})})
	log.Error("server run cancelled", "error", context.Canceled)
	log.With("session", "1").Error("run", "error", fmt.Errorf("read: %w", context.Canceled))
	if buf.Len() != 0 {
		t.Errorf("a cancellation was logged: %q", buf.String())
	}
	log.Error("write failed", "error", errors.New("broken pipe"))
	if !strings.Contains(buf.String(), "broken pipe") {
		t.Errorf("another error was not logged: %q", buf.String())
	}
}
