// Package llmtest provides scripted fake model servers that speak the real
// wire formats of OpenAI Chat Completions (also Azure deployment paths),
// Anthropic Messages and Gemini's OpenAI-compatible endpoint, so that nb's providers and
// the whole program can be tested through the official SDKs without a model.
//
// A script is a list of turns. Each request the server receives consumes the
// next turn: the turn's expectations are checked against the request, then
// the turn's reply is streamed (text in several chunks, tool calls with their
// arguments split across deltas) or its HTTP error is returned.
//
// The fakes verify themselves: a request that arrives when no turn is left,
// a malformed request (no model, no messages, a tool result without a
// matching tool call, a tool call left without a result) or a violated
// expectation is reported through the fail function at once, and turns left
// unconsumed are reported by Verify (and, for servers made with NewOpenAI,
// NewAnthropic or NewGemini, when the test ends).
//
// # Script JSON
//
// LoadScript reads a JSON array of turns, so that end-to-end tests can keep
// their script in a txtar file:
//
//	[
//	  {"expect": {"lastUser": "hi", "system": "nb", "tools": ["run_cmd"]},
//	   "text": "Hello!"},
//	  {"toolCalls": [{"name": "run_cmd", "arguments": "{\"command\":\"ls\"}"}]},
//	  {"expect": {"toolResult": "README.md"}, "text": "There is a README."},
//	  {"status": 429, "message": "slow down", "retryAfter": "0"},
//	  {"chunks": ["Hel", "lo"], "delayMs": 20},
//	  {"text": "partial answer", "hang": true}
//	]
//
// Fields of a turn:
//   - text: the answer, streamed in a few chunks; chunks: explicit chunks.
//   - toolCalls: [{"id": "call_1", "name": "run_cmd", "arguments": "..."}];
//     arguments is raw text sent verbatim (it may be invalid JSON); id is
//     generated when empty.
//   - status, message, body, retryAfter: reply with this HTTP error instead.
//     body is sent verbatim; otherwise a provider-shaped JSON error holding
//     message is sent. retryAfter becomes the Retry-After header.
//   - delayMs: pause between streamed chunks.
//   - hang: after the chunks, keep the stream open until the client goes away.
//   - silent: accept the request and send nothing at all (not even headers)
//     until the client goes away.
//   - html: answer 200 with this text as a text/html page, as a web server
//     at a wrong base URL would.
//   - streamError: after the chunks, send the wire's error event with this
//     message instead of finishing.
//   - truncate: after the chunks, end the response without the final events.
//   - stopReason: override the finish reason sent at the end.
//   - thinking: an Anthropic thinking block streamed before the text.
//   - times: repeat the turn for that many consecutive requests.
//   - standing: the turn is not consumed; it answers every request that
//     meets its expect, whenever one comes, before the sequence is consulted.
//   - expect: checks on the request: lastUser (substring of the last user
//     message that has text), system (substring of the system prompt),
//     facts (substring of the text that ends the request, in its last user
//     message or tool result, where per-request facts go),
//     toolResult (substring of some tool result in the last message group),
//     tools (tool names that must be offered), model (exact model),
//     images (minimum number of images in the last user message).
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Turn is one expected request and the reply to it.
type Turn struct {
	// Text is the answer, streamed in a few chunks.
	Text string `json:"text,omitempty"`
	// Chunks, when set, are streamed as they are instead of Text.
	Chunks []string `json:"chunks,omitempty"`
	// ToolCalls are requested after the text.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Deltas, on the OpenAI wires, are sent verbatim, each as the delta of
	// one chunk, instead of Text and ToolCalls: a raw stream, as local
	// servers send them (repeated call ids, names split across chunks,
	// arguments before the name). The finish reason is "tool_calls" when
	// a delta has tool calls.
	Deltas []json.RawMessage `json:"deltas,omitempty"`

	// Status, when non-zero, makes the server answer with this HTTP error.
	Status int `json:"status,omitempty"`
	// Message goes into the provider-shaped JSON error body.
	Message string `json:"message,omitempty"`
	// Body, when set, is sent verbatim instead.
	Body string `json:"body,omitempty"`
	// RetryAfter is sent as the Retry-After header.
	RetryAfter string `json:"retryAfter,omitempty"`

	// Delay pauses between streamed chunks (JSON: delayMs).
	Delay time.Duration `json:"-"`
	// Hang keeps the stream open after the chunks until the client cancels.
	Hang bool `json:"hang,omitempty"`
	// Silent sends nothing, not even headers, until the client cancels.
	Silent bool `json:"silent,omitempty"`
	// HTML answers 200 with this text/html page instead of the API's reply.
	HTML string `json:"html,omitempty"`
	// StreamError ends the stream after the chunks with the wire's error
	// event carrying this message (an overloaded server, for example).
	StreamError string `json:"streamError,omitempty"`
	// Truncate ends the stream after the chunks without its final events,
	// as a dropped connection would.
	Truncate bool `json:"truncate,omitempty"`
	// StopReason overrides the wire's finish reason.
	StopReason string `json:"stopReason,omitempty"`
	// Thinking is streamed as an Anthropic thinking block (with a
	// signature) before the text; other wires ignore it.
	Thinking string `json:"thinking,omitempty"`

	// Times repeats the turn (that many consecutive requests get it).
	Times int `json:"times,omitempty"`
	// Standing turns are not consumed: they answer any request that meets
	// their expectations, whenever it comes (a summary request, say).
	Standing bool `json:"standing,omitempty"`

	Expect Expect `json:"expect,omitzero"`
}

