package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/files"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildPath != "" {
		os.RemoveAll(filepath.Dir(buildPath))
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// fakeTool decides with a fixed verdict and counts runs.
type fakeTool struct {
	name    string
	verdict policy.Verdict
	warn    bool
	runs    atomic.Int32
}

func (f *fakeTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: f.name, Description: "fake " + f.name, Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)}
}

func (f *fakeTool) Review(_ context.Context, c *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a struct{ Command string }
	if err := tool.DecodeArgs(c.Args, &a); err != nil {
		return nil, err
	}
	if a.Command == "" {
		return nil, errString("command is required")
	}
	d := &policy.Decision{Decision: f.verdict, Safety: policy.Unknown, Display: "run: " + a.Command, Warn: f.warn, DefaultAnswer: "yes", OfferAlways: !f.warn, Reasons: []string{"fake reason"}, Full: a.Command, Rule: a.Command}
	if f.warn {
		d.WarnAt = []int{len("run")}
	}
	if f.warn {
		d.DefaultAnswer = "no"
	}
	return tool.Stays(at, d, func(context.Context) (*tool.Result, error) {
		f.runs.Add(1)
		return &tool.Result{Content: "ran " + a.Command}, nil
	}), nil
}

type errString string

func (e errString) Error() string { return string(e) }

type closeCounter struct{ n atomic.Int32 }

func (c *closeCounter) Close() error { c.n.Add(1); return nil }

type harness struct {
	srv              *Server
	allow, deny, ask *fakeTool
	closed           *closeCounter
	root             string
	wd               *tool.Workdir
	done             chan error
	cancel           context.CancelFunc
}

func newHarness(t *testing.T, trust bool) *harness {
	t.Helper()
	h := &harness{
		allow:  &fakeTool{name: "fake_allow", verdict: policy.Allow},
		deny:   &fakeTool{name: "fake_deny", verdict: policy.Deny},
		ask:    &fakeTool{name: "fake_ask", verdict: policy.Ask, warn: true},
		closed: &closeCounter{},
		root:   t.TempDir(),
	}
	roots, err := files.NewRoots(h.root)
	if err != nil {
		t.Fatal(err)
	}
	wd := tool.NewWorkdir(roots.Dirs()[0])
	h.wd = wd
	eng := tooltest.Engine(t, nil)
	tools := []tool.Tool{h.allow, h.deny, h.ask, &ContextTool{Workdir: wd, Roots: roots.Dirs(), Policy: eng}}
	tools = append(tools, files.New(files.Options{Roots: roots, Policy: eng})...)
	h.srv, err = New(Options{Tools: tools, Cwd: wd.Cwd, TrustClientApproval: trust, Closers: []io.Closer{h.closed}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// connect serves h over an in-memory transport and returns a client session.
func (h *harness) connect(t *testing.T, copts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	h.cancel = cancel
	st, ct := mcp.NewInMemoryTransports()
	h.done = make(chan error, 1)
	srvCtx, srvCancel := context.WithCancel(ctx)
	var once sync.Once
	go func() { h.done <- h.srv.Serve(srvCtx, st) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, ct, so)
	if err != nil {
		srvCancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		once.Do(func() {
			cs.Close()
			select {
			case <-h.done:
			case <-time.After(5 * time.Second):
				t.Error("server did not stop after the client disconnected")
			}
			srvCancel()
			cancel()
		})
	})
	return cs
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

var versions = []string{"", "2025-06-18"}

func TestListAndCall(t *testing.T) {
	for _, v := range versions {
		t.Run("v"+v, func(t *testing.T) {
			h := newHarness(t, false)
			cs := h.connect(t, nil, v)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			lt, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range lt.Tools {
				names = append(names, tl.Name)
			}
			want := "edit_file fake_allow fake_ask fake_deny get_context list_dir path_info read_file write_file"
			if strings.Join(names, " ") != want {
				t.Fatalf("tools %v, want %s", names, want)
			}
			out, isErr := callText(t, cs, "fake_allow", map[string]any{"command": "ls"})
			if isErr || out != "ran ls" {
				t.Fatalf("allow: %q %v", out, isErr)
			}
			out, isErr = callText(t, cs, "fake_deny", map[string]any{"command": "rm -rf /"})
			if !isErr || !strings.Contains(out, "denied by policy") || !strings.Contains(out, "Remedy") || h.deny.runs.Load() != 0 {
				t.Fatalf("deny: %q %v runs=%d", out, isErr, h.deny.runs.Load())
			}
			out, isErr = callText(t, cs, "fake_ask", map[string]any{"command": "git push"})
			if !isErr || !strings.Contains(out, "cannot ask") || !strings.Contains(out, "--approve 'git push'") || h.ask.runs.Load() != 0 {
				t.Fatalf("ask without elicitation: %q %v runs=%d", out, isErr, h.ask.runs.Load())
			}
			out, isErr = callText(t, cs, "fake_allow", map[string]any{})
			if !isErr || !strings.Contains(out, "command is required") {
				t.Fatalf("bad args: %q %v", out, isErr)
			}
			out, isErr = callText(t, cs, "get_context", nil)
			var c Context
			if isErr || json.Unmarshal([]byte(out), &c) != nil || c.Cwd == "" || len(c.Roots) != 1 {
				t.Fatalf("get_context: %q", out)
			}
			_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}})
			if err == nil || !strings.Contains(err.Error(), "unknown tool") {
				t.Fatalf("unknown tool: %v", err)
			}
		})
	}
}

