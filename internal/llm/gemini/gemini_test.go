package gemini_test

import (
	"bytes"
	"context"
	"log"
	"net/http"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/gemini"
	"github.com/nb-cli/nb/internal/llm/llmtest"
)

// opencensus, imported by genai, starts a worker in its package init.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
}

func TestGeminiConformance(t *testing.T) {
	// The SDK logs stream read errors to the standard logger; nb must not
	// let them reach the terminal (on Ctrl+C, for example).
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer func() {
		log.SetOutput(os.Stderr)
		if logged.Len() > 0 {
			t.Errorf("the SDK logged:\n%s", logged.String())
		}
	}()
	llmtest.RunProviderSuite(t, llmtest.NewGemini, func(t testing.TB, s *llmtest.Server, c *http.Client) llm.Provider {
		p, err := gemini.New(gemini.Config{Model: "gemini-2.5-flash", APIKey: "gm-test", BaseURL: s.URL(), HTTPClient: c})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}, llmtest.SuiteOptions{Model: "gemini-2.5-flash", NoMalformedArguments: true})
}

func TestCallsWithoutIDs(t *testing.T) {
	s := llmtest.NewGemini(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "run_cmd", Arguments: `{"command":"uptime"}`}}},
		llmtest.Turn{Text: "fine", Expect: llmtest.Expect{ToolResult: "load average", System: "nb"}},
	)
	p, err := gemini.New(gemini.Config{Model: "g", APIKey: "k", BaseURL: s.URL(), HTTPClient: llmtest.TestClient(t), MaxTokens: 1234})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := &llm.Request{System: "You are nb.", Messages: []llm.Message{{Role: llm.RoleUser, Text: "load?"}}}
	resp, err := p.Stream(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 1 || calls[0].ID == "" || len(calls[0].Signature) == 0 {
		t.Fatalf("calls %+v: want a made-up id and the thought signature", calls)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleTool, ToolCallID: calls[0].ID, Text: "load average: 0.5"})
	if _, err := p.Stream(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if reqs[0].MaxTokens != 1234 {
		t.Errorf("maxOutputTokens = %d", reqs[0].MaxTokens)
	}
	if r := reqs[1].LastToolResults(); len(r) != 1 || r[0].Name != "run_cmd" {
		t.Errorf("function response %+v: the name must be recovered from the call", r)
	}
}
