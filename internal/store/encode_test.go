package store

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// TestWriteHistoryMatchesMarshalIndent: the history written directly is
// byte for byte what encoding/json's MarshalIndent makes of it, for every
// field, for text that JSON escapes, and with unknown keys and fields.
func TestWriteHistoryMatchesMarshalIndent(t *testing.T) {
	tricky := "a <b> & \"q\" \\ \n\r\t\b\f \x01\x1f\x7f \u2028\u2029 é 🙂 \xff\xfe end"
	msgs := []llm.Message{
		{Role: llm.RoleUser, Text: tricky},
		{Role: llm.RoleAssistant},
		{Role: llm.RoleAssistant, Text: tricky, ToolCalls: []llm.ToolCall{{ID: "c1" + tricky, Name: "run_cmd", Arguments: tricky}, {}}, Usage: &llm.Usage{InputTokens: 10, OutputTokens: 2}, Model: "m<1>"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{}, Images: []llm.Image{}, Thinking: []llm.Thinking{}, Usage: &llm.Usage{}},
		{Role: llm.RoleAssistant, Usage: &llm.Usage{InputTokens: -1, OutputTokens: 1 << 40, CachedInputTokens: 3, CacheWriteTokens: 4, ReasoningTokens: 5}, Partial: true},
		{Role: llm.RoleAssistant, Usage: &llm.Usage{ReasoningTokens: 5}},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: "{}", IsError: true},
		{Role: llm.RoleUser, Text: "summary", Summary: true},
		{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: []byte{0, 1, 2, 255}, Name: "a.png"}}},
		{Role: llm.RoleAssistant, Thinking: []llm.Thinking{{Text: "hmm <x>", Signature: "s"}, {Redacted: "r"}}, Text: "ok"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "n", Arguments: "{}", Signature: []byte("sig")}}},
		{Role: "odd\x00role"},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "é", "🙂", "\"", "\\", "\n", "<", ">", "&", "\x00", "\x1f", "\x7f", "\u2028", "\u2029", "\xff", "\xe2\x80", " ", "abcdefgh"}
	for range 300 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleTool, Text: b.String(), ToolCallID: b.String()})
	}
	saved := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	docs := []historyDoc{
		{Format: historyFormat, Version: HistoryVersion, Saved: saved, Messages: msgs},
		{Format: historyFormat, Version: HistoryVersion, Saved: saved, Messages: []llm.Message{}},
		{Format: "f<", Version: 0},
		{Format: historyFormat, Version: HistoryVersion, Saved: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)), Messages: msgs[:3]},
		{Format: historyFormat, Version: HistoryVersion, Saved: saved, Messages: msgs[:2], Extra: map[string]json.RawMessage{"later": json.RawMessage(`{"x": [1,"two"]}`)}},
		{Format: historyFormat, Version: HistoryVersion, Saved: saved, Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi", Extra: map[string]json.RawMessage{"mood": json.RawMessage(`"fine"`)}}}},
	}
	for i, doc := range docs {
		want, err := encodeIndented(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeHistory(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			n := 0
			for n < len(got) && n < len(want) && got[n] == want[n] {
				n++
			}
			t.Fatalf("doc %d differs at byte %d:\n got %q\nwant %q", i, n, got[max(0, n-80):min(len(got), n+80)], want[max(0, n-80):min(len(want), n+80)])
		}
	}
}

// BenchmarkSaveToolHistory saves a tool-heavy 10,000-message history.
func BenchmarkSaveToolHistory(b *testing.B) {
	doc, err := streamHistory(bytes.NewReader(longHistory(b, 10000)))
	if err != nil {
		b.Fatal(err)
	}
	h, err := OpenHistory(b.TempDir(), b.TempDir(), time.Now)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.ReportAllocs()
	for b.Loop() {
		if err := h.Save(doc.Messages); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzWriteHistory: any text is written byte for byte as encoding/json
// writes it.
func FuzzWriteHistory(f *testing.F) {
	f.Add("a <b> & \"q\" \\ \n\u2028 é", "run_cmd", "{}")
	f.Fuzz(func(t *testing.T, text, name, args string) {
		doc := historyDoc{Format: historyFormat, Version: HistoryVersion, Messages: []llm.Message{
			{Role: llm.Role(name), Text: text, ToolCallID: args, ToolName: name, Model: text},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: text, Name: name, Arguments: args}}},
		}}
		want, err := encodeIndented(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeHistory(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}
