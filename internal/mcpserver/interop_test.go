package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/mcpserver/npmtest"
)

// Interop tests drive the real nb binary with official MCP peers: the MCP
// Inspector CLI and a TypeScript SDK client. They need node and npm; the
// packages are installed by testdata/setup.sh into a cache directory when
// missing. Without node they skip, unless NB_REQUIRE_INTEROP=1 (CI).

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

// nbBinary builds ./cmd/nb once per test run (NB_BINARY overrides).
func nbBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("NB_BINARY"); p != "" {
		return p
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nb-mcp-test-")
		if err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "nb")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", buildPath, "github.com/nb-cli/nb/cmd/nb")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/nb: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}

func runNode(t *testing.T, dir string, env []string, timeout time.Duration, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\nstdout: %s\nstderr: %s", name, args, err, out, stderr.String())
	}
	return out
}

func TestInspectorCLI(t *testing.T) {
	npm := npmtest.Dir(t)
	nb := nbBinary(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inspector := filepath.Join(npm, "node_modules", ".bin", "mcp-inspector")
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	out := runNode(t, root, env, 90*time.Second, inspector, "--cli", nb, "mcp", "serve", "--method", "tools/list")
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("tools/list output: %v\n%s", err, out)
	}
	names := map[string]bool{}
	for _, tl := range list.Tools {
		names[tl.Name] = true
		if tl.InputSchema["type"] != "object" {
			t.Errorf("%s: schema %v", tl.Name, tl.InputSchema)
		}
	}
	for _, want := range servedTools {
		if !names[want] {
			t.Errorf("tools/list lacks %s: %s", want, out)
		}
	}
	out = runNode(t, root, env, 90*time.Second, inspector, "--cli", nb, "mcp", "serve", "--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=a.txt")
	if !strings.Contains(string(out), `alpha\n`) || strings.Contains(string(out), `"isError": true`) {
		t.Fatalf("read_file via inspector: %s", out)
	}
	out = runNode(t, root, env, 90*time.Second, inspector, "--cli", nb, "mcp", "serve", "--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=/etc/passwd")
	if !strings.Contains(string(out), "outside the allowed roots") || !strings.Contains(string(out), `"isError": true`) {
		t.Fatalf("escape via inspector: %s", out)
	}
	out = runNode(t, root, env, 90*time.Second, inspector, "--cli", nb, "mcp", "serve", "--method", "tools/call", "--tool-name", "run_cmd", "--tool-arg", "command=echo hi from run_cmd")
	if !strings.Contains(string(out), `hi from run_cmd`) || !strings.Contains(string(out), `\"exitCode\":0`) {
		t.Fatalf("run_cmd via inspector: %s", out)
	}
	// The inspector cannot elicit, so a write is refused with the remedy.
	out = runNode(t, root, env, 90*time.Second, inspector, "--cli", nb, "mcp", "serve", "--method", "tools/call", "--tool-name", "write_file", "--tool-arg", "path=b.txt", "--tool-arg", "content=x")
	if !strings.Contains(string(out), "cannot ask") || !strings.Contains(string(out), "Remedy") {
		t.Fatalf("write via inspector: %s", out)
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); err == nil {
		t.Fatal("write_file ran without approval")
	}
}

