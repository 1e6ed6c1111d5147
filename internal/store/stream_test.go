package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// streamCases are history files that streamHistory must read as
// decodeHistory reads them, or leave to it. stream says whether the
// streamer itself must accept the file (a well-formed file that only it
// should take the fast way).
var streamCases = []struct {
	name, in string
	stream   bool
}{
	{"unknown keys", `{"format":"x","version":1,"extra":{"a":[1,2]},"messages":[{"role":"user","text":"hi","new":true},null,{"role":"tool","new":"\u00e9"}],"zz":null}`, true},
	{"escapes", `{"format":"nb-conversation","version":1,"messages":[{"role":"tool","text":"{\"stdout\":\"a\\nb\\t\\u00e9\\ud83d\\ude00\"}","toolCallId":"c\"1"}]}`, true},
	{"nulls", `{"format":null,"version":1,"saved":null,"messages":[{"role":"user","text":null,"images":null,"usage":null,"toolCalls":null,"isError":null}]}`, true},
	{"null call", `{"format":"f","version":1,"messages":[{"role":"assistant","toolCalls":[null,{"id":"a","name":"n","arguments":"{}","signature":"c2ln"}]}]}`, true},
	{"no messages", `{"format":"nb-conversation","version":1}`, true},
	{"null messages", `{"format":"nb-conversation","version":1,"messages":null}`, true},
	{"other case", `{"FORMAT":"nb-conversation","Version":1,"messages":[{"ROLE":"user","Text":"hi"}]}`, false},
	{"snake case", `{"format":"nb-conversation","version":1,"messages":[{"role":"tool","tool_call_id":"x"}]}`, false},
	{"call other case", `{"format":"f","version":1,"messages":[{"role":"assistant","toolCalls":[{"ID":"a"}]}]}`, false},
	{"call unknown field", `{"format":"f","version":1,"messages":[{"role":"assistant","toolCalls":[{"id":"a","new":1}]}]}`, false},
	{"usage unknown field", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":1,"new":2}}]}`, false},
	{"bad utf8", "{\"format\":\"f\",\"version\":1,\"messages\":[{\"role\":\"user\",\"text\":\"\xff\"}]}", false},
	{"duplicate key", `{"format":"a","format":"b","version":1}`, false},
	{"duplicate field", `{"format":"a","version":1,"messages":[{"role":"user","role":"tool"}]}`, false},
	{"text a number", `{"format":"a","version":1,"messages":[{"role":"user","text":5}]}`, false},
	{"version a string", `{"format":"a","version":"1"}`, false},
	{"trailing data", `{"format":"a","version":1} {}`, false},
	{"truncated", `{"format":"a","version":1,"messages":[{"role":"us`, false},
	{"not an object", `[]`, false},
	{"control escapes", `{"format":"f","version":1,"messages":[{"role":"tool","text":"\u001b[1m\u0000\/x\uFFFD"}]}`, true},
	{"lone surrogate", `{"format":"f","version":1,"messages":[{"role":"tool","text":"\ud800x"}]}`, false},
	{"bad escape", `{"format":"f","version":1,"messages":[{"role":"tool","text":"\x"}]}`, false},
	{"raw control", "{\"format\":\"f\",\"version\":1,\"messages\":[{\"role\":\"tool\",\"text\":\"a\tb\"}]}", false},
	{"unknown spaced", `{"format":"f","version":1,"messages":[{"role":"user","later": { "a" : [ 1 , "\u00e9" ] } }]}`, true},
	{"unknown duplicate", `{"format":"f","version":1,"messages":[{"role":"user","x":1,"x":2}]}`, false},
	{"unknown duplicate inside", `{"format":"f","version":1,"x":{"a":1,"a":2}}`, false},
	{"usage", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":-3,"outputTokens":0,"cachedInputTokens":123456789012345678}}]}`, true},
	{"usage float", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":1.5}}]}`, false},
	{"usage exponent", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":1e3}}]}`, false},
	{"usage null field", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":null}}]}`, false},
	{"usage other case", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"InputTokens":1}}]}`, false},
	{"usage huge", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":99999999999999999999}}]}`, false},
	{"usage leading zero", `{"format":"f","version":1,"messages":[{"role":"assistant","usage":{"inputTokens":01}}]}`, false},
	{"trailing comma", `{"format":"f","version":1,}`, false},
	{"trailing nul", "{\"format\":\"f\",\"version\":1}\x00", false},
	{"white space", " {\n \"format\" :\t\"f\" ,\r\n\"version\": 1 , \"messages\" : [ { \"role\" : \"user\" , \"isError\" : true } , null ] }\n", true},
	{"message not an object", `{"format":"a","version":1,"messages":[1]}`, false},
}

// TestStreamHistoryAgreesWithDecodeHistory: whatever the streaming decoder
// accepts, it reads exactly as the whole-file decoder does, unknown keys
// and fields included; what it refuses goes to the whole-file decoder.
func TestStreamHistoryAgreesWithDecodeHistory(t *testing.T) {
	full, err := json.MarshalIndent(historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "look <at> & \"this\" \u2028 é", Images: []llm.Image{{MediaType: "image/png", Data: []byte{0, 1, 2, 255}, Name: "a.png"}}},
		{Role: llm.RoleAssistant, Text: "ok", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command":"ls"}`, Signature: []byte("sig")}},
			Thinking: []llm.Thinking{{Text: "hmm", Signature: "s"}, {Redacted: "r"}}, Usage: &llm.Usage{InputTokens: 10, OutputTokens: 2, CachedInputTokens: 8, CacheWriteTokens: 1, ReasoningTokens: 1}, Model: "m", Partial: true},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: "{}", IsError: true},
		{Role: llm.RoleUser, Text: "summary", Summary: true},
	}}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	cases := append(streamCases, struct {
		name, in string
		stream   bool
	}{"full", string(full), true}, struct {
		name, in string
		stream   bool
	}{"long", string(longHistory(t, 1500)), true}, struct {
		name, in string
		stream   bool
	}{"short", string(longHistory(t, 40)), true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, wantErr := decodeHistory([]byte(c.in))
			got, err := streamHistory(strings.NewReader(c.in))
			if c.stream && err != nil {
				t.Fatalf("streamHistory refused a well-formed file: %v", err)
			}
			if len(c.in) < 1<<20 {
				// Every value across the ends of reads.
				one, oneErr := streamHistory(iotest.OneByteReader(strings.NewReader(c.in)))
				if (oneErr == nil) != (err == nil) || err == nil && !reflect.DeepEqual(one, got) {
					t.Fatalf("read a byte at a time: %+v (%v)\nread whole: %+v (%v)", one, oneErr, got, err)
				}
			}
			if err != nil {
				return
			}
			if wantErr != nil {
				t.Fatalf("streamHistory accepted what decodeHistory refuses (%v)", wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("streamHistory = %+v\ndecodeHistory = %+v", got, want)
			}
		})
	}
}

