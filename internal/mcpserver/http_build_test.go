package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/config"
)

// bearer adds a token to every request of a client.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func TestServeHTTP(t *testing.T) {
	h := newHarness(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	token, err := NewToken()
	if err != nil || len(token) != 64 {
		t.Fatalf("token %q: %v", token, err)
	}
	srvCtx, stop := context.WithCancel(ctx)
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- h.srv.ServeHTTP(srvCtx, "127.0.0.1:0", token, func(a string) { addrc <- a }) }()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	endpoint := "http://" + addr + "/mcp"
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	// The official client without the token is refused.
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil); err == nil {
		cs.Close()
		t.Fatal("a client without the token connected")
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint,
		HTTPClient: &http.Client{Transport: bearer{token, tr}}}, nil)
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
	if err := h.srv.ServeHTTP(ctx, "0.0.0.0:0", token, nil); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("non-loopback address: %v", err)
	}
	if err := h.srv.ServeHTTP(ctx, "127.0.0.1:0", "short", nil); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("short token: %v", err)
	}
}

// Guard: every request needs the token; web origins other than loopback
// are refused with 403 whatever they send.
func TestGuard(t *testing.T) {
	const token = "0123456789abcdef0123456789abcdef"
	srv := httptest.NewServer(Guard(token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "tools") })))
	defer srv.Close()
	for _, c := range []struct {
		name, auth string
		origins    []string
		want       int
	}{
		{"no token", "", nil, 401},
		{"wrong token", "Bearer " + strings.Repeat("x", len(token)), nil, 401},
		{"prefix of token", "Bearer " + token[:20], nil, 401},
		{"token longer", "Bearer " + token + "0", nil, 401},
		{"basic scheme", "Basic " + token, nil, 401},
		{"token", "Bearer " + token, nil, 200},
		{"lower-case scheme", "bearer " + token, nil, 200},
		{"loopback origin", "Bearer " + token, []string{"http://localhost:6274"}, 200},
		{"loopback ip origin", "Bearer " + token, []string{"http://127.0.0.1:3000"}, 200},
		{"ipv6 loopback origin", "Bearer " + token, []string{"http://[::1]:3000"}, 200},
		{"web origin with token", "Bearer " + token, []string{"https://evil.example"}, 403},
		{"web origin without token", "", []string{"https://evil.example"}, 403},
		{"rebinding name", "Bearer " + token, []string{"http://localhost.evil.example"}, 403},
		{"null origin", "Bearer " + token, []string{"null"}, 403},
		{"file origin", "Bearer " + token, []string{"file://"}, 403},
		{"two origins", "Bearer " + token, []string{"http://localhost", "https://evil.example"}, 403},
	} {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader("{}"))
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		for _, o := range c.origins {
			req.Header.Add("Origin", o)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want || (c.want == 200) != (string(body) == "tools") {
			t.Errorf("%s: %d %q, want %d", c.name, resp.StatusCode, body, c.want)
		}
		if c.want == 401 && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", c.name)
		}
	}
	// An empty token admits nothing.
	empty := httptest.NewServer(Guard("", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
	defer empty.Close()
	req, _ := http.NewRequest("POST", empty.URL, nil)
	req.Header.Set("Authorization", "Bearer ")
	resp, err := empty.Client().Do(req)
	if err != nil || resp.StatusCode != 401 {
		t.Fatalf("empty token: %v %v", resp, err)
	}
	resp.Body.Close()
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
