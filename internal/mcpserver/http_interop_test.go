package mcpserver

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/mcpserver/npmtest"
)

// startHTTPBinary runs `nb mcp serve --http 127.0.0.1:0` and returns its
// endpoint URL, read from the line it prints on stderr.
func startHTTPBinary(t *testing.T, root string) string {
	t.Helper()
	cmd := exec.Command(nbBinary(t), "mcp", "serve", "--http", "127.0.0.1:0")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+root, "XDG_STATE_HOME="+filepath.Join(root, ".state"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("nb mcp serve --http did not stop on SIGTERM")
		}
	})
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok && !sent {
				urlc <- strings.TrimSpace(url)
				sent = true
			}
		}
		done <- cmd.Wait()
	}()
	select {
	case url := <-urlc:
		return url
	case <-time.After(20 * time.Second):
		t.Fatal("nb mcp serve --http did not say where it listens")
	}
	return ""
}

func TestInspectorCLIOverHTTP(t *testing.T) {
	npm := npmtest.Dir(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "h.txt"), []byte("over http\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := startHTTPBinary(t, root)
	inspector := filepath.Join(npm, "node_modules", ".bin", "mcp-inspector")
	out := runNode(t, root, nil, 90*time.Second, inspector, "--cli", url, "--transport", "http", "--method", "tools/list")
	for _, want := range servedTools {
		if !strings.Contains(string(out), `"name": "`+want+`"`) {
			t.Errorf("tools/list over HTTP lacks %s", want)
		}
	}
	out = runNode(t, root, nil, 90*time.Second, inspector, "--cli", url, "--transport", "http", "--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=h.txt")
	if !strings.Contains(string(out), `over http\n`) {
		t.Fatalf("read_file over HTTP: %s", out)
	}
}
