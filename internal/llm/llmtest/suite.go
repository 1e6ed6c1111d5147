package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// SuiteOptions adapts the conformance suite to a wire format.
type SuiteOptions struct {
	// Model is the model the provider is expected to send ("" skips).
	Model string
}

// NewServerFunc starts a fake server for a test.
type NewServerFunc func(t testing.TB, turns ...Turn) *Server

// NewProviderFunc builds the provider under test, pointed at s. client
// should be used as the provider's HTTP client.
type NewProviderFunc func(t testing.TB, s *Server, client *http.Client) llm.Provider

// TestClient returns an HTTP client without keep-alives, so that no
// connection goroutine outlives the test.
func TestClient(t testing.TB) *http.Client {
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []llm.Event
	first  chan struct{}
	once   sync.Once
}

func newRecorder() *recorder { return &recorder{first: make(chan struct{})} }

func (r *recorder) on(ev llm.Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	r.once.Do(func() { close(r.first) })
}

func (r *recorder) of(typ llm.EventType) []llm.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []llm.Event
	for _, e := range r.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func (r *recorder) text() string {
	var b strings.Builder
	for _, e := range r.of(llm.EventText) {
		b.WriteString(e.Text)
	}
	return b.String()
}

var runCmd = llm.ToolSpec{
	Name:        "run_cmd",
	Description: "Run a shell command.",
	Schema:      []byte(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`),
}

// testPNG is a 1x1 PNG.
var testPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func singleLine(t testing.TB, err error) {
	t.Helper()
	if strings.ContainsAny(err.Error(), "\r\n") {
		t.Errorf("error is not one line: %q", err.Error())
	}
}

func wantKind(t testing.TB, err error, kind llm.ErrorKind, status int) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *llm.Error", err, err)
	}
	if e.Kind != kind {
		t.Errorf("kind = %d, want %d (error %q)", e.Kind, kind, err)
	}
	if status != 0 && e.Status != status {
		t.Errorf("status = %d, want %d", e.Status, status)
	}
	singleLine(t, err)
	return e
}

// RunProviderSuite checks that a provider streams text and tool calls, sends
// images and tool results correctly, and maps failures to *llm.Error, all
// through the fake server for its wire format.
func RunProviderSuite(t *testing.T, newServer NewServerFunc, newProvider NewProviderFunc, opts SuiteOptions) {
	t.Run("StreamsTextInOrder", func(t *testing.T) {
		const answer = "Hello! The disk is 42% full, nothing to worry about."
		s := newServer(t, Turn{Text: answer, Expect: Expect{LastUser: "how full", System: "be brief", Model: opts.Model}})
		p := newProvider(t, s, TestClient(t))
		rec := newRecorder()
		resp, err := p.Stream(ctxFor(t), &llm.Request{
			System:   "You are nb; be brief.",
			Messages: []llm.Message{{Role: llm.RoleUser, Text: "how full is the disk?"}},
		}, rec.on)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(rec.of(llm.EventText)); n < 2 {
			t.Errorf("got %d text events, want the answer in several chunks", n)
		}
		if got := rec.text(); got != answer {
			t.Errorf("streamed text = %q, want %q", got, answer)
		}
		if resp.Message.Text != answer || resp.Message.Role != llm.RoleAssistant {
			t.Errorf("response message = %+v", resp.Message)
		}
		if resp.StopReason != llm.StopEnd {
			t.Errorf("stop reason = %q, want %q", resp.StopReason, llm.StopEnd)
		}
		if len(resp.Message.ToolCalls) != 0 {
			t.Errorf("unexpected tool calls %+v", resp.Message.ToolCalls)
		}
		if got := s.Requests()[0].Tokens; got == 0 || resp.Usage.InputTokens != got || resp.Usage.OutputTokens != CountTokens(answer) {
			t.Errorf("usage = %+v, want the server's %d in / %d out", resp.Usage, got, CountTokens(answer))
		}
	})

	t.Run("ToolCallRoundTrip", func(t *testing.T) {
		s := newServer(t,
			Turn{ToolCalls: []ToolCall{{ID: "call_a1", Name: "run_cmd", Arguments: `{"command":"ls -la /etc"}`}}, Expect: Expect{Tools: []string{"run_cmd"}}},
			Turn{Text: "There is a README.", Expect: Expect{ToolResult: "README.md"}},
		)
		p := newProvider(t, s, TestClient(t))
		ctx := ctxFor(t)
		req := &llm.Request{
			Messages: []llm.Message{{Role: llm.RoleUser, Text: "what is here?"}},
			Tools:    []llm.ToolSpec{runCmd},
		}
		rec := newRecorder()
		resp, err := p.Stream(ctx, req, rec.on)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Message.ToolCalls) != 1 {
			t.Fatalf("tool calls = %+v, want one", resp.Message.ToolCalls)
		}
		call := resp.Message.ToolCalls[0]
		if call.Name != "run_cmd" || call.ID == "" || !jsonEqual(call.Arguments, `{"command":"ls -la /etc"}`) {
			t.Errorf("tool call = %+v", call)
		}
		if resp.StopReason != llm.StopToolUse {
			t.Errorf("stop reason = %q, want %q", resp.StopReason, llm.StopToolUse)
		}
		starts := rec.of(llm.EventToolCallStart)
		if len(starts) != 1 || starts[0].ToolCall.Name != "run_cmd" || starts[0].Index != 0 {
			t.Errorf("tool call start events = %+v", starts)
		}
		var args strings.Builder
		for _, d := range rec.of(llm.EventToolCallDelta) {
			if d.Index != 0 {
				t.Errorf("delta for index %d", d.Index)
			}
			args.WriteString(d.Text)
		}
		if args.String() != call.Arguments {
			t.Errorf("argument deltas %q do not add up to %q", args.String(), call.Arguments)
		}

		req.Messages = append(req.Messages, resp.Message,
			llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: call.Name, Text: "README.md\nmain.go"})
		resp, err = p.Stream(ctx, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Text != "There is a README." {
			t.Errorf("final answer = %q", resp.Message.Text)
		}
		reqs := s.Requests()
		if len(reqs) != 2 {
			t.Fatalf("server saw %d requests", len(reqs))
		}
		var sent *Message
		for i := range reqs[1].Messages {
			if m := &reqs[1].Messages[i]; m.Role == "assistant" {
				sent = m
			}
		}
		if sent == nil || len(sent.ToolCalls) != 1 || !jsonEqual(sent.ToolCalls[0].Arguments, call.Arguments) {
			t.Errorf("assistant tool call not sent back: %+v", reqs[1].Messages)
		}
	})

	t.Run("SeveralToolCallsInOneTurn", func(t *testing.T) {
		s := newServer(t,
			Turn{Text: "Let me look.", ToolCalls: []ToolCall{
				{ID: "call_1", Name: "run_cmd", Arguments: `{"command":"uptime"}`},
				{ID: "call_2", Name: "run_cmd", Arguments: `{"command":"df -h"}`},
			}},
			Turn{Text: "All fine.", Expect: Expect{ToolResult: "load average"}},
		)
		p := newProvider(t, s, TestClient(t))
		ctx := ctxFor(t)
		req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "check the box"}}, Tools: []llm.ToolSpec{runCmd}}
		rec := newRecorder()
		resp, err := p.Stream(ctx, req, rec.on)
		if err != nil {
			t.Fatal(err)
		}
		calls := resp.Message.ToolCalls
		if len(calls) != 2 || !jsonEqual(calls[0].Arguments, `{"command":"uptime"}`) || !jsonEqual(calls[1].Arguments, `{"command":"df -h"}`) {
			t.Fatalf("tool calls = %+v", calls)
		}
		if calls[0].ID == calls[1].ID {
			t.Errorf("tool calls share id %q", calls[0].ID)
		}
		if resp.Message.Text != "Let me look." {
			t.Errorf("text = %q", resp.Message.Text)
		}
		per := map[int]string{}
		for _, d := range rec.of(llm.EventToolCallDelta) {
			per[d.Index] += d.Text
		}
		if per[0] != calls[0].Arguments || per[1] != calls[1].Arguments {
			t.Errorf("deltas by index = %v", per)
		}
		req.Messages = append(req.Messages, resp.Message,
			llm.Message{Role: llm.RoleTool, ToolCallID: calls[0].ID, ToolName: "run_cmd", Text: "up 3 days, load average: 0.1"},
			llm.Message{Role: llm.RoleTool, ToolCallID: calls[1].ID, ToolName: "run_cmd", Text: "/dev/sda1 42%", IsError: false},
		)
		if _, err := p.Stream(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
		reqs := s.Requests()
		if got := len(reqs[len(reqs)-1].LastToolResults()); got != 2 {
			t.Errorf("server received %d tool results, want 2", got)
		}
	})

	t.Run("MalformedArgumentsVerbatim", func(t *testing.T) {
		const bad = `{"command": "ls -la`
		s := newServer(t,
			Turn{ToolCalls: []ToolCall{{ID: "call_x", Name: "run_cmd", Arguments: bad}}},
			Turn{Text: "Sorry, fixed.", Expect: Expect{ToolResult: "invalid JSON"}},
		)
		p := newProvider(t, s, TestClient(t))
		ctx := ctxFor(t)
		req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "list"}}, Tools: []llm.ToolSpec{runCmd}}
		resp, err := p.Stream(ctx, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].Arguments != bad {
			t.Fatalf("tool calls = %+v, want arguments %q verbatim", resp.Message.ToolCalls, bad)
		}
		call := resp.Message.ToolCalls[0]
		req.Messages = append(req.Messages, resp.Message,
			llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: call.Name, Text: "arguments are invalid JSON: unexpected end", IsError: true})
		if _, err := p.Stream(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("SendsImages", func(t *testing.T) {
		s := newServer(t, Turn{Text: "A tiny picture.", Expect: Expect{Images: 1, LastUser: "what is this"}})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), &llm.Request{Messages: []llm.Message{{
			Role: llm.RoleUser, Text: "what is this?", Images: []llm.Image{{MediaType: "image/png", Data: testPNG}},
		}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		reqs := s.Requests()
		if len(reqs) != 1 || len(reqs[0].Messages) == 0 {
			t.Fatalf("requests = %+v", reqs)
		}
		imgs := reqs[0].Messages[len(reqs[0].Messages)-1].Images
		if len(imgs) != 1 || imgs[0].MediaType != "image/png" || !bytes.Equal(imgs[0].Data, testPNG) {
			t.Errorf("server received images %+v", imgs)
		}
	})

	userReq := func() *llm.Request {
		return &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}
	}

	t.Run("AuthErrorOneLine", func(t *testing.T) {
		s := newServer(t, Turn{Status: 401, Message: "Incorrect API key provided: sk-abc***.\nYou can find your API key at https://example.com."})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), userReq(), nil)
		e := wantKind(t, err, llm.ErrAuth, 401)
		if !strings.Contains(e.Message, "Incorrect API key provided") {
			t.Errorf("message %q lacks the provider's explanation", e.Message)
		}
		if llm.Retryable(err) {
			t.Error("auth errors must not be retryable")
		}
	})

	t.Run("RateLimitRetried", func(t *testing.T) {
		s := newServer(t,
			Turn{Status: 429, Message: "Rate limit reached for requests", RetryAfter: "3"},
			Turn{Text: "ok then"},
		)
		var slept []time.Duration
		p := llm.WithRetry(newProvider(t, s, TestClient(t)), 4, func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			return ctx.Err()
		})
		rec := newRecorder()
		resp, err := p.Stream(ctxFor(t), userReq(), rec.on)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Text != "ok then" {
			t.Errorf("text = %q", resp.Message.Text)
		}
		if len(slept) != 1 || slept[0] != 3*time.Second {
			t.Errorf("slept %v, want [3s] from Retry-After", slept)
		}
		retries := rec.of(llm.EventRetry)
		if len(retries) != 1 || !strings.Contains(retries[0].Text, "rate limited; retrying in 3s") {
			t.Errorf("retry events = %+v", retries)
		}
		if len(retries) == 1 {
			wantKind(t, retries[0].Err, llm.ErrRateLimit, 429)
		}
	})

	t.Run("ServerError", func(t *testing.T) {
		s := newServer(t, Turn{Status: 500, Message: "The server had an error while processing your request."})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), userReq(), nil)
		e := wantKind(t, err, llm.ErrServer, 500)
		if !strings.Contains(e.Message, "server had an error") {
			t.Errorf("message = %q", e.Message)
		}
		if !llm.Retryable(err) {
			t.Error("server errors must be retryable")
		}
	})

	t.Run("HTMLErrorBodyNotShown", func(t *testing.T) {
		s := newServer(t, Turn{Status: 502, Body: "<html><body><h1>502 Bad Gateway</h1>\n</body></html>"})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), userReq(), nil)
		wantKind(t, err, llm.ErrServer, 502)
		if strings.Contains(err.Error(), "<html>") {
			t.Errorf("error shows the raw body: %q", err)
		}
	})

	t.Run("OverWindowIsContextSize", func(t *testing.T) {
		s := newServer(t, Turn{Text: "unused"})
		s.SetWindow(50)
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: strings.Repeat("long ", 100)}}}, nil)
		wantKind(t, err, llm.ErrContextSize, 400)
		if u := s.Usage(); u.Overflows != 1 {
			t.Errorf("server usage %+v, want one overflow", u)
		}
		// The turn stays for a request that fits.
		if _, err := p.Stream(ctxFor(t), userReq(), nil); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("FactsAfterTheCachedPrefix", func(t *testing.T) {
		s := newServer(t, Turn{Text: "one"}, Turn{Text: "two"})
		p := newProvider(t, s, TestClient(t))
		long := strings.Repeat("a stable system prompt. ", 200)
		msgs := []llm.Message{{Role: llm.RoleUser, Text: "first question"}}
		req := &llm.Request{System: long, Messages: msgs, Facts: "Working directory: /one"}
		if _, err := p.Stream(ctxFor(t), req, nil); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: "one"}, llm.Message{Role: llm.RoleUser, Text: "second question"})
		resp, err := p.Stream(ctxFor(t), &llm.Request{System: long, Messages: msgs, Facts: "Working directory: /two"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		reqs := s.Requests()
		if !strings.Contains(string(reqs[1].Raw), "Working directory: /two") || strings.Contains(string(reqs[1].Raw), "/one") {
			t.Errorf("second request does not carry only the current facts: %s", reqs[1].Raw)
		}
		if strings.Contains(reqs[1].System, "Working directory") {
			t.Errorf("facts in the system prompt: %q", reqs[1].System)
		}
		// The system prompt and the first exchange come from cache.
		if min := CountTokens(long); reqs[1].Cached < min || resp.Usage.CachedInputTokens != reqs[1].Cached {
			t.Errorf("second request: %d tokens cached (usage says %d), want at least the system prompt's %d", reqs[1].Cached, resp.Usage.CachedInputTokens, min)
		}
	})

	t.Run("ContextTooLong", func(t *testing.T) {
		s := newServer(t, Turn{Status: 400, Message: "prompt is too long: 210000 tokens > 200000 maximum context length"})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), userReq(), nil)
		wantKind(t, err, llm.ErrContextSize, 400)
	})

	t.Run("BadRequest", func(t *testing.T) {
		s := newServer(t, Turn{Status: 404, Message: "The model `gpt-9` does not exist"})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), userReq(), nil)
		wantKind(t, err, llm.ErrBadRequest, 404)
	})

	t.Run("ErrorEventMidStream", func(t *testing.T) {
		s := newServer(t, Turn{Chunks: []string{"Partial "}, StreamError: "Overloaded, try later"})
		var slept int
		p := llm.WithRetry(newProvider(t, s, TestClient(t)), 4, func(ctx context.Context, d time.Duration) error {
			slept++
			return nil
		})
		rec := newRecorder()
		_, err := p.Stream(ctxFor(t), userReq(), rec.on)
		e := wantKind(t, err, llm.ErrServer, 0)
		if !strings.Contains(e.Message, "Overloaded, try later") {
			t.Errorf("message = %q", e.Message)
		}
		if rec.text() != "Partial " {
			t.Errorf("text = %q", rec.text())
		}
		if slept != 0 {
			t.Error("a failure after streamed text was retried")
		}
	})

	t.Run("TruncatedStream", func(t *testing.T) {
		s := newServer(t, Turn{Chunks: []string{"Half an ans"}, Truncate: true})
		p := newProvider(t, s, TestClient(t))
		_, err := p.Stream(ctxFor(t), userReq(), nil)
		wantKind(t, err, llm.ErrNetwork, 0)
	})

	t.Run("ConnectionRefused", func(t *testing.T) {
		s, err := Start(serverKind(t, newServer), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		p := newProvider(t, s, TestClient(t))
		_, err = p.Stream(ctxFor(t), userReq(), nil)
		wantKind(t, err, llm.ErrNetwork, 0)
		if !llm.Retryable(err) {
			t.Error("network errors must be retryable")
		}
	})

	t.Run("CancelMidStream", func(t *testing.T) {
		s := newServer(t, Turn{Chunks: []string{"Working on it"}, Hang: true})
		p := newProvider(t, s, TestClient(t))
		ctx, cancel := context.WithCancel(ctxFor(t))
		defer cancel()
		rec := newRecorder()
		go func() {
			<-rec.first
			cancel()
		}()
		done := make(chan error, 1)
		go func() {
			_, err := p.Stream(ctx, userReq(), rec.on)
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("Stream did not return after its context was cancelled")
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want context.Canceled", err)
		}
		if got := rec.text(); got != "Working on it" {
			t.Errorf("text before cancel = %q", got)
		}
	})
}

// serverKind learns the kind of server newServer makes.
func serverKind(t *testing.T, newServer NewServerFunc) string {
	s := newServer(&kindProbe{TB: t})
	s.Close()
	return s.kind
}

// kindProbe is a testing.TB whose cleanups run at once, for a throwaway
// server.
type kindProbe struct{ testing.TB }

func (k *kindProbe) Cleanup(f func()) { f() }

func jsonEqual(a, b string) bool {
	na, nb := normJSON(a), normJSON(b)
	return na != "" && na == nb
}

func normJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
