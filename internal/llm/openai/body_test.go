package openai_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/openai"
)

// TestBodyMatchesSDK: the body written directly is byte for byte what the
// SDK makes of the same parameters, for every kind of message and for text
// that JSON escapes, so the prefix a server caches does not depend on
// which path encoded it.
func TestBodyMatchesSDK(t *testing.T) {
	tricky := "a <b> & \"q\" \\ \n\r\t\b\f \x01\x1f \u2028\u2029 é 🙂 \xff\xfe end"
	msgs := []llm.Message{
		{Role: llm.RoleUser, Text: tricky},
		{Role: llm.RoleAssistant, Text: tricky},
		{Role: llm.RoleAssistant}, // skipped
		{Role: llm.RoleAssistant, Text: "calling", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command":"ls"}`, Signature: []byte("sig")}}},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "run_cmd", Arguments: `{}`}, {ID: "c3 " + tricky, Name: "x<y>", Arguments: tricky}}},
		{Role: llm.RoleTool, Text: tricky, ToolCallID: "c1"},
		{Role: llm.RoleTool, ToolCallID: "c2"},
		{Role: llm.RoleTool, ToolCallID: "c3 " + tricky},
		{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: []byte{1, 2, 3}}}},
		{Role: llm.RoleUser, Text: ""},
	}
	tools := []llm.ToolSpec{{Name: "run_cmd", Description: "runs <it>", Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)}}
	for _, cfg := range []openai.Config{
		{Model: "gpt-4.1"},
		{Model: "m", Compatible: true, MaxTokens: 100},
		{Model: "gemini", Compatible: true, ThoughtSignatures: true},
		{Model: "gemma-3-27b", Compatible: true},
	} {
		for _, req := range []*llm.Request{
			{System: tricky, Facts: "cwd: /tmp", Messages: msgs, Tools: tools, Reasoning: "high"},
			{Messages: msgs[:1]},
			{},
			{Model: "other", MaxTokens: 5, Messages: msgs[5:]},
			{System: "sys", Facts: "facts " + tricky, Messages: msgs[:2]},
			{Facts: "facts", Messages: msgs[:7]},
			{Facts: "facts", Messages: msgs[:6]},
			{System: "sys"},
			{Facts: "facts"},
		} {
			p := openai.New(cfg)
			params, err := p.Params(req)
			if err != nil {
				t.Fatal(err)
			}
			want, err := params.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Body(req)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%+v %d messages:\n got %s\nwant %s", cfg, len(req.Messages), got, want)
			}
		}
	}
}

func BenchmarkBody10000(b *testing.B) {
	var msgs []llm.Message
	for i := range 5000 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: %s", i, strings.Repeat("why is the build slow? ", 8))},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d: %s", i, strings.Repeat("the cache is cold. ", 12))})
	}
	p := openai.New(openai.Config{Model: "m", Compatible: true})
	req := &llm.Request{System: "sys", Facts: "facts", Messages: msgs}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Body(req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBodyLeavesTheConversation: building a request never changes the
// conversation it is built from, also when it needs no change to
// alternate (and so is not copied), for a model without a system role and
// with facts after an answer.
func TestBodyLeavesTheConversation(t *testing.T) {
	for _, model := range []string{"m", "gemma-3-27b"} {
		msgs := make([]llm.Message, 0, 8)
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: "first"},
			llm.Message{Role: llm.RoleAssistant, Text: "answer"})
		want := append([]llm.Message(nil), msgs...)
		p := openai.New(openai.Config{Model: model, Compatible: true})
		body, err := p.Body(&llm.Request{System: "sys", Facts: "facts", Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(msgs, want) || !reflect.DeepEqual(msgs[:3][2], llm.Message{}) {
			t.Errorf("%s: the conversation changed: %+v", model, msgs[:3])
		}
		if !strings.Contains(string(body), "facts") || !strings.Contains(string(body), "sys") {
			t.Errorf("%s: body lacks the system prompt or the facts: %s", model, body)
		}
	}
}
