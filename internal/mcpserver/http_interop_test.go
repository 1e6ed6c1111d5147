package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/mcpserver/npmtest"
)

// startHTTPBinary runs `nb mcp serve --http 127.0.0.1:0` and returns its
// endpoint URL and bearer token, read from the lines it prints on stderr.
func startHTTPBinary(t *testing.T, root string) (url, token string) {
	t.Helper()
	cmd := exec.Command(nbBinary(t), "mcp", "serve", "--http", "127.0.0.1:0")
	cmd.Dir = root
	// nb's own configuration and state live outside the served root
	// (inside it they would make the root hold secrets).
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
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
	urlc := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent, tok := false, ""
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "bearer token "); ok {
				tok, _, _ = strings.Cut(rest, " ")
			}
			if _, url, ok := strings.Cut(sc.Text(), "listening on "); ok && !sent {
				urlc <- [2]string{strings.TrimSpace(url), tok}
				sent = true
			}
		}
		done <- cmd.Wait()
	}()
	select {
	case got := <-urlc:
		if len(got[1]) < 32 {
			t.Fatalf("nb mcp serve --http printed no token before listening (%q)", got[1])
		}
		return got[0], got[1]
	case <-time.After(20 * time.Second):
		t.Fatal("nb mcp serve --http did not say where it listens")
	}
	return "", ""
}

// The official TypeScript SDK's HTTP client reaches the tools with the
// token nb printed, and not without it; the Inspector CLI, which cannot
// send headers, is refused.
func TestHTTPClientsMustAuthorize(t *testing.T) {
	npm := npmtest.Dir(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "h.txt"), []byte("over http\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, token := startHTTPBinary(t, root)
	script, err := filepath.Abs(filepath.Join("testdata", "tshttp.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// The script imports the SDK from the npm directory.
	mjs := filepath.Join(npm, "tshttp.mjs")
	b, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mjs, b, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (out struct {
		Tools []string `json:"tools"`
		Read  string   `json:"read"`
		Error string   `json:"error"`
	}) {
		raw := runNode(t, root, nil, 90*time.Second, "node", append([]string{mjs}, args...)...)
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return out
	}
	ok := run(url, token)
	if ok.Error != "" || ok.Read != "over http\n" {
		t.Fatalf("with the token: %+v", ok)
	}
	for _, want := range servedTools {
		if !slices.Contains(ok.Tools, want) {
			t.Errorf("tools/list over HTTP lacks %s", want)
		}
	}
	if no := run(url); no.Error == "" || no.Read != "" || !strings.Contains(no.Error, "unauthorized") {
		t.Fatalf("without the token: %+v", no)
	}
	if bad := run(url, strings.Repeat("0", len(token))); bad.Error == "" || bad.Read != "" {
		t.Fatalf("with a wrong token: %+v", bad)
	}
	inspector := filepath.Join(npm, "node_modules", ".bin", "mcp-inspector")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, inspector, "--cli", url, "--transport", "http", "--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=h.txt")
	cmd.Dir = root
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "over http") {
		t.Fatalf("the Inspector without a token was served: %v\n%s", err, out)
	}
}
