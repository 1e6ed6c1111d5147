package mcpclient

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/mcpserver/npmtest"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// Interop tests run nb's client against the official reference servers
// (server-everything, server-filesystem) and against `nb mcp serve`. The
// node packages come from ../mcpserver/testdata/setup.sh; without node the
// tests skip unless NB_REQUIRE_INTEROP=1.

func startClient(t *testing.T, servers map[string]config.MCPServer) *Client {
	t.Helper()
	rec := &recorder{}
	c := New(servers, Options{Policy: tooltest.Engine(t, nil), OnError: rec.onError, StartTimeout: 60 * time.Second, CallTimeout: 30 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c.Start(ctx)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	if len(rec.errs) > 0 {
		t.Fatalf("start: %q", rec.errs)
	}
	return c
}

func TestServerEverything(t *testing.T) {
	npm := npmtest.Dir(t)
	script := filepath.Join(npm, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	c := startClient(t, map[string]config.MCPServer{"every": {Command: "node", Args: []string{script, "stdio"},
		ApprovalHints: map[string]config.ApprovalHint{"echo": {DisplayArgs: []string{"message"}}}}})
	tools := byName(c.Tools())
	echo := tools["every_echo"]
	if echo == nil {
		t.Fatalf("no every_echo among %d tools", len(tools))
	}
	d, res := call(t, echo, map[string]any{"message": "hello nb"})
	if d.Decision == policy.Allow && d.DecidedBy == "" {
		t.Errorf("unexpected decision %+v", d)
	}
	if !strings.Contains(d.Display, "hello nb") {
		t.Errorf("display %q lacks the message", d.Display)
	}
	if res.IsError || !strings.Contains(res.Content, "hello nb") {
		t.Fatalf("echo: %+v", res)
	}
	if sum := tools["every_get-sum"]; sum != nil {
		_, res = call(t, sum, map[string]any{"a": 2, "b": 3})
		if !strings.Contains(res.Content, "5") {
			t.Errorf("get-sum: %+v", res)
		}
	}
	if img := tools["every_get-tiny-image"]; img != nil {
		_, res = call(t, img, map[string]any{})
		if !strings.Contains(res.Content, "[image image/png") {
			t.Errorf("tiny image: %q", res.Content)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	prompts, err := c.Prompts(ctx)
	if err != nil || len(prompts) == 0 {
		t.Fatalf("prompts: %v %v", prompts, err)
	}
	var simple *Prompt
	for i := range prompts {
		if len(prompts[i].Arguments) == 0 {
			simple = &prompts[i]
			break
		}
	}
	if simple != nil {
		msgs, err := c.GetPrompt(ctx, simple.Name, nil)
		if err != nil || len(msgs) == 0 || msgs[0].Text == "" {
			t.Errorf("get prompt %s: %+v %v", simple.Name, msgs, err)
		}
	}
	if tools["mcp_read_resource"] == nil {
		t.Fatal("server-everything offers resources but mcp_read_resource is missing")
	}
	_, res = call(t, tools["mcp_list_resources"], map[string]any{"server": "every"})
	lines := strings.Split(strings.TrimSpace(res.Content), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "every\t") {
		t.Fatalf("list resources: %q", res.Content)
	}
	uri := strings.Split(lines[0], "\t")[1]
	_, res = call(t, tools["mcp_read_resource"], map[string]any{"server": "every", "uri": uri})
	if res.IsError || res.Content == "" {
		t.Fatalf("read %s: %+v", uri, res)
	}
}

func TestServerFilesystem(t *testing.T) {
	npm := npmtest.Dir(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "note.txt"), []byte("filesystem works\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(npm, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	c := startClient(t, map[string]config.MCPServer{"fs": {Command: "node", Args: []string{script, root},
		AlwaysAllow:   []string{"read_text_file", "read_file"},
		ApprovalHints: map[string]config.ApprovalHint{"write_file": {DisplayArgs: []string{"path"}, AlwaysWarn: true}}}})
	tools := byName(c.Tools())
	read := tools["fs_read_text_file"]
	if read == nil {
		read = tools["fs_read_file"]
	}
	if read == nil || tools["fs_write_file"] == nil {
		t.Fatalf("filesystem tools missing: %d tools", len(tools))
	}
	d, res := call(t, read, map[string]any{"path": filepath.Join(root, "note.txt")})
	if d.Decision != policy.Allow || res.IsError || !strings.Contains(res.Content, "filesystem works") {
		t.Fatalf("read: %+v %+v", d, res)
	}
	d, res = call(t, tools["fs_write_file"], map[string]any{"path": filepath.Join(root, "new.txt"), "content": "x"})
	if d.Decision != policy.Ask || !d.Warn || approval.DisplayLine(d) != "fs_write_file ⚠️: "+filepath.Join(root, "new.txt") {
		t.Fatalf("write decision: %+v", d)
	}
	if res.IsError {
		t.Fatalf("write: %+v", res)
	}
	_, res = call(t, read, map[string]any{"path": "/etc/hostname"})
	if !res.IsError {
		t.Fatalf("server-filesystem read outside its root: %+v", res)
	}
}

// nb's client against server-everything over streamable HTTP.
func TestServerEverythingHTTP(t *testing.T) {
	npm := npmtest.Dir(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	script := filepath.Join(npm, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	cmd := exec.Command("node", script, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") && !once {
				close(ready)
				once = true
			}
		}
		waited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-waited
	})
	select {
	case <-ready:
	case <-time.After(60 * time.Second):
		t.Fatal("server-everything (streamableHttp) did not start")
	}
	c := startClient(t, map[string]config.MCPServer{"web": {Type: "http", URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}})
	tools := byName(c.Tools())
	if tools["web_echo"] == nil {
		t.Fatalf("no web_echo among %d tools", len(tools))
	}
	_, res := call(t, tools["web_echo"], map[string]any{"message": "over streamable http"})
	if res.IsError || !strings.Contains(res.Content, "over streamable http") {
		t.Fatalf("echo: %+v", res)
	}
}

// A server started through a wrapper (as npx and uvx do) leaves no process
// behind after Close, not even a helper it put in the background: the whole
// process group is ended.
func TestWrappedServerLeavesNoProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("needs /proc")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := fmt.Sprintf("nbwrap%d", time.Now().UnixNano())
	c := New(map[string]config.MCPServer{"w": {Command: "/bin/sh", Args: []string{"-c", `sleep 300 </dev/null >/dev/null 2>&1 & "$0" -test.run=NONE; : ` + marker, exe},
		Env: map[string]string{"NB_MCPCLIENT_TEST_SERVER": "1"}}}, Options{Policy: tooltest.Engine(t, nil)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	if len(c.Tools()) == 0 {
		t.Fatalf("wrapped server did not start: %+v", c.Status())
	}
	sleepers := sleepersIn(marker)
	if len(processesWith(marker)) == 0 || len(sleepers) == 0 {
		t.Fatal("wrapper or its background helper not found")
	}
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(processesWith(marker)) > 0 || len(childrenOf(exe)) > 0 || len(alive(sleepers)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("processes outlived Close: %v %v %v", processesWith(marker), childrenOf(exe), alive(sleepers))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sleepersIn finds the background "sleep 300" of the wrapper whose command
// line carries marker, by its process group.
func sleepersIn(marker string) []string {
	groups := map[string]bool{}
	for _, pid := range processesWith(marker) {
		if g := pgid(pid); g != "" {
			groups[g] = true
		}
	}
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(b), "sleep\x00300") && groups[pgid(e.Name())] {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// alive keeps the pids that still run (zombies count as ended).
func alive(pids []string) []string {
	var out []string
	for _, p := range pids {
		b, err := os.ReadFile(filepath.Join("/proc", p, "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z") {
			continue
		}
		out = append(out, p)
	}
	return out
}

func pgid(pid string) string {
	b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		f := strings.Fields(s[i+1:])
		if len(f) > 2 {
			return f[2]
		}
	}
	return ""
}

func processesWith(marker string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// childrenOf lists processes running exe as a test server (environment
// marker), other than this process.
func childrenOf(exe string) []string {
	var pids []string
	self := fmt.Sprint(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if e.Name() == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !strings.Contains(string(env), "NB_MCPCLIENT_TEST_SERVER=1") {
			continue
		}
		if target, _ := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); target == exe {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
