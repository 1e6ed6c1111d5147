package llmtest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// anthropicWire speaks the Messages API at /v1/messages.
type anthropicWire struct{}

func (anthropicWire) basePath() string { return "" }

type anRequest struct {
	Model     string          `json:"model"`
	MaxTokens int             `json:"max_tokens"`
	System    json.RawMessage `json:"system"`
	Messages  []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
	Stream   bool `json:"stream"`
	Thinking *struct {
		Type         string `json:"type"`
		BudgetTokens int    `json:"budget_tokens"`
	} `json:"thinking"`
}

// anRaw holds the parts of a request as sent, for token counting.
type anRaw struct {
	System   json.RawMessage   `json:"system"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// anUnits splits a request into cacheable units: each tool, each system
// block, each content block (with its role).
func anUnits(body []byte) []unit {
	var raw anRaw
	if json.Unmarshal(body, &raw) != nil {
		return nil
	}
	var units []unit
	add := func(prefix string, block json.RawMessage) {
		data, bp := stripCacheControl(block)
		units = append(units, unit{data: append([]byte(prefix), data...), breakpoint: bp})
	}
	for _, t := range raw.Tools {
		add("tool:", t)
	}
	blocks := func(prefix string, content json.RawMessage) {
		var list []json.RawMessage
		if json.Unmarshal(content, &list) != nil {
			add(prefix, content) // a plain string
			return
		}
		for _, b := range list {
			add(prefix, b)
		}
	}
	if len(raw.System) > 0 {
		blocks("system:", raw.System)
	}
	for _, m := range raw.Messages {
		blocks(m.Role+":", m.Content)
	}
	return units
}

type anBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	Source    struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

func (anthropicWire) decode(r *http.Request, body []byte) (*Request, []string, error) {
	if r.URL.Path != "/v1/messages" {
		return nil, nil, fmt.Errorf("unexpected path (want /v1/messages)")
	}
	if r.Method != http.MethodPost {
		return nil, nil, fmt.Errorf("method %s, want POST", r.Method)
	}
	var probs []string
	if r.Header.Get("X-Api-Key") == "" && r.Header.Get("Authorization") == "" {
		probs = append(probs, "request without x-api-key")
	}
	if r.Header.Get("Anthropic-Version") == "" {
		probs = append(probs, "request without anthropic-version")
	}
	var in anRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, nil, fmt.Errorf("request body is not Messages JSON: %v", err)
	}
	req := &Request{Kind: "anthropic", Path: r.URL.Path, Header: r.Header.Clone(), Model: in.Model, MaxTokens: in.MaxTokens, Stream: in.Stream}
	req.units = anUnits(body)
	for _, u := range req.units {
		if u.breakpoint {
			req.Breakpoints++
		}
	}
	if req.Breakpoints > 4 {
		probs = append(probs, fmt.Sprintf("%d cache_control breakpoints (at most 4 are allowed)", req.Breakpoints))
	}
	if in.Thinking != nil && in.Thinking.Type == "enabled" {
		req.ThinkingBudget = in.Thinking.BudgetTokens
		if in.Thinking.BudgetTokens < 1024 {
			probs = append(probs, "thinking.budget_tokens below 1024")
		}
		if in.MaxTokens <= in.Thinking.BudgetTokens {
			probs = append(probs, "max_tokens must be greater than thinking.budget_tokens")
		}
	}
	if in.Model == "" {
		probs = append(probs, "request has no model")
	}
	if in.MaxTokens <= 0 {
		probs = append(probs, "request has no max_tokens")
	}
	if !in.Stream {
		probs = append(probs, "request is not streaming")
	}
	if len(in.Messages) == 0 {
		probs = append(probs, "request has no messages")
	} else if in.Messages[0].Role != "user" {
		probs = append(probs, "first message is not from the user")
	}
	for _, t := range in.Tools {
		if t.Name == "" || len(t.InputSchema) == 0 {
			probs = append(probs, fmt.Sprintf("malformed tool %q", t.Name))
		}
		req.Tools = append(req.Tools, t.Name)
	}
	if len(in.System) > 0 {
		text, _, err := anContent(in.System, &probs, 0)
		if err != nil {
			probs = append(probs, "system: "+err.Error())
		}
		req.System = text
	}
	prevRole := ""
	for i, m := range in.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			probs = append(probs, fmt.Sprintf("message %d: unknown role %q", i+1, m.Role))
		}
		if m.Role == prevRole {
			probs = append(probs, fmt.Sprintf("message %d: two %s messages in a row", i+1, m.Role))
		}
		prevRole = m.Role
		msg := Message{Role: m.Role}
		text, blocks, err := anContent(m.Content, &probs, i+1)
		if err != nil {
			probs = append(probs, fmt.Sprintf("message %d: %v", i+1, err))
		}
		msg.Text = text
		for _, b := range blocks {
			if b.Type == "text" {
				msg.textBlocks = append(msg.textBlocks, b.Text)
			}
		}
		seenOther := false
		for j, b := range blocks {
			switch b.Type {
			case "thinking", "redacted_thinking":
				if m.Role != "assistant" {
					probs = append(probs, fmt.Sprintf("message %d: %s block in a %s message", i+1, b.Type, m.Role))
				}
				if j > 0 && blocks[j-1].Type != "thinking" && blocks[j-1].Type != "redacted_thinking" {
					probs = append(probs, fmt.Sprintf("message %d: thinking block after other content", i+1))
				}
				if b.Type == "thinking" && b.Signature == "" {
					probs = append(probs, fmt.Sprintf("message %d: thinking block without its signature", i+1))
				}
				msg.Thinking = append(msg.Thinking, Thinking{Text: b.Thinking, Signature: b.Signature, Redacted: b.Data})
			case "tool_use":
				if m.Role != "assistant" {
					probs = append(probs, fmt.Sprintf("message %d: tool_use in a %s message", i+1, m.Role))
				}
				if len(b.Input) == 0 || b.Input[0] != '{' {
					probs = append(probs, fmt.Sprintf("message %d: tool_use input is not an object", i+1))
				}
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
			case "tool_result":
				if m.Role != "user" {
					probs = append(probs, fmt.Sprintf("message %d: tool_result in a %s message", i+1, m.Role))
				}
				if seenOther {
					probs = append(probs, fmt.Sprintf("message %d: tool_result after other content", i+1))
				}
				rt, _, err := anContent(b.Content, &probs, i+1)
				if err != nil {
					probs = append(probs, fmt.Sprintf("message %d: tool_result content: %v", i+1, err))
				}
				msg.ToolResults = append(msg.ToolResults, ToolResult{CallID: b.ToolUseID, Content: rt, IsError: b.IsError})
			case "image":
				seenOther = true
				if b.Source.Type != "base64" {
					probs = append(probs, fmt.Sprintf("message %d: image source %q", i+1, b.Source.Type))
					continue
				}
				data, err := base64.StdEncoding.DecodeString(b.Source.Data)
				if err != nil {
					probs = append(probs, fmt.Sprintf("message %d: image data: %v", i+1, err))
				}
				msg.Images = append(msg.Images, Image{MediaType: b.Source.MediaType, Data: data})
			default:
				seenOther = true
			}
		}
		if msg.Text == "" && len(msg.Images) == 0 && len(msg.ToolCalls) == 0 && len(msg.ToolResults) == 0 {
			probs = append(probs, fmt.Sprintf("message %d: empty content", i+1))
		}
		req.Messages = append(req.Messages, msg)
	}
	probs = append(probs, checkToolPairs(req.Messages)...)
	// With thinking on, the assistant message whose tool calls the request
	// answers must come back with its thinking block, as the API requires.
	if req.ThinkingBudget > 0 && len(req.Messages) >= 2 {
		if last := req.Messages[len(req.Messages)-2]; last.Role == "assistant" && len(last.ToolCalls) > 0 && len(last.Thinking) == 0 && len(req.Messages[len(req.Messages)-1].ToolResults) > 0 {
			probs = append(probs, "thinking is enabled but the assistant message with tool_use does not start with its thinking block")
		}
	}
	return req, probs, nil
}

// anContent decodes a string or block array; it returns the joined text and
// all blocks. Empty text blocks are reported, as the API rejects them.
func anContent(raw json.RawMessage, probs *[]string, msg int) (string, []anBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil, nil
	}
	var blocks []anBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", nil, fmt.Errorf("content is neither a string nor blocks")
	}
	var text []string
	for _, b := range blocks {
		if b.Type == "text" {
			if b.Text == "" {
				*probs = append(*probs, fmt.Sprintf("message %d: empty text block", msg))
			}
			text = append(text, b.Text)
		}
	}
	return strings.Join(text, "\n"), blocks, nil
}

func (anthropicWire) writeError(w http.ResponseWriter, t *Turn) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	if t.Body != "" {
		io.WriteString(w, t.Body)
		return
	}
	typ := "api_error"
	switch t.Status {
	case 400:
		typ = "invalid_request_error"
	case 401:
		typ = "authentication_error"
	case 403:
		typ = "permission_error"
	case 404:
		typ = "not_found_error"
	case 429:
		typ = "rate_limit_error"
	case 529:
		typ = "overloaded_error"
	}
	msg := t.Message
	if msg == "" {
		msg = http.StatusText(t.Status)
	}
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
	w.Write(b)
}

func (anthropicWire) stream(ctx context.Context, out *sse, req *Request, t *Turn, n int) error {
	ev := func(name string, v map[string]any) error {
		v["type"] = name
		b, _ := json.Marshal(v)
		return out.event(name, b)
	}
	err := ev("message_start", map[string]any{"message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n+1), "type": "message", "role": "assistant", "model": req.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": req.Tokens - req.Cached - req.Written, "output_tokens": 1,
			"cache_read_input_tokens": req.Cached, "cache_creation_input_tokens": req.Written},
	}})
	if err != nil {
		return err
	}
	index := 0
	if t.Thinking != "" {
		sig := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "thinking-sig-%d", n+1))
		steps := []struct {
			name string
			v    map[string]any
		}{
			{"content_block_start", map[string]any{"index": index, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}}},
			{"content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "thinking_delta", "thinking": t.Thinking}}},
			{"content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "signature_delta", "signature": sig}}},
			{"content_block_stop", map[string]any{"index": index}},
		}
		for _, st := range steps {
			if err := ev(st.name, st.v); err != nil {
				return err
			}
		}
		index++
	}
	if chunks := t.chunks(); len(chunks) > 0 {
		if err := ev("content_block_start", map[string]any{"index": index, "content_block": map[string]any{"type": "text", "text": ""}}); err != nil {
			return err
		}
		if err := ev("ping", map[string]any{}); err != nil {
			return err
		}
		for _, c := range chunks {
			if err := ev("content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "text_delta", "text": c}}); err != nil {
				return err
			}
		}
		if t.unfinished() && len(t.ToolCalls) == 0 {
			return nil
		}
		if err := ev("content_block_stop", map[string]any{"index": index}); err != nil {
			return err
		}
		index++
	}
	for i, tc := range t.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("toolu_%d_%d", n+1, i+1)
		}
		if err := ev("content_block_start", map[string]any{"index": index, "content_block": map[string]any{"type": "tool_use", "id": id, "name": tc.Name, "input": map[string]any{}}}); err != nil {
			return err
		}
		for _, p := range split(tc.Arguments, 2) {
			if err := ev("content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}}); err != nil {
				return err
			}
		}
		if err := ev("content_block_stop", map[string]any{"index": index}); err != nil {
			return err
		}
		index++
	}
	if t.unfinished() {
		return nil
	}
	stop := "end_turn"
	if len(t.ToolCalls) > 0 {
		stop = "tool_use"
	}
	if t.StopReason != "" {
		stop = t.StopReason
	}
	if err := ev("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": outputTokens(t)}}); err != nil {
		return err
	}
	return ev("message_stop", map[string]any{})
}

func (anthropicWire) streamError(out *sse, msg string) error {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": msg}})
	return out.event("error", b)
}
