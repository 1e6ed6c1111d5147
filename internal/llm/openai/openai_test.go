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
		_, usage := body["stream_options"]
		if usage == compatible {
			t.Errorf("compatible=%v: stream_options present=%v", compatible, usage)
		}
		if req.Header.Get("X-Title") != "nb" || req.Header.Get("Authorization") != "Bearer sk-x" {
			t.Errorf("headers %v", req.Header)
		}
		if req.System != "sys" || len(req.Messages) != 2 {
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
