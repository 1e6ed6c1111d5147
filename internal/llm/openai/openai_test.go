package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/openai"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestOpenAIConformance(t *testing.T) {
	llmtest.RunProviderSuite(t, llmtest.NewOpenAI, func(t testing.TB, s *llmtest.Server, c *http.Client) llm.Provider {
		return openai.New(openai.Config{Model: "gpt-4.1", APIKey: "sk-test", BaseURL: s.URL(), HTTPClient: c})
	}, llmtest.SuiteOptions{Model: "gpt-4.1"})
}

func TestOpenAICompatibleConformance(t *testing.T) {
	llmtest.RunProviderSuite(t, llmtest.NewOpenAI, func(t testing.TB, s *llmtest.Server, c *http.Client) llm.Provider {
		return openai.New(openai.Config{Name: "ollama", Model: "llama3.2", APIKey: "none", BaseURL: s.URL(), Compatible: true, HTTPClient: c})
	}, llmtest.SuiteOptions{Model: "llama3.2"})
}

func stream(t *testing.T, p llm.Provider, req *llm.Request) *llm.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := p.Stream(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestWireDetails(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "ok"})
		p := openai.New(openai.Config{Model: "m", APIKey: "sk-x", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t),
			MaxTokens: 777, Compatible: compatible, Headers: map[string]string{"X-Title": "nb"}})
		stream(t, p, &llm.Request{System: "sys", Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "a"},
			{Role: llm.RoleAssistant}, // an interrupted, empty answer
			{Role: llm.RoleUser, Text: "b"},
		}})
		req := s.Requests()[0]
		var body map[string]any
		if err := json.Unmarshal(req.Raw, &body); err != nil {
			t.Fatal(err)
		}
		field := "max_completion_tokens"
		if compatible {
			field = "max_tokens"
		}
		if body[field] != 777.0 {
			t.Errorf("compatible=%v: %s = %v in %s", compatible, field, body[field], req.Raw)
		}
		if opts, _ := body["stream_options"].(map[string]any); opts["include_usage"] != true {
			t.Errorf("compatible=%v: usage not requested: stream_options = %v", compatible, body["stream_options"])
		}
		if req.Header.Get("X-Title") != "nb" || req.Header.Get("Authorization") != "Bearer sk-x" {
			t.Errorf("headers %v", req.Header)
		}
		// The two user messages around the empty answer go as one: roles
		// alternate.
		if req.System != "sys" || len(req.Messages) != 1 || req.Messages[0].Text != "a\n\nb" {
			t.Errorf("request %+v", req)
		}
	}
}

func TestToolResultsAsToolMessages(t *testing.T) {
	s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "ok"})
	p := openai.New(openai.Config{Model: "m", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t)})
	stream(t, p, &llm.Request{
		Tools: []llm.ToolSpec{{Name: "run_cmd", Description: "d", Schema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "a"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: "{}"}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Text: ""},
		}})
	msgs := s.Requests()[0].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "tool" || len(last.ToolResults) != 1 || last.ToolResults[0].CallID != "c1" || last.ToolResults[0].Content == "" {
		t.Errorf("tool message %+v", last)
	}
}

// sentSignatures returns the thought signature sent with each tool call of
// the request's assistant messages ("" for none).
func sentSignatures(t *testing.T, raw []byte) [][]string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				ExtraContent struct {
					Google struct {
						ThoughtSignature string `json:"thought_signature"`
					} `json:"google"`
				} `json:"extra_content"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, m := range body.Messages {
		if m.Role != "assistant" {
			continue
		}
		var sigs []string
		for _, c := range m.ToolCalls {
			sigs = append(sigs, c.ExtraContent.Google.ThoughtSignature)
		}
		out = append(out, sigs)
	}
	return out
}

func TestThoughtSignatures(t *testing.T) {
	history := []llm.Message{
		{Role: llm.RoleUser, Text: "a"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "run_cmd", Arguments: "{}", Signature: []byte("Q2lnLTE=")},
			{ID: "c2", Name: "run_cmd", Arguments: "{}"},
		}},
		{Role: llm.RoleTool, ToolCallID: "c1", Text: "x"},
		{Role: llm.RoleTool, ToolCallID: "c2", Text: "y"},
		// Calls made by another model: no signature.
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
			{ID: "c3", Name: "run_cmd", Arguments: "{}"},
			{ID: "c4", Name: "run_cmd", Arguments: "{}"},
		}},
		{Role: llm.RoleTool, ToolCallID: "c3", Text: "z"},
		{Role: llm.RoleTool, ToolCallID: "c4", Text: "w"},
	}
	tests := []struct {
		name string
		cfg  openai.Config
		want string
	}{
		{"openai sends none", openai.Config{}, `[["",""],["",""]]`},
		{"compatible sends them back", openai.Config{Compatible: true}, `[["Q2lnLTE=",""],["",""]]`},
		{"gemini adds the placeholder", openai.Config{Compatible: true, ThoughtSignatures: true},
			`[["Q2lnLTE=",""],["skip_thought_signature_validator",""]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "ok"})
			cfg := tt.cfg
			cfg.Model, cfg.APIKey, cfg.BaseURL, cfg.HTTPClient = "m", "k", s.URL(), llmtest.TestClient(t)
			stream(t, openai.New(cfg), &llm.Request{Messages: history})
			got, _ := json.Marshal(sentSignatures(t, s.Requests()[0].Raw))
			if string(got) != tt.want {
				t.Errorf("signatures sent %s, want %s", got, tt.want)
			}
		})
	}
}

func TestThoughtSignatureKeptVerbatim(t *testing.T) {
	s := llmtest.NewGemini(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{
		{Name: "run_cmd", Arguments: `{"command":"uptime"}`},
		{Name: "run_cmd", Arguments: `{"command":"df"}`},
	}})
	p := openai.New(openai.Config{Name: "gemini", Model: "g", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t),
		Compatible: true, ThoughtSignatures: true})
	resp := stream(t, p, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "load?"}}})
	calls := resp.Message.ToolCalls
	if len(calls) != 2 || calls[0].Arguments != `{"command":"uptime"}` || calls[1].Arguments != `{"command":"df"}` {
		t.Fatalf("calls %+v: want two calls from index-less deltas", calls)
	}
	// The fake signs the first call of turn 1 with base64("sig-1").
	if string(calls[0].Signature) != "c2lnLTE=" || calls[1].Signature != nil {
		t.Errorf("signatures %q, %q", calls[0].Signature, calls[1].Signature)
	}
	if resp.StopReason != llm.StopToolUse {
		t.Errorf("stop reason %q after tool calls", resp.StopReason)
	}
}

// The reasoning effort reaches OpenAI reasoning models as reasoning_effort,
// and is left out when not set.
func TestReasoningEffort(t *testing.T) {
	s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "a"}, llmtest.Turn{Text: "b"})
	p := openai.New(openai.Config{Model: "o4-mini", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t)})
	ctx := context.Background()
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "think"}}
	if _, err := p.Stream(ctx, &llm.Request{Messages: msgs, Reasoning: llm.EffortHigh}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stream(ctx, &llm.Request{Messages: msgs}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if reqs[0].ReasoningEffort != "high" || reqs[1].ReasoningEffort != "" {
		t.Errorf("reasoning_effort = %q then %q, want high then none", reqs[0].ReasoningEffort, reqs[1].ReasoningEffort)
	}
}
