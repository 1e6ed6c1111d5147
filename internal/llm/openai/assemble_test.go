package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/openai"
)

// TestStreamAssembly: tool calls streamed the ways local servers stream
// them are assembled into the calls the model made.
func TestStreamAssembly(t *testing.T) {
	type call struct{ name, args string }
	cases := []struct {
		name   string
		deltas []string
		want   []call
	}{
		{"two calls with the same id", []string{
			`{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"run_cmd","arguments":""}}]}`,
			`{"tool_calls":[{"index":0,"function":{"arguments":"{\"command\":\"ls\"}"}}]}`,
			`{"tool_calls":[{"index":1,"id":"call_0","type":"function","function":{"name":"read_file","arguments":""}}]}`,
			`{"tool_calls":[{"index":1,"function":{"arguments":"{\"path\":\"a\"}"}}]}`,
		}, []call{{"run_cmd", `{"command":"ls"}`}, {"read_file", `{"path":"a"}`}}},
		{"two whole calls with the same id, no index", []string{
			`{"tool_calls":[{"id":"call_0","type":"function","function":{"name":"run_cmd","arguments":"{\"command\":\"ls\"}"}}]}`,
			`{"tool_calls":[{"id":"call_0","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]}`,
		}, []call{{"run_cmd", `{"command":"ls"}`}, {"read_file", `{"path":"a"}`}}},
		{"a name split across chunks", []string{
			`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"run_"}}]}`,
			`{"tool_calls":[{"index":0,"function":{"name":"cmd"}}]}`,
			`{"tool_calls":[{"index":0,"function":{"arguments":"{\"command\":\"ls\"}"}}]}`,
		}, []call{{"run_cmd", `{"command":"ls"}`}}},
		{"the name repeated in every chunk", []string{
			`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"run_cmd","arguments":"{\"command\":"}}]}`,
			`{"tool_calls":[{"index":0,"function":{"name":"run_cmd","arguments":"\"ls\"}"}}]}`,
		}, []call{{"run_cmd", `{"command":"ls"}`}}},
		{"arguments before the name", []string{
			`{"tool_calls":[{"index":0,"function":{"arguments":"{\"command\":"}}]}`,
			`{"tool_calls":[{"index":0,"id":"call_9","type":"function","function":{"name":"run_cmd"}}]}`,
			`{"tool_calls":[{"index":0,"function":{"arguments":"\"ls\"}"}}]}`,
		}, []call{{"run_cmd", `{"command":"ls"}`}}},
		{"arguments before the name, no index", []string{
			`{"tool_calls":[{"function":{"arguments":"{\"command\":"}}]}`,
			`{"tool_calls":[{"id":"call_9","type":"function","function":{"name":"run_cmd"}}]}`,
			`{"tool_calls":[{"function":{"arguments":"\"ls\"}"}}]}`,
		}, []call{{"run_cmd", `{"command":"ls"}`}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var deltas []json.RawMessage
			for _, d := range c.deltas {
				deltas = append(deltas, json.RawMessage(d))
			}
			s := llmtest.NewOpenAI(t, llmtest.Turn{Deltas: deltas})
			p := openai.New(openai.Config{Model: "local", BaseURL: s.URL(), Compatible: true, HTTPClient: llmtest.TestClient(t)})
			resp := stream(t, p, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}}})
			got := resp.Message.ToolCalls
			if len(got) != len(c.want) {
				t.Fatalf("%d calls, want %d: %+v", len(got), len(c.want), got)
			}
			ids := map[string]bool{}
			for i, w := range c.want {
				if got[i].Name != w.name || got[i].Arguments != w.args {
					t.Errorf("call %d = %s %s, want %s %s", i+1, got[i].Name, got[i].Arguments, w.name, w.args)
				}
				if got[i].ID == "" || ids[got[i].ID] {
					t.Errorf("call %d: id %q empty or repeated", i+1, got[i].ID)
				}
				ids[got[i].ID] = true
			}
			if resp.StopReason != llm.StopToolUse {
				t.Errorf("stop reason %q", resp.StopReason)
			}
		})
	}
}