// longHistory is a tool-heavy history file of about n messages, indented
// as Save writes it.
func longHistory(t testing.TB, n int) []byte {
	var msgs []llm.Message
	for i := range n / 4 {
		id := fmt.Sprintf("call_%d", i)
		out := fmt.Sprintf(`{"stdout":%q,"stderr":"","exitCode":0}`, strings.Repeat(fmt.Sprintf("src/pkg%d/file.go:12: TODO tidy this\n", i), 60))
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: %s", i, strings.Repeat("why is the build slow? ", 8))},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "run_cmd", Arguments: fmt.Sprintf(`{"command":"grep -rn TODO src/pkg%d"}`, i)}}, Usage: &llm.Usage{InputTokens: 1000 + i, OutputTokens: 20}, Model: "m"},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "run_cmd", Text: out},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d", i), Usage: &llm.Usage{InputTokens: 1100 + i, OutputTokens: 60}, Model: "m"})
	}
	data, err := encodeHistory(historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: time.Now().UTC(), Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestStreamHistoryReadsItsOwnSaves: a saved history, with unknown keys
// and fields, is read back by the streaming decoder, and saving it again
// writes the same bytes.
func TestStreamHistoryReadsItsOwnSaves(t *testing.T) {
	doc := historyDoc{Format: historyFormat, Version: HistoryVersion, Saved: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Extra: map[string]json.RawMessage{"later": json.RawMessage(`{"x":[1,"two"]}`)},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "hi", Extra: map[string]json.RawMessage{"mood": json.RawMessage(`"fine"`)}},
			{Role: llm.RoleAssistant, Text: "hello"},
		}}
	data, err := encodeHistory(doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := streamHistory(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	again, err := encodeHistory(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Fatalf("saved again:\n%s\nfirst save:\n%s", again, data)
	}
}

// FuzzStreamHistory: on any input the streaming decoder either refuses
// or agrees with the whole-file decoder.
func FuzzStreamHistory(f *testing.F) {
	for _, c := range streamCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := streamHistory(strings.NewReader(in))
		if err != nil {
			return
		}
		want, wantErr := decodeHistory([]byte(in))
		if wantErr != nil {
			t.Fatalf("streamHistory accepted what decodeHistory refuses (%v)", wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("streamHistory = %+v\ndecodeHistory = %+v", got, want)
		}
	})
}

// TestStreamHistoryLeavesRoom: the loaded messages leave room for the
// next turn's, so its first request does not copy the conversation.
func TestStreamHistoryLeavesRoom(t *testing.T) {
	for _, n := range []int{4, 2000} {
		doc, err := streamHistory(bytes.NewReader(longHistory(t, n)))
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Messages) != n || cap(doc.Messages)-len(doc.Messages) < spare {
			t.Errorf("%d messages: len %d, cap %d, want room for %d more", n, len(doc.Messages), cap(doc.Messages), spare)
		}
	}
}

// BenchmarkLoadToolHistory loads a tool-heavy 10,000-message history
// (9 MB): "stream" as Load does, "whole" reading the file and decoding it
// whole as before.
func BenchmarkLoadToolHistory(b *testing.B) {
	path := filepath.Join(b.TempDir(), HistoryFile)
	data := longHistory(b, 10000)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := streamHistory(bufio.NewReaderSize(f, 256<<10)); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := decodeHistory(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
