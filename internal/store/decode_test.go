package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// TestDecodeHistoryAgreesWithEncodingJSON: the fast decoder and encoding/json
// read every history the same way, field for field, including files edited
// by hand (other letter case, unknown keys, nulls) and files only
// encoding/json accepts.
func TestDecodeHistoryAgreesWithEncodingJSON(t *testing.T) {
	full, err := json.Marshal(historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "look <at> & \"this\" \u2028 é", Images: []llm.Image{{MediaType: "image/png", Data: []byte{0, 1, 2, 255}, Name: "a.png"}}},
		{Role: llm.RoleAssistant, Text: "ok", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command":"ls"}`, Signature: []byte("sig")}},
			Thinking: []llm.Thinking{{Text: "hmm", Signature: "s"}, {Redacted: "r"}}, Usage: &llm.Usage{InputTokens: 10, OutputTokens: 2, CachedInputTokens: 8, CacheWriteTokens: 1, ReasoningTokens: 1}, Model: "m", Partial: true},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: "{}", IsError: true},
		{Role: llm.RoleUser, Text: "summary", Summary: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"full":          string(full),
		"other case":    `{"FORMAT":"nb-conversation","Version":1,"messages":[{"ROLE":"user","Text":"hi"}]}`,
		"unknown keys":  `{"format":"x","version":1,"extra":{"a":[1,2]},"messages":[{"role":"user","text":"hi","new":true}]}`,
		"nulls":         `{"format":null,"version":1,"messages":[{"role":"user","text":null,"images":null,"usage":null}]}`,
		"no messages":   `{"format":"nb-conversation","version":1}`,
		"base64 breaks": `{"format":"f","version":1,"messages":[{"role":"user","images":[{"mediaType":"image/png","data":"AAEC\r\n/w=="}]}]}`,
		"bad utf8":      "{\"format\":\"f\",\"version\":1,\"messages\":[{\"role\":\"user\",\"text\":\"\xff\"}]}",
		"duplicate key": `{"format":"a","format":"b","version":1}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			var want historyDoc
			wantErr := json.Unmarshal([]byte(in), &want)
			got, gotErr := decodeHistory([]byte(in))
			// The unknown keys and fields are kept besides (encoding/json
			// drops them).
			extra := got.Extra
			got.Extra = nil
			var fields []map[string]json.RawMessage
			for i := range got.Messages {
				fields = append(fields, got.Messages[i].Extra)
				got.Messages[i].Extra = nil
			}
			if name == "unknown keys" && (string(extra["extra"]) != `{"a":[1,2]}` || string(fields[0]["new"]) != "true") {
				t.Errorf("unknown keys not kept: %s %v", extra, fields)
			}
			if (wantErr == nil) != (gotErr == nil) || !reflect.DeepEqual(got, want) {
				t.Fatalf("decodeHistory = %+v, %v\nencoding/json = %+v, %v", got, gotErr, want, wantErr)
			}
		})
	}
	// Damaged files keep encoding/json's errors, which name the problem.
	for _, in := range []string{`{"version":"one"}`, `{"messages":[`, `[]`} {
		var want historyDoc
		wantErr := json.Unmarshal([]byte(in), &want)
		_, gotErr := decodeHistory([]byte(in))
		if gotErr == nil || gotErr.Error() != wantErr.Error() {
			t.Errorf("decodeHistory(%s) error = %v, want %v", in, gotErr, wantErr)
		}
	}
}

// BenchmarkDecodeHistory decodes a 10,000-message history file.
func BenchmarkDecodeHistory(b *testing.B) {
	var msgs []llm.Message
	for i := range 5000 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: %s", i, strings.Repeat("why is the build slow? ", 8))},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d: %s", i, strings.Repeat("the cache is cold. ", 12))})
	}
	data, err := json.MarshalIndent(historyDoc{Format: historyFormat, Version: HistoryVersion, Messages: msgs}, "", " ")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeHistory(data); err != nil {
			b.Fatal(err)
		}
	}
}