// edit_file through the official Inspector CLI: refused without a way to
// ask; with approval.trustClientApproval the client's call is the
// approval and the edit lands, CRLF line ends kept; a missing oldText
// comes back as an error naming the closest line, the file untouched.
func TestInspectorEditFile(t *testing.T) {
	npm := npmtest.Dir(t)
	nb := nbBinary(t)
	root := t.TempDir()
	file := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(file, []byte("first line\r\nsecond line\r\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	inspector := filepath.Join(npm, "node_modules", ".bin", "mcp-inspector")
	cfgHome := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "XDG_STATE_HOME=" + t.TempDir()}
	call := func(args ...string) string {
		argv := []string{"--cli", nb, "mcp", "serve", "--method", "tools/call", "--tool-name", "edit_file", "--tool-arg", "path=notes.txt"}
		for _, a := range args {
			argv = append(argv, "--tool-arg", a)
		}
		return string(runNode(t, root, env, 90*time.Second, inspector, argv...))
	}
	out := call("oldText=second line", "newText=2nd line")
	if !strings.Contains(out, "cannot ask") || !strings.Contains(out, `"isError": true`) {
		t.Fatalf("edit without a way to ask: %s", out)
	}
	if err := os.MkdirAll(filepath.Join(cfgHome, "nb"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgHome, "nb", "config.json"), []byte(`{"approval": {"trustClientApproval": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out = call("oldText=second line", "newText=2nd line")
	if !strings.Contains(out, "edited") || !strings.Contains(out, "+1 -1 lines") || strings.Contains(out, `"isError": true`) {
		t.Fatalf("trusted edit: %s", out)
	}
	got, _ := os.ReadFile(file)
	if string(got) != "first line\r\n2nd line\r\n" {
		t.Fatalf("file after the edit: %q", got)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	out = call("oldText=frist line", "newText=x")
	if !strings.Contains(out, `"isError": true`) || !strings.Contains(out, "1: first line") {
		t.Fatalf("missing oldText: %s", out)
	}
	if got2, _ := os.ReadFile(file); string(got2) != string(got) {
		t.Fatalf("a failed edit changed the file: %q", got2)
	}
}

// servedTools are the tools `nb mcp serve` must offer (issue 7).
var servedTools = []string{"run_cmd", "set_cwd", "read_file", "write_file", "edit_file", "list_dir", "path_info", "get_context",
	"terminal_start", "terminal_continue", "terminal_stop", "terminal_list"}

type tsResult struct {
	Asked   []string       `json:"asked"`
	Tools   []string       `json:"tools"`
	Context map[string]any `json:"context"`
	Write   struct {
		Text    string `json:"text"`
		IsError bool   `json:"isError"`
	} `json:"write"`
	Read struct {
		Text    string `json:"text"`
		IsError bool   `json:"isError"`
	} `json:"read"`
	Escape struct {
		Text    string `json:"text"`
		IsError bool   `json:"isError"`
	} `json:"escape"`
	Unknown struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"unknown"`
	Error string `json:"error"`
}

func TestTypeScriptClient(t *testing.T) {
	npm := npmtest.Dir(t)
	nb := nbBinary(t)
	script, err := os.ReadFile(filepath.Join("testdata", "tsclient.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// ES modules resolve packages next to the script.
	scriptPath := filepath.Join(npm, "nb-tsclient.mjs")
	if err := os.WriteFile(scriptPath, script, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"accept", "decline", "none"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			env := []string{"ELICIT=" + mode, "XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
			out := runNode(t, root, env, 90*time.Second, "node", scriptPath, nb, "mcp", "serve")
			var r tsResult
			if err := json.Unmarshal(out, &r); err != nil || r.Error != "" {
				t.Fatalf("client output: %v %s", err, out)
			}
			for _, want := range servedTools {
				if !slices.Contains(r.Tools, want) {
					t.Errorf("tools/list lacks %s: %v", want, r.Tools)
				}
			}
			if r.Context["cwd"] == "" || r.Context["fileRoots"] == nil {
				t.Errorf("context: %v", r.Context)
			}
			if !r.Escape.IsError || !strings.Contains(r.Escape.Text, "outside the allowed roots") {
				t.Errorf("escape: %+v", r.Escape)
			}
			if r.Unknown.Code != -32602 || !strings.Contains(r.Unknown.Message, "unknown tool") {
				t.Errorf("unknown tool: %+v", r.Unknown)
			}
			_, statErr := os.Stat(filepath.Join(root, "ts", "hello.txt"))
			switch mode {
			case "accept":
				if len(r.Asked) != 1 || !strings.Contains(r.Asked[0], "write_file: write ⚠️: ts/hello.txt") {
					t.Errorf("asked: %q", r.Asked)
				}
				if r.Write.IsError || statErr != nil || r.Read.Text != "from typescript\n" {
					t.Errorf("approved write: %+v read %+v stat %v", r.Write, r.Read, statErr)
				}
			case "decline":
				if len(r.Asked) != 1 || !r.Write.IsError || !strings.Contains(r.Write.Text, "did not approve") || statErr == nil {
					t.Errorf("declined write: %+v asked %q", r.Write, r.Asked)
				}
			case "none":
				if len(r.Asked) != 0 || !r.Write.IsError || !strings.Contains(r.Write.Text, "cannot ask") || statErr == nil {
					t.Errorf("write without elicitation: %+v", r.Write)
				}
			}
		})
	}
}

// startBinary runs `nb mcp serve` with raw pipes.
func startBinary(t testing.TB, dir string, args ...string) (io.WriteCloser, *bufio.Reader, func()) {
	t.Helper()
	cmd := exec.Command(nbBinary(t), append([]string{"mcp", "serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("nb mcp serve exited with %v after stdin closed", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("nb mcp serve did not exit when its client disconnected")
		}
	}
	return in, bufio.NewReader(outPipe), stop
}

func TestBinaryMalformedJSONRPC(t *testing.T) {
	in, out, stop := startBinary(t, t.TempDir())
	defer stop()
	p := &rpcPeer{out: out}
	send := func(line string) map[string]any {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
		return p.recv(t)
	}
	if m := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":`); errCode(m) != -32700 {
		t.Fatalf("truncated: %v", m)
	}
	if m := send(`not json at all`); errCode(m) != -32700 {
		t.Fatalf("garbage: %v", m)
	}
	if m := send(`{"jsonrpc":"2.0","id":9,"params":{}}`); errCode(m) != -32600 || m["id"] != float64(9) {
		t.Fatalf("no method: %v", m)
	}
	m := send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if r, _ := m["result"].(map[string]any); r == nil {
		t.Fatalf("initialize after garbage: %v", m)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if m := send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bogus","arguments":{}}}`); errCode(m) != -32602 {
		t.Fatalf("unknown tool: %v", m)
	}
	if m := send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"path_info","arguments":{"path":"."}}}`); m["result"] == nil {
		t.Fatalf("call after errors: %v", m)
	}
}

func TestBinaryUsage(t *testing.T) {
	nb := nbBinary(t)
	for _, args := range [][]string{{"mcp"}, {"mcp", "serve", "--bogus"}, {"mcp", "serve", "--http", "0.0.0.0:0"}, {"mcp", "serve", "extra"}} {
		cmd := exec.Command(nb, args...)
		cmd.Dir = t.TempDir()
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("nb %v: %v, want exit 2", args, err)
		}
	}
	cmd := exec.Command(nb, "mcp", "serve", "--config", filepath.Join(t.TempDir(), "missing.json"))
	cmd.Dir = t.TempDir()
	if err := cmd.Run(); err == nil {
		t.Error("a missing --config file must fail")
	} else if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("missing --config: %v, want exit 1", err)
	}
}

// A Go SDK client against the binary over stdio, approving with elicitation.
func TestBinaryGoClient(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(nbBinary(t), "mcp", "serve", "--root", dir)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir)
	client := mcp.NewClient(&mcp.Implementation{Name: "go-test", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "x/y.txt", "content": "go\n"}})
	if err != nil || res.IsError {
		t.Fatalf("write: %v %+v", err, res)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "x", "y.txt")); err != nil || string(b) != "go\n" {
		t.Fatalf("written: %q %v", b, err)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("server exit: %v", cmd.ProcessState)
	}
}

func connectGo(t *testing.T, dir string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(nbBinary(t), append([]string{"mcp", "serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, ".cfg"), "XDG_STATE_HOME="+filepath.Join(dir, ".state"))
	client := mcp.NewClient(&mcp.Implementation{Name: "go-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Configuration reaches `nb mcp serve`: trustClientApproval from --config,
// and a project's .nb/config.json deny rule, which wins over trust.
func TestBinaryConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nb.json")
	if err := os.WriteFile(cfg, []byte(`{"approval": {"trustClientApproval": true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connectGo(t, dir, "--config", cfg)
	out, isErr := callText(t, cs, "run_cmd", map[string]any{"command": "touch trusted"})
	if isErr {
		t.Fatalf("trusted client: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "trusted")); err != nil {
		t.Fatal("trusted command did not run")
	}
	cs.Close()

	if err := os.MkdirAll(filepath.Join(dir, ".nb"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".nb", "config.json"), []byte(`{"approval": {"deny": ["touch *"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cs = connectGo(t, dir, "--config", cfg)
	out, isErr = callText(t, cs, "run_cmd", map[string]any{"command": "touch denied"})
	if !isErr || !strings.Contains(out, "denied") {
		t.Fatalf("project deny rule: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "denied")); err == nil {
		t.Fatal("denied command ran")
	}
}
