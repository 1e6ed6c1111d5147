package llmtest

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestLoadScript(t *testing.T) {
	turns, err := LoadScript([]byte(`[
		{"expect": {"lastUser": "hi", "system": "nb", "tools": ["run_cmd"], "toolResult": "x", "model": "m", "images": 1}, "text": "Hello!"},
		{"toolCalls": [{"name": "run_cmd", "arguments": "{\"command\":\"ls"}]},
		{"status": 429, "message": "slow", "retryAfter": "0"},
		{"chunks": ["a", "b"], "delayMs": 20, "hang": true, "stopReason": "length"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 4 {
		t.Fatalf("got %d turns", len(turns))
	}
	if e := turns[0].Expect; e.LastUser != "hi" || e.System != "nb" || e.Tools[0] != "run_cmd" || e.ToolResult != "x" || e.Model != "m" || e.Images != 1 || turns[0].Text != "Hello!" {
		t.Errorf("turn 1 = %+v", turns[0])
	}
	if c := turns[1].ToolCalls; len(c) != 1 || c[0].Arguments != `{"command":"ls` {
		t.Errorf("turn 2 = %+v", turns[1])
	}
	if turns[2].Status != 429 || turns[2].RetryAfter != "0" || turns[2].Message != "slow" {
		t.Errorf("turn 3 = %+v", turns[2])
	}
	if turns[3].Delay != 20*time.Millisecond || !turns[3].Hang || len(turns[3].Chunks) != 2 || turns[3].StopReason != "length" {
		t.Errorf("turn 4 = %+v", turns[3])
	}
}

func TestLoadScriptErrors(t *testing.T) {
	for _, in := range []string{
		`[{"txt": "typo"}]`,
		`[{"status": 500, "text": "both"}]`,
		`[{"status": 200}]`,
		`[{"toolCalls": [{"arguments": "{}"}]}]`,
		`{"text": "not a list"}`,
	} {
		if _, err := LoadScript([]byte(in)); err == nil {
			t.Errorf("LoadScript(%s) succeeded", in)
		}
	}
}

func TestSplit(t *testing.T) {
	if got := split("héllo wörld", 3); strings.Join(got, "") != "héllo wörld" || len(got) != 3 {
		t.Errorf("split = %q", got)
	}
	if got := split("ab", 3); len(got) != 2 {
		t.Errorf("split short = %q", got)
	}
	if split("", 3) != nil {
		t.Error("split empty")
	}
}

// collector gathers reported problems.
type collector struct {
	mu   sync.Mutex
	msgs []string
}

func (c *collector) fail(m string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, m)
}

func (c *collector) all() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.msgs, "\n")
}

func post(t *testing.T, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServerReportsProblems(t *testing.T) {
	tests := []struct {
		kind, path, body string
		header           []string
		turns            []Turn
		want             []string
	}{
		{
			kind: "openai", path: "/v1/chat/completions",
			body:  `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_9","content":"x"}]}`,
			turns: []Turn{{Text: "ok"}},
			want:  []string{`tool result for "call_9" matches no pending tool call`},
		},
		{
			kind: "openai", path: "/v1/chat/completions",
			body:  `{"stream":true,"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"run_cmd","arguments":"{}"}}]},{"role":"user","content":"again"}]}`,
			turns: []Turn{{Text: "ok"}},
			want:  []string{"request has no model", `tool call "c1" has no tool result`},
		},
		{
			kind: "openai", path: "/v1/chat/completions",
			body:  `{"model":"m","stream":true,"messages":[{"role":"user","content":"hello"}]}`,
			turns: []Turn{{Text: "ok", Expect: Expect{LastUser: "goodbye", System: "nb", Tools: []string{"run_cmd"}}}},
			want:  []string{`does not contain "goodbye"`, `system prompt does not contain "nb"`, `tool "run_cmd" not offered`},
		},
		{
			kind: "openai", path: "/v1/chat/completions",
			body: `{"model":"m","stream":true,"messages":[{"role":"user","content":"hello"}]}`,
			want: []string{"no scripted turn is left"},
		},
		{
			kind: "anthropic", path: "/v1/messages",
			header: []string{"X-Api-Key", "k", "Anthropic-Version", "2023-06-01"},
			body:   `{"model":"m","stream":true,"messages":[{"role":"user","content":"a"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}]}`,
			turns:  []Turn{{Text: "ok"}},
			want:   []string{"no max_tokens", "two user messages in a row", `tool result for "t1" matches no pending tool call`},
		},
		{
			kind: "anthropic", path: "/v1/messages",
			body:  `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`,
			turns: []Turn{{Text: "ok"}},
			want:  []string{"without x-api-key", "empty text block"},
		},
		{
			kind: "gemini", path: "/v1beta/openai/chat/completions",
			body:  `{"model":"g","stream":true,"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"run_cmd","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"x"}]}`,
			turns: []Turn{{Text: "ok"}},
			want:  []string{"without its thought signature", "without a bearer API key"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.kind+" "+tt.want[0], func(t *testing.T) {
			var c collector
			s, err := Start(tt.kind, tt.turns, c.fail)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			post(t, s.Root()+tt.path, tt.body, tt.header...)
			got := c.all()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("problems do not mention %q:\n%s", w, got)
				}
			}
			if err := s.Verify(); err == nil || !strings.Contains(err.Error(), tt.want[0]) {
				t.Errorf("Verify() = %v", err)
			}
		})
	}
}

func TestServerReportsUnconsumedTurns(t *testing.T) {
	var c collector
	s, err := Start("anthropic", []Turn{{Text: "one"}, {Text: "two"}}, c.fail)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	err = s.Verify()
	if err == nil || !strings.Contains(err.Error(), "2 scripted turn(s) not consumed") {
		t.Errorf("Verify() = %v", err)
	}
	if c.all() != "" {
		t.Errorf("unconsumed turns reported early: %s", c.all())
	}
}

func TestCleanRunVerifies(t *testing.T) {
	var c collector
	s, err := Start("openai", []Turn{{Text: "hi there"}}, c.fail)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	status, body := post(t, s.URL()+"/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"system","content":"sys"},{"role":"user","content":"hello"}]}`)
	if status != 200 || !strings.Contains(body, `"content":"hi "`) || !strings.HasSuffix(strings.TrimSpace(body), "data: [DONE]") {
		t.Errorf("status %d body:\n%s", status, body)
	}
	if err := s.Verify(); err != nil {
		t.Error(err)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].System != "sys" || reqs[0].LastUserText() != "hello" || reqs[0].Model != "m" {
		t.Errorf("requests %+v", reqs)
	}
}

func TestStartUnknownKind(t *testing.T) {
	if _, err := Start("cohere", nil, nil); err == nil {
		t.Error("unknown kind accepted")
	}
}

func TestCloseReleasesHangingStream(t *testing.T) {
	s, err := Start("openai", []Turn{{Text: "stuck", Hang: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := client.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	for s.Remaining() != 0 {
		time.Sleep(5 * time.Millisecond)
	}
	s.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not release the hanging stream")
	}
}
