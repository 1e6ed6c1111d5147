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

// Each request reads the prefix the previous one wrote: the system prompt
// and tools, then the conversation up to its last block. Breaking the
// breakpoint on the last block (or on the system prompt) lowers the cached
// share and fails this test.
func TestPromptCaching(t *testing.T) {
	s := llmtest.NewAnthropic(t, llmtest.Turn{Text: "first"}, llmtest.Turn{Text: "second"}, llmtest.Turn{Text: "third"})
	p := anthropic.New(anthropic.Config{Model: "m", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	system := strings.Repeat("stable instructions. ", 300)
	tools := []llm.ToolSpec{{Name: "run_cmd", Description: strings.Repeat("Runs a command. ", 50)}}
	msgs := []llm.Message{{Role: llm.RoleUser, Text: strings.Repeat("a long question ", 400)}}
	var usages []llm.Usage
	for i, facts := range []string{"cwd: /a", "cwd: /b", "cwd: /c"} {
		resp, err := p.Stream(ctx, &llm.Request{System: system, Tools: tools, Messages: msgs, Facts: facts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		usages = append(usages, resp.Usage)
		msgs = append(msgs, resp.Message, llm.Message{Role: llm.RoleUser, Text: strings.Repeat("next ", 50*(i+1))})
	}
	reqs := s.Requests()
	for i, r := range reqs {
		if r.Breakpoints < 2 || r.Breakpoints > 4 {
			t.Errorf("request %d has %d cache_control breakpoints, want 2 to 4", i+1, r.Breakpoints)
		}
		if strings.Contains(r.System, "cwd:") {
			t.Errorf("request %d: facts in the system prompt", i+1)
		}
	}
	if usages[0].CacheWriteTokens == 0 {
		t.Errorf("first request wrote nothing to the cache: %+v", usages[0])
	}
	// The third request finds the whole second request's conversation (all
	// but its facts) in cache.
	third := reqs[2]
	if share := float64(third.Cached) / float64(third.Tokens); share < 0.8 {
		t.Errorf("third request: %d of %d tokens cached (%.0f%%), want at least 80%%", third.Cached, third.Tokens, share*100)
	}
	if usages[2].CachedInputTokens != third.Cached || usages[2].InputTokens != third.Tokens {
		t.Errorf("usage %+v does not match the server's %d in / %d cached", usages[2], third.Tokens, third.Cached)
	}
}

// Thinking blocks come back first in their assistant message, with their
// signatures, while tools run, and never as answer text.
func TestThinkingRoundTrip(t *testing.T) {
	s := llmtest.NewAnthropic(t,
		llmtest.Turn{Thinking: "the user wants the disk usage", ToolCalls: []llmtest.ToolCall{{Name: "run_cmd", Arguments: `{"command":"df -h"}`}}},
		llmtest.Turn{Text: "The disk is half full."},
	)
	p := anthropic.New(anthropic.Config{Model: "m", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "how full is the disk?"}}
	var shown strings.Builder
	resp, err := p.Stream(ctx, &llm.Request{Messages: msgs, ThinkingBudget: 2000}, func(ev llm.Event) {
		if ev.Type == llm.EventText {
			shown.WriteString(ev.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Message.Thinking) != 1 || resp.Message.Thinking[0].Signature == "" || resp.Message.Thinking[0].Text != "the user wants the disk usage" {
		t.Fatalf("thinking = %+v", resp.Message.Thinking)
	}
	if strings.Contains(shown.String()+resp.Message.Text, "disk usage") {
		t.Errorf("thinking shown as answer text: %q", shown.String()+resp.Message.Text)
	}
	msgs = append(msgs, resp.Message, llm.Message{Role: llm.RoleTool, ToolCallID: resp.Message.ToolCalls[0].ID, Text: "50%"})
	if _, err := p.Stream(ctx, &llm.Request{Messages: msgs, ThinkingBudget: 2000}, nil); err != nil {
		t.Fatal(err)
	}
	req := s.Requests()[1]
	if req.ThinkingBudget != 2000 || req.MaxTokens <= 2000 {
		t.Errorf("thinking budget %d, max_tokens %d", req.ThinkingBudget, req.MaxTokens)
	}
	got := req.Messages[1].Thinking
	if len(got) != 1 || got[0] != (llmtest.Thinking{Text: resp.Message.Thinking[0].Text, Signature: resp.Message.Thinking[0].Signature}) {
		t.Errorf("thinking sent back = %+v, want %+v", got, resp.Message.Thinking)
	}
}
