package openai_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/openai"
)

// cutCall is a conversation whose last answer is a tool call cut off in
// its arguments, with the error result nb kept for it.
var cutCall = []llm.Message{
	{Role: llm.RoleUser, Text: "list the files"},
	{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command": "ls`}}},
	{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: "error: invalid arguments JSON", IsError: true},
}

// TestCutOffArgumentsSentValid: a tool call cut off in its arguments is
// sent back as a JSON object holding them, which a server parsing the
// history (llama.cpp, which answers HTTP 500 otherwise) accepts; the
// conversation itself keeps the call as the model made it.
func TestCutOffArgumentsSentValid(t *testing.T) {
	s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "ok"})
	s.SetLocal(llmtest.Local{ParseArguments: true})
	p := openai.New(openai.Config{Name: "local", Model: llmtest.DefaultModel, APIKey: "none", BaseURL: s.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
	msgs := append([]llm.Message(nil), cutCall...)
	stream(t, p, &llm.Request{Messages: msgs})
	got := s.Requests()[0].Messages[1].ToolCalls[0].Arguments
	if got != `{"invalid_arguments":"{\"command\": \"ls"}` {
		t.Errorf("arguments sent: %s", got)
	}
	if msgs[1].ToolCalls[0].Arguments != `{"command": "ls` {
		t.Errorf("the conversation changed: %s", msgs[1].ToolCalls[0].Arguments)
	}
	for _, c := range []struct{ in, want string }{{"", "{}"}, {"  ", "{}"}, {`{"a":1}`, `{"a":1}`}, {`[1]`, `{"invalid_arguments":"[1]"}`}, {`null`, `{"invalid_arguments":"null"}`}} {
		if got := llm.SendableArguments(c.in); got != c.want {
			t.Errorf("SendableArguments(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestStrictTemplateFoldsTools: a server whose chat template rejects the
// roles of a request (no tool role: "roles must alternate") gets it once
// more with tool calls and results as text in alternating user and
// assistant turns, and so do later requests; the switch is said once.
func TestStrictTemplateFoldsTools(t *testing.T) {
	s := llmtest.NewOpenAI(t, llmtest.Turn{Text: "first"}, llmtest.Turn{Text: "second"})
	s.SetLocal(llmtest.Local{StrictRoles: true})
	p := openai.New(openai.Config{Name: "local", Model: llmtest.DefaultModel, APIKey: "none", BaseURL: s.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
	var notes []string
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := range 2 {
		_, err := p.Stream(ctx, &llm.Request{System: "be brief", Messages: cutCall, Facts: "[facts]"}, func(ev llm.Event) {
			if ev.Type == llm.EventRetry {
				notes = append(notes, ev.Text)
			}
		})
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "alternating user and assistant turns") || !p.StrictRoles() {
		t.Fatalf("notes %q, strict %v", notes, p.StrictRoles())
	}
	reqs := s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want a rejected one and two folded", len(reqs))
	}
	for _, r := range reqs[1:] {
		roles := ""
		for _, m := range r.Messages {
			roles += m.Role[:1]
		}
		if roles != "uau" || r.System != "" {
			t.Errorf("roles %q, system %q", roles, r.System)
		}
		if !strings.Contains(r.Messages[0].Text, "be brief") || !strings.Contains(r.Messages[1].Text, `[nb: tool call run_cmd (c1): {"invalid_arguments":`) ||
			!strings.Contains(r.Messages[2].Text, "[nb: error of tool call run_cmd (c1)]\nerror: invalid arguments JSON") || !strings.HasSuffix(r.Messages[2].Text, "[facts]") {
			t.Errorf("folded messages: %+v", r.Messages)
		}
	}
	// Set from the start (the provider's strictRoles), nothing is rejected.
	s2 := llmtest.NewOpenAI(t, llmtest.Turn{Text: "ok"})
	s2.SetLocal(llmtest.Local{StrictRoles: true})
	p2 := openai.New(openai.Config{Name: "local", Model: llmtest.DefaultModel, APIKey: "none", BaseURL: s2.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t), StrictRoles: true})
	stream(t, p2, &llm.Request{Messages: cutCall})
	if len(s2.Requests()) != 1 {
		t.Errorf("%d requests", len(s2.Requests()))
	}
}

// TestServerModelsAndWindow: the server's models, and the window it says
// it runs one with: vLLM's max_model_len in the list, llama.cpp's n_ctx in
// /props; nothing when it says nothing.
func TestServerModelsAndWindow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := llmtest.NewOpenAI(t)
	s.SetLocal(llmtest.Local{Models: []llmtest.LocalModel{{ID: "a", MaxModelLen: 32768}, {ID: "b"}}, NCtx: 4096})
	p := openai.New(openai.Config{Name: "local", APIKey: "none", BaseURL: s.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
	models, err := p.Models(ctx)
	if err != nil || len(models) != 2 || models[0].ID != "a" || models[0].Window != 32768 || models[1].Window != 0 {
		t.Fatalf("models %+v, %v", models, err)
	}
	for model, want := range map[string]int{"a": 32768, "b": 4096} {
		if n, from, err := p.ServerWindow(ctx, model); err != nil || n != want || from == "" {
			t.Errorf("%s: window %d (%s), %v; want %d", model, n, from, err, want)
		}
	}
	// Ollama: the context length of the loaded model, else num_ctx (never
	// the model's own maximum, which Ollama does not run with).
	for _, l := range []llmtest.Local{{Models: []llmtest.LocalModel{{ID: "m"}}, OllamaLoaded: 8192, OllamaNumCtx: 2048}, {Models: []llmtest.LocalModel{{ID: "m"}}, OllamaNumCtx: 2048}} {
		o := llmtest.NewOpenAI(t)
		o.SetLocal(l)
		op := openai.New(openai.Config{Name: "ollama", APIKey: "none", BaseURL: o.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
		want := l.OllamaLoaded
		if want == 0 {
			want = l.OllamaNumCtx
		}
		if n, _, err := op.ServerWindow(ctx, "m"); n != want || err != nil {
			t.Errorf("ollama %+v: window %d, %v; want %d", l, n, err, want)
		}
	}
	plain := llmtest.NewOpenAI(t)
	q := openai.New(openai.Config{Name: "local", APIKey: "none", BaseURL: plain.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
	if n, _, err := q.ServerWindow(ctx, llmtest.DefaultModel); n != 0 || err != nil {
		t.Errorf("a server that says nothing: %d, %v", n, err)
	}
	if side := strings.Join(plain.SideRequests(), ","); !strings.Contains(side, "GET /props") || !strings.Contains(side, "POST /api/show") {
		t.Errorf("asked: %s", side)
	}
}