func TestElicitation(t *testing.T) {
	for _, v := range versions {
		for _, answer := range []string{"approve", "refuse", "decline"} {
			t.Run(answer+"/v"+v, func(t *testing.T) {
				h := newHarness(t, false)
				var asked []string
				var mu sync.Mutex
				cs := h.connect(t, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					mu.Lock()
					asked = append(asked, r.Params.Message)
					mu.Unlock()
					switch answer {
					case "approve":
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
					case "refuse":
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}, nil
					}
					return &mcp.ElicitResult{Action: "decline"}, nil
				}}, v)
				out, isErr := callText(t, cs, "fake_ask", map[string]any{"command": "git push"})
				mu.Lock()
				defer mu.Unlock()
				if len(asked) != 1 || !strings.Contains(asked[0], "fake_ask: run ⚠️: git push") {
					t.Fatalf("elicitation messages: %q", asked)
				}
				if answer == "approve" {
					if isErr || out != "ran git push" || h.ask.runs.Load() != 1 {
						t.Fatalf("approved: %q %v runs=%d", out, isErr, h.ask.runs.Load())
					}
					return
				}
				if !isErr || !strings.Contains(out, "did not approve") || h.ask.runs.Load() != 0 {
					t.Fatalf("refused: %q %v runs=%d", out, isErr, h.ask.runs.Load())
				}
			})
		}
	}
}

func TestWriteFileApprovalShowsPath(t *testing.T) {
	h := newHarness(t, false)
	var msg string
	cs := h.connect(t, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		msg = r.Params.Message
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}}, "")
	out, isErr := callText(t, cs, "write_file", map[string]any{"path": "notes/a.txt", "content": "hi\n"})
	if isErr || !strings.HasPrefix(out, "created") {
		t.Fatalf("write: %q", out)
	}
	if !strings.Contains(msg, "write_file: write ⚠️: notes/a.txt") || !strings.Contains(msg, "hi\n") {
		t.Fatalf("prompt: %q", msg)
	}
	b, err := os.ReadFile(filepath.Join(h.root, "notes/a.txt"))
	if err != nil || string(b) != "hi\n" {
		t.Fatalf("file: %q %v", b, err)
	}
	out, isErr = callText(t, cs, "read_file", map[string]any{"path": "../../etc/passwd"})
	if !isErr || !strings.Contains(out, "outside the allowed roots") {
		t.Fatalf("escape: %q", out)
	}
}

func TestTrustClientApproval(t *testing.T) {
	h := newHarness(t, true)
	cs := h.connect(t, nil, "")
	out, isErr := callText(t, cs, "fake_ask", map[string]any{"command": "make"})
	if isErr || out != "ran make" {
		t.Fatalf("trusted: %q %v", out, isErr)
	}
	out, isErr = callText(t, cs, "fake_deny", map[string]any{"command": "make"})
	if !isErr || h.deny.runs.Load() != 0 {
		t.Fatalf("deny must hold even when trusting the client: %q", out)
	}
}