// ToolCall is one scripted tool call.
type ToolCall struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Arguments is sent verbatim, valid JSON or not.
	Arguments string `json:"arguments"`
}

// Expect holds checks on the request a turn answers. Empty fields are not
// checked.
type Expect struct {
	LastUser   string   `json:"lastUser,omitempty"`
	System     string   `json:"system,omitempty"`
	Facts      string   `json:"facts,omitempty"`
	ToolResult string   `json:"toolResult,omitempty"`
	Tools      []string `json:"tools,omitempty"`
	Model      string   `json:"model,omitempty"`
	Images     int      `json:"images,omitempty"`
}

type turnJSON struct {
	Turn
	DelayMs int `json:"delayMs,omitempty"`
}

// LoadScript decodes a JSON array of turns (see the package documentation).
// Unknown fields are errors, so that typos in scripts do not pass silently.
func LoadScript(data []byte) ([]Turn, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw []turnJSON
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("llm script: %w", err)
	}
	turns := make([]Turn, len(raw))
	for i, r := range raw {
		t := r.Turn
		t.Delay = time.Duration(r.DelayMs) * time.Millisecond
		if t.Status != 0 && (t.Text != "" || len(t.Chunks) > 0 || len(t.ToolCalls) > 0) {
			return nil, fmt.Errorf("llm script: turn %d: status cannot be combined with text or toolCalls", i+1)
		}
		if t.Status != 0 && (t.Status < 400 || t.Status > 599) {
			return nil, fmt.Errorf("llm script: turn %d: status %d is not an HTTP error", i+1, t.Status)
		}
		for j, c := range t.ToolCalls {
			if c.Name == "" {
				return nil, fmt.Errorf("llm script: turn %d: tool call %d has no name", i+1, j+1)
			}
		}
		turns[i] = t
	}
	return turns, nil
}

// unfinished reports whether the stream stops before its final events.
func (t *Turn) unfinished() bool { return t.Hang || t.StreamError != "" || t.Truncate }

// chunks returns the text pieces a turn streams.
func (t *Turn) chunks() []string {
	if len(t.Chunks) > 0 {
		return t.Chunks
	}
	return split(t.Text, 3)
}

// split cuts s into up to n pieces on rune boundaries.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	r := []rune(s)
	if len(r) < n {
		n = len(r)
	}
	out := make([]string, 0, n)
	size := (len(r) + n - 1) / n
	for i := 0; i < len(r); i += size {
		end := min(i+size, len(r))
		out = append(out, string(r[i:end]))
	}
	return out
}
