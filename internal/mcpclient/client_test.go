package mcpclient

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// When the test binary is started with NB_MCPCLIENT_TEST_SERVER set, it is
// a stdio MCP server (a real child process for the stdio tests).
func TestMain(m *testing.M) {
	if os.Getenv("NB_MCPCLIENT_TEST_SERVER") != "" {
		s := testServer()
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

type echoArgs struct {
	Text string `json:"text" jsonschema:"text to echo"`
}

func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text back"}, func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + a.Text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "getenv", Description: "A variable of the server's environment"}, func(_ context.Context, _ *mcp.CallToolRequest, a echoArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text + "=" + os.Getenv(a.Text)}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "run.cmd", Description: "Run"}, func(_ context.Context, _ *mcp.CallToolRequest, a struct {
		Command string `json:"command"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran " + a.Command}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, fmt.Errorf("it broke")
	})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Sleeps"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "mixed", Description: "Image and structured"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: []byte("12345")}}, StructuredContent: map[string]any{"n": 1}}, nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review a file", Arguments: []*mcp.PromptArgument{{Name: "file", Required: true}}}, func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Please review " + r.Params.Arguments["file"]}}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "test://readme", Name: "readme", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://readme", MIMEType: "text/plain", Text: "read me"}}}, nil
	})
	return s
}

type recorder struct {
	mu   sync.Mutex
	errs []string
}

func (r *recorder) onError(server string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, server+": "+err.Error())
}

// inMemory starts testServer for each name over in-memory transports.
func inMemory(t *testing.T, c *Client, names ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	c.transports = map[string]mcp.Transport{}
	for _, n := range names {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := testServer().Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); ss.Wait() }()
		c.transports[n] = ct
	}
	t.Cleanup(func() {
		c.Close()
		cancel()
		wg.Wait()
	})
}

func call(t *testing.T, tl tool.Tool, args any) (*policy.Decision, *tool.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	raw, _ := json.Marshal(args)
	c := &tool.Call{Name: tl.Spec().Name, Args: raw}
	inv, err := tl.Review(ctx, c, tool.At{Cwd: "/"})
	if err != nil {
		t.Fatalf("review %s: %v", c.Name, err)
	}
	d := inv.Decision
	res, err := inv.Run(ctx)
	if err != nil {
		t.Fatalf("run %s: %v", c.Name, err)
	}
	return d, res
}

func byName(tools []tool.Tool) map[string]tool.Tool {
	m := map[string]tool.Tool{}
	for _, t := range tools {
		m[t.Spec().Name] = t
	}
	return m
}

func TestInMemoryToolsPromptsResources(t *testing.T) {
	rec := &recorder{}
	servers := map[string]config.MCPServer{
		"os": {Command: "unused", AlwaysAllow: []string{"echo"}, ApprovalHints: map[string]config.ApprovalHint{
			"run.cmd": {DisplayArgs: []string{"command"}, Truncate: 20, WarnPatterns: []string{"sudo ", "rm "}},
		}},
		"down": {Command: "/nonexistent/mcp-server"},
	}
	c := New(servers, Options{Policy: tooltest.Engine(t, nil), OnError: rec.onError, CallTimeout: 300 * time.Millisecond})
	inMemory(t, c, "os")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	if len(rec.errs) != 1 || !strings.HasPrefix(rec.errs[0], "down: ") || strings.Contains(rec.errs[0], "\n") {
		t.Fatalf("start errors: %q", rec.errs)
	}
	tools := byName(c.Tools())
	var names []string
	for n := range tools {
		names = append(names, n)
	}
	for _, want := range []string{"os_echo", "os_run_cmd", "os_fail", "os_slow", "os_mixed", "mcp_list_resources", "mcp_read_resource"} {
		if tools[want] == nil {
			t.Fatalf("missing %s in %v", want, names)
		}
	}
	var schema map[string]any
	json.Unmarshal(tools["os_echo"].Spec().Schema, &schema)
	if schema["type"] != "object" || schema["properties"].(map[string]any)["text"] == nil {
		t.Fatalf("schema: %s", tools["os_echo"].Spec().Schema)
	}

	d, res := call(t, tools["os_echo"], map[string]any{"text": "hi"})
	if d.Decision != policy.Allow || res.Content != "echo: hi" || res.IsError {
		t.Fatalf("echo: %+v %+v", d, res)
	}
	d, res = call(t, tools["os_run_cmd"], map[string]any{"command": "yarn cache clean && yarn install"})
	if d.Decision != policy.Ask || d.Display != "os_run_cmd: yarn cache clean && …" || d.Warn || d.DefaultAnswer != "yes" {
		t.Fatalf("run_cmd decision: %+v", d)
	}
	if res.Content != "ran yarn cache clean && yarn install" {
		t.Fatalf("run_cmd: %+v", res)
	}
	d, _ = call(t, tools["os_run_cmd"], map[string]any{"command": "sudo rm -rf /tmp/cache"})
	if !d.Warn || d.DefaultAnswer != "no" || d.OfferAlways || approval.DisplayLine(d) != "os_run_cmd ⚠️: sudo rm -rf /tmp/cac…" {
		t.Fatalf("warned decision: %+v", d)
	}
	_, res = call(t, tools["os_fail"], map[string]any{})
	if !res.IsError || !strings.Contains(res.Content, "it broke") {
		t.Fatalf("fail: %+v", res)
	}
	_, res = call(t, tools["os_slow"], map[string]any{})
	if !res.IsError || !strings.Contains(res.Content, "timed out after 300ms") || res.Note != "timed out" {
		t.Fatalf("slow: %+v", res)
	}
	_, res = call(t, tools["os_mixed"], map[string]any{})
	if res.Content != `{"n":1}` {
		t.Fatalf("mixed: %q", res.Content)
	}
	_, res = call(t, tools["mcp_list_resources"], map[string]any{})
	if !strings.Contains(res.Content, "os\ttest://readme\treadme") {
		t.Fatalf("resources: %q", res.Content)
	}
	d, res = call(t, tools["mcp_read_resource"], map[string]any{"server": "os", "uri": "test://readme"})
	if res.Content != "read me" || d.Display != "os_read_resource: test://readme" {
		t.Fatalf("read resource: %+v %+v", d, res)
	}

	prompts, err := c.Prompts(ctx)
	if err != nil || len(prompts) != 1 || prompts[0].Name != "os_review" || !prompts[0].Arguments[0].Required {
		t.Fatalf("prompts: %+v %v", prompts, err)
	}
	msgs, err := c.GetPrompt(ctx, "os_review", map[string]string{"file": "main.go"})
	if err != nil || len(msgs) != 1 || msgs[0].Text != "Please review main.go" || msgs[0].Role != "user" {
		t.Fatalf("get prompt: %+v %v", msgs, err)
	}
	if _, err := c.GetPrompt(ctx, "os_nothing", nil); err == nil || !strings.Contains(err.Error(), "/prompts") {
		t.Fatalf("unknown prompt: %v", err)
	}
	st := c.Status()
	if len(st) != 2 || st[0].Name != "down" || st[0].Connected || !st[1].Connected {
		t.Fatalf("status: %+v", st)
	}
}

// With nb's policy engine as the decider: seed 001's prompt lines.
func TestWithPolicyEngine(t *testing.T) {
	engine, err := policy.New(policy.Options{Approval: config.Default().Approval, Approve: []string{"os_fail"}})
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]config.MCPServer{"os": {Command: "unused", ApprovalHints: map[string]config.ApprovalHint{
		"run.cmd": {DisplayArgs: []string{"command"}, Truncate: 60, WarnPatterns: []string{"sudo ", "rm "}},
	}}}
	c := New(servers, Options{Policy: engine})
	inMemory(t, c, "os")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	tools := byName(c.Tools())
	d, _ := call(t, tools["os_run_cmd"], map[string]any{"command": "yarn cache clean && yarn install"})
	if d.Decision != policy.Ask || d.Display != "os_run_cmd: yarn cache clean && yarn install" || d.DefaultAnswer != "yes" || !d.OfferAlways {
		t.Fatalf("plain: %+v", d)
	}
	d, _ = call(t, tools["os_run_cmd"], map[string]any{"command": "sudo rm -rf /tmp/cache"})
	if !d.Warn || d.DefaultAnswer != "no" || d.OfferAlways || !strings.Contains(approval.DisplayLine(d), "⚠️") {
		t.Fatalf("warned: %+v", d)
	}
	d, _ = call(t, tools["os_fail"], map[string]any{})
	if d.Decision != policy.Allow {
		t.Fatalf("--approve os_fail: %+v", d)
	}
	d, _ = call(t, tools["os_echo"], map[string]any{"text": "x"})
	if d.Decision != policy.Ask || d.Display != `os_echo: {"text":"x"}` {
		t.Fatalf("no hints: %+v", d)
	}
}

func TestToolName(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"os", "run_cmd"}:           "os_run_cmd",
		{"my server", "do.thing/x"}: "my_server_do_thing_x",
		{"é", "ü"}:                  "___",
	} {
		if got := ToolName(in[0], in[1]); got != want {
			t.Errorf("ToolName%v = %q, want %q", in, got, want)
		}
	}
	long := ToolName(strings.Repeat("s", 40), strings.Repeat("t", 40))
	long2 := ToolName(strings.Repeat("s", 40), strings.Repeat("t", 39)+"u")
	if len(long) != 64 || long == long2 {
		t.Errorf("long names: %q %q", long, long2)
	}
}

// A real child process over stdio: the test binary itself.
func TestStdioServer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := New(map[string]config.MCPServer{"kid": {Command: exe, Env: map[string]string{"NB_MCPCLIENT_TEST_SERVER": "1"}}}, Options{Policy: tooltest.Engine(t, nil)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	defer c.Close()
	tools := byName(c.Tools())
	if tools["kid_echo"] == nil {
		t.Fatalf("no tools: %+v", c.Status())
	}
	_, res := call(t, tools["kid_echo"], map[string]any{"text": "over stdio"})
	if res.Content != "echo: over stdio" {
		t.Fatalf("echo: %+v", res)
	}
	s, _ := c.session("kid")
	pid := s.cmd.Process.Pid
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if s.cmd.ProcessState == nil {
		t.Fatalf("server process %d not reaped after Close", pid)
	}
}

// A stdio server gets nb's environment without the providers' keys
// (nb's own and the configured apiKeyEnv); its other variables, secret
// or not, and what the server's own env entry sets, reach it.
func TestStdioServerEnvironment(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-canary")
	t.Setenv("ANTHROPIC_API_KEY", "ak-canary")
	t.Setenv("WORK_LLM", "work-canary")
	t.Setenv("GITHUB_TOKEN", "gh-kept")
	servers := map[string]config.MCPServer{"kid": {Command: exe, Env: map[string]string{
		"NB_MCPCLIENT_TEST_SERVER": "1", "ANTHROPIC_API_KEY": "given"}}}
	c := New(servers, Options{Policy: tooltest.Engine(t, nil), KeyEnv: []string{"work_llm"}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	defer c.Close()
	tool := byName(c.Tools())["kid_getenv"]
	if tool == nil {
		t.Fatalf("no tools: %+v", c.Status())
	}
	for name, want := range map[string]string{"OPENAI_API_KEY": "", "WORK_LLM": "", "GITHUB_TOKEN": "gh-kept", "ANTHROPIC_API_KEY": "given"} {
		if _, res := call(t, tool, map[string]any{"text": name}); res.Content != name+"="+want {
			t.Errorf("server sees %q, want %s=%s", res.Content, name, want)
		}
	}
}

func TestStreamableHTTP(t *testing.T) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil)
	ts := httptest.NewServer(h)
	defer ts.Close()
	c := New(map[string]config.MCPServer{"web": {Type: "http", URL: ts.URL, Headers: map[string]string{"X-Test": "1"}}}, Options{Policy: tooltest.Engine(t, nil)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	defer c.Close()
	tools := byName(c.Tools())
	if tools["web_echo"] == nil {
		t.Fatalf("no tools: %+v", c.Status())
	}
	_, res := call(t, tools["web_echo"], map[string]any{"text": "over http"})
	if res.Content != "echo: over http" {
		t.Fatalf("echo: %+v", res)
	}
	c.Close()
	ts.CloseClientConnections()
}

func TestStartFailuresAreIndependent(t *testing.T) {
	rec := &recorder{}
	c := New(map[string]config.MCPServer{
		"nothere": {Command: "/nonexistent/x"},
		"badhttp": {URL: "http://127.0.0.1:1/mcp"},
		"exits":   {Command: "/bin/sh", Args: []string{"-c", "exit 3"}},
		"off":     {Command: "/nonexistent/y", Disabled: true},
	}, Options{Policy: tooltest.Engine(t, nil), OnError: rec.onError, StartTimeout: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c.Start(ctx)
	defer c.Close()
	if len(rec.errs) != 3 {
		t.Fatalf("errors: %q", rec.errs)
	}
	for _, e := range rec.errs {
		if strings.Contains(e, "\n") {
			t.Errorf("multi-line error: %q", e)
		}
	}
	if len(c.Tools()) != 0 {
		t.Fatal("tools from failed servers")
	}
}

var update = flag.Bool("update", false, "rewrite golden files")

func TestSpecsGolden(t *testing.T) {
	var specs []any
	for _, tl := range []tool.Tool{&listResources{}, &readResource{}} {
		s := tl.Spec()
		var schema any
		if err := json.Unmarshal(s.Schema, &schema); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, map[string]any{"name": s.Name, "description": s.Description, "schema": schema})
	}
	got, _ := json.MarshalIndent(specs, "", "  ")
	golden := filepath.Join("testdata", "specs.golden.json")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(want)) != string(got) {
		t.Fatalf("tool specs changed; run go test -update if intended\n%s", got)
	}
}