// A forged or replayed approval must not run a different call.
func TestForgedApprovalRefused(t *testing.T) {
	h := newHarness(t, false)
	approved := map[string]any{"approve": true}
	cs := h.connect(t, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, errString("unused") },
	}, "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_ask", Arguments: map[string]any{"command": "ls"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.InputRequests == nil || res.RequestState == "" {
		t.Fatalf("expected an input request, got %+v", res)
	}
	// Replay the approval of "ls" for another command.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_ask", Arguments: map[string]any{"command": "rm -rf ~"},
		InputResponses: mcp.InputResponseMap{approvalID: &mcp.ElicitResult{Action: "accept", Content: approved}}, RequestState: res.RequestState})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || h.ask.runs.Load() != 0 {
		t.Fatalf("replayed approval ran the call: %+v", res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_ask", Arguments: map[string]any{"command": "rm -rf ~"},
		InputResponses: mcp.InputResponseMap{approvalID: &mcp.ElicitResult{Action: "accept", Content: approved}}, RequestState: "forged"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || h.ask.runs.Load() != 0 {
		t.Fatalf("forged approval ran the call: %+v", res)
	}
	// The approval of "ls" in one directory does not run it in another.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_ask", Arguments: map[string]any{"command": "ls"}})
	if err != nil || res.RequestState == "" {
		t.Fatalf("expected an input request: %+v %v", res, err)
	}
	state := res.RequestState
	h.wd.SetCwd(t.TempDir())
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fake_ask", Arguments: map[string]any{"command": "ls"},
		InputResponses: mcp.InputResponseMap{approvalID: &mcp.ElicitResult{Action: "accept", Content: approved}}, RequestState: state})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || h.ask.runs.Load() != 0 {
		t.Fatalf("an approval given for another directory ran the call: %+v", res)
	}
}

func TestCloseOnDisconnect(t *testing.T) {
	h := newHarness(t, false)
	cs := h.connect(t, nil, "")
	if _, isErr := callText(t, cs, "fake_allow", map[string]any{"command": "x"}); isErr {
		t.Fatal("call failed")
	}
	cs.Close()
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not notice the disconnect")
	}
	h.done <- nil // for the cleanup
	if h.closed.n.Load() != 1 {
		t.Fatalf("closers called %d times", h.closed.n.Load())
	}
}

func TestAlwaysGrant(t *testing.T) {
	ask := &fakeTool{name: "fake_ask", verdict: policy.Ask}
	var granted []string
	srv, err := New(Options{Tools: []tool.Tool{ask}, Grant: func(d *policy.Decision) error { granted = append(granted, d.Rule); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	var schema any
	cs := h.connect(t, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		schema = r.Params.RequestedSchema
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true, "always": true}}, nil
	}}, "")
	if out, isErr := callText(t, cs, "fake_ask", map[string]any{"command": "make test"}); isErr {
		t.Fatal(out)
	}
	if len(granted) != 1 || granted[0] != "make test" || !strings.Contains(toJSON(schema), "Always allow make test") {
		t.Fatalf("granted %q, schema %s", granted, toJSON(schema))
	}
}

// TestWarmAfterFirstRequest: the server starts what the first call would
// wait for (the secret detector) once it has answered the client's first
// request, once.
func TestWarmAfterFirstRequest(t *testing.T) {
	warmed := make(chan struct{}, 4)
	srv, err := New(Options{Tools: []tool.Tool{&fakeTool{name: "fake_allow", verdict: policy.Allow}}, Warm: func() { warmed <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, st) }()
	// serving, before any request: nothing is started yet, so that the
	// answer to initialize does not wait for it
	select {
	case <-warmed:
		t.Fatal("warmed before the first request")
	case <-time.After(200 * time.Millisecond):
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); <-done }()
	select {
	case <-warmed:
	case <-time.After(10 * time.Second):
		t.Fatal("the detector was not warmed after the first request")
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	callText(t, cs, "fake_allow", map[string]any{})
	select {
	case <-warmed:
		t.Fatal("warmed twice")
	case <-time.After(100 * time.Millisecond):
	}
}
