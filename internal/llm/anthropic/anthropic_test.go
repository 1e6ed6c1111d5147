package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/anthropic"
	"github.com/nb-cli/nb/internal/llm/llmtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestAnthropicConformance(t *testing.T) {
	llmtest.RunProviderSuite(t, llmtest.NewAnthropic, func(t testing.TB, s *llmtest.Server, c *http.Client) llm.Provider {
		return anthropic.New(anthropic.Config{Model: "claude-sonnet-4-5", APIKey: "sk-ant-test", BaseURL: s.URL(), HTTPClient: c})
	}, llmtest.SuiteOptions{Model: "claude-sonnet-4-5"})
}

func TestWireDetails(t *testing.T) {
	s := llmtest.NewAnthropic(t, llmtest.Turn{Text: "ok", Expect: llmtest.Expect{System: "You are nb"}})
	p := anthropic.New(anthropic.Config{Model: "m", APIKey: "sk-ant", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := p.Stream(ctx, &llm.Request{
		System: "You are nb.",
		Tools: []llm.ToolSpec{{Name: "run_cmd", Description: "Run.",
			Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"],"additionalProperties":false}`)}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "a"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "t1", Name: "run_cmd", Arguments: `{"command": "ls`}}},
			{Role: llm.RoleTool, ToolCallID: "t1", Text: "bad arguments", IsError: true},
			{Role: llm.RoleUser, Text: "try again"},
		}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := s.Requests()[0]
	if req.MaxTokens != anthropic.DefaultMaxTokens {
		t.Errorf("max_tokens = %d", req.MaxTokens)
	}
	if req.Header.Get("X-Api-Key") != "sk-ant" && req.Header.Get("Authorization") != "Bearer sk-ant" {
		t.Errorf("API key not sent: %v", req.Header)
	}
	var body struct {
		Tools []struct {
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(req.Raw, &body); err != nil {
		t.Fatal(err)
	}
	schema := body.Tools[0].InputSchema
	if schema["type"] != "object" || schema["properties"] == nil || schema["additionalProperties"] != false || len(schema["required"].([]any)) != 1 {
		t.Errorf("input_schema = %v", schema)
	}
	// Tool result and the next user text share one user message.
	if len(req.Messages) != 3 {
		t.Fatalf("messages %+v", req.Messages)
	}
	if m := req.Messages[2]; m.Text != "try again" || len(m.ToolResults) != 1 || !m.ToolResults[0].IsError {
		t.Errorf("merged user message %+v", m)
	}
	// Invalid arguments go back as an object that shows them.
	if args := req.Messages[1].ToolCalls[0].Arguments; !strings.Contains(args, "invalid_arguments") {
		t.Errorf("tool_use input %s", args)
	}
}

func TestOverloaded(t *testing.T) {
	s := llmtest.NewAnthropic(t, llmtest.Turn{Status: 529, Message: "Overloaded"})
	p := anthropic.New(anthropic.Config{Model: "m", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := p.Stream(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "a"}}}, nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrServer || e.Message != "Overloaded" || !llm.Retryable(err) {
		t.Errorf("err = %v", err)
	}
}
