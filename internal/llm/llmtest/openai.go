package llmtest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

func readBody(r *http.Request) ([]byte, error) {
	defer r.Body.Close()
	return io.ReadAll(io.LimitReader(r.Body, 64<<20))
}

// openaiWire speaks Chat Completions at /v1/chat/completions and at Azure's
// /openai/deployments/{name}/chat/completions, or, with gemini set, as
// Gemini's OpenAI-compatible endpoint at /v1beta/openai/chat/completions.
// The Gemini flavour attaches a thought signature to the first tool call of
// each answer (tool_calls[].extra_content.google.thought_signature), leaves
// the index out of tool call deltas and finishes with "stop" as Gemini may,
// answers errors as a list of Google API errors, and reports a first call
// sent back without a signature, which Gemini 3 rejects.
type openaiWire struct {
	gemini bool
}

func (w openaiWire) basePath() string {
	if w.gemini {
		return "/v1beta/openai"
	}
	return "/v1"
}

func (w openaiWire) kind() string {
	if w.gemini {
		return "gemini"
	}
	return "openai"
}

type oaRequest struct {
	Model         string      `json:"model"`
	Messages      []oaMessage `json:"messages"`
	Tools         []oaTool    `json:"tools"`
	Stream        bool        `json:"stream"`
	MaxTokens     int         `json:"max_tokens"`
	MaxCompletion int         `json:"max_completion_tokens"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	ReasoningEffort string `json:"reasoning_effort"`
}

// oaRaw holds the parts of a request as sent, for token counting.
type oaRaw struct {
	Messages []json.RawMessage `json:"messages"`
	Tools    json.RawMessage   `json:"tools"`
}

type oaMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []oaToolCall    `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	Name       string          `json:"name"`
}

type oaToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	ExtraContent *struct {
		Google struct {
			ThoughtSignature string `json:"thought_signature"`
		} `json:"google"`
	} `json:"extra_content"`
}

type oaTool struct {
	Type     string `json:"type"`
	Function struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type oaPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

func (w openaiWire) decode(r *http.Request, body []byte) (*Request, []string, error) {
	var probs []string
	deployment := ""
	switch {
	case r.URL.Path == w.basePath()+"/chat/completions":
		if w.gemini && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			probs = append(probs, "request without a bearer API key")
		}
	case !w.gemini && strings.HasPrefix(r.URL.Path, "/openai/deployments/") && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		deployment = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openai/deployments/"), "/chat/completions")
		if r.URL.Query().Get("api-version") == "" {
			probs = append(probs, "azure request without api-version")
		}
		if r.Header.Get("Api-Key") == "" && r.Header.Get("Authorization") == "" {
			probs = append(probs, "azure request without api-key header")
		}
	default:
		return nil, nil, fmt.Errorf("unexpected path (want %s/chat/completions)", w.basePath())
	}
	if r.Method != http.MethodPost {
		return nil, nil, fmt.Errorf("method %s, want POST", r.Method)
	}
	var in oaRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, nil, fmt.Errorf("request body is not chat completions JSON: %v", err)
	}
	req := &Request{Kind: w.kind(), Path: r.URL.Path, Header: r.Header.Clone(), Model: in.Model, Stream: in.Stream, ReasoningEffort: in.ReasoningEffort}
	req.MaxTokens = max(in.MaxTokens, in.MaxCompletion)
	var raw oaRaw
	if json.Unmarshal(body, &raw) == nil {
		if len(raw.Tools) > 0 {
			req.units = append(req.units, unit{data: raw.Tools})
		}
		for _, m := range raw.Messages {
			req.units = append(req.units, unit{data: m})
		}
	}
	req.usage = in.StreamOptions != nil && in.StreamOptions.IncludeUsage
	if req.Model == "" {
		req.Model = deployment
		if deployment == "" {
			probs = append(probs, "request has no model")
		}
	}
	if !in.Stream {
		probs = append(probs, "request is not streaming")
	}
	if len(in.Messages) == 0 {
		probs = append(probs, "request has no messages")
	}
	for _, t := range in.Tools {
		if t.Type != "function" || t.Function.Name == "" {
			probs = append(probs, fmt.Sprintf("malformed tool %+v", t))
		}
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for i, m := range in.Messages {
		text, images, err := oaContent(m.Content)
		if err != nil {
			probs = append(probs, fmt.Sprintf("message %d: %v", i+1, err))
		}
		switch m.Role {
		case "system", "developer":
			if req.System != "" {
				req.System += "\n"
			}
			req.System += text
		case "user":
			if text == "" && len(images) == 0 {
				probs = append(probs, fmt.Sprintf("message %d: empty user message", i+1))
			}
			req.Messages = append(req.Messages, Message{Role: "user", Text: text, Images: images})
		case "assistant":
			msg := Message{Role: "assistant", Text: text}
			for n, c := range m.ToolCalls {
				if c.Type != "function" {
					probs = append(probs, fmt.Sprintf("message %d: tool call type %q", i+1, c.Type))
				}
				if w.gemini && n == 0 && (c.ExtraContent == nil || c.ExtraContent.Google.ThoughtSignature == "") {
					probs = append(probs, fmt.Sprintf("message %d: tool call %q sent back without its thought signature", i+1, c.Function.Name))
				}
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
			}
			if text == "" && len(msg.ToolCalls) == 0 {
				probs = append(probs, fmt.Sprintf("message %d: empty assistant message", i+1))
			}
			req.Messages = append(req.Messages, msg)
		case "tool":
			if m.ToolCallID == "" {
				probs = append(probs, fmt.Sprintf("message %d: tool message without tool_call_id", i+1))
			}
			req.Messages = append(req.Messages, Message{Role: "tool", ToolResults: []ToolResult{{CallID: m.ToolCallID, Content: text}}})
		default:
			probs = append(probs, fmt.Sprintf("message %d: unknown role %q", i+1, m.Role))
		}
	}
	probs = append(probs, checkToolPairs(req.Messages)...)
	return req, probs, nil
}

func oaContent(raw json.RawMessage) (string, []Image, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil, nil
	}
	var parts []oaPart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", nil, fmt.Errorf("content is neither a string nor parts")
	}
	var text []string
	var images []Image
	for _, p := range parts {
		switch p.Type {
		case "text":
			text = append(text, p.Text)
		case "image_url":
			img, err := dataURL(p.ImageURL.URL)
			if err != nil {
				return "", nil, err
			}
			images = append(images, img)
		default:
			return "", nil, fmt.Errorf("unknown content part %q", p.Type)
		}
	}
	return strings.Join(text, "\n"), images, nil
}

func dataURL(u string) (Image, error) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return Image{}, fmt.Errorf("image url is not a data URL")
	}
	mt, data, ok := strings.Cut(rest, ";base64,")
	if !ok {
		return Image{}, fmt.Errorf("image data URL is not base64")
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return Image{}, fmt.Errorf("image data: %v", err)
	}
	return Image{MediaType: mt, Data: b}, nil
}

func (wf openaiWire) writeError(w http.ResponseWriter, t *Turn) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	if t.Body != "" {
		io.WriteString(w, t.Body)
		return
	}
	typ, code := "server_error", any(nil)
	switch t.Status {
	case 401:
		typ, code = "invalid_request_error", "invalid_api_key"
	case 429:
		typ, code = "requests", "rate_limit_exceeded"
	case 400, 404:
		typ = "invalid_request_error"
	}
	msg := t.Message
	if msg == "" {
		msg = http.StatusText(t.Status)
	}
	if wf.gemini {
		// Gemini answers with a list holding one Google API error.
		b, _ := json.Marshal([]any{map[string]any{"error": map[string]any{"code": t.Status, "message": msg, "status": googleStatus(t.Status)}}})
		w.Write(b)
		return
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
	w.Write(b)
}

func googleStatus(code int) string {
	switch code {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	}
	return "INTERNAL"
}

func (w openaiWire) stream(ctx context.Context, out *sse, req *Request, t *Turn, n int) error {
	id := fmt.Sprintf("chatcmpl-%d", n+1)
	chunk := func(delta map[string]any, finish any) error {
		b, _ := json.Marshal(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}},
		})
		return out.event("", b)
	}
	if err := chunk(map[string]any{"role": "assistant", "content": ""}, nil); err != nil {
		return err
	}
	rawCalls := false
	for _, d := range t.Deltas {
		b, _ := json.Marshal(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil, "logprobs": nil}},
		})
		if err := out.event("", b); err != nil {
			return err
		}
		rawCalls = rawCalls || bytes.Contains(d, []byte(`"tool_calls"`))
	}
	for _, c := range t.chunks() {
		if len(t.Deltas) > 0 {
			break
		}
		if err := chunk(map[string]any{"content": c}, nil); err != nil {
			return err
		}
	}
	for i, tc := range t.ToolCalls {
		callID := tc.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d_%d", n+1, i+1)
		}
		pieces := split(tc.Arguments, 2)
		first := map[string]any{"index": i, "id": callID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": ""}}
		if w.gemini {
			delete(first, "index")
		}
		if err := chunk(map[string]any{"tool_calls": []any{first}}, nil); err != nil {
			return err
		}
		for _, p := range pieces {
			d := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
			if w.gemini {
				delete(d, "index")
			}
			if err := chunk(map[string]any{"tool_calls": []any{d}}, nil); err != nil {
				return err
			}
		}
		if w.gemini && i == 0 {
			// The signature may come in a delta of its own.
			sig := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "sig-%d", n+1))
			d := map[string]any{"extra_content": map[string]any{"google": map[string]any{"thought_signature": sig}}}
			if err := chunk(map[string]any{"tool_calls": []any{d}}, nil); err != nil {
				return err
			}
		}
	}
	if t.unfinished() {
		return nil
	}
	finish := "stop"
	if (len(t.ToolCalls) > 0 || rawCalls) && !w.gemini {
		// Gemini says "stop" after tool calls too.
		finish = "tool_calls"
	}
	if t.StopReason != "" {
		finish = t.StopReason
	}
	if err := chunk(map[string]any{}, finish); err != nil {
		return err
	}
	if req.usage {
		output := outputTokens(t)
		b, _ := json.Marshal(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model, "choices": []any{},
			"usage": map[string]any{
				"prompt_tokens": req.Tokens, "completion_tokens": output, "total_tokens": req.Tokens + output,
				"prompt_tokens_details":     map[string]any{"cached_tokens": req.Cached},
				"completion_tokens_details": map[string]any{"reasoning_tokens": 0},
			},
		})
		if err := out.event("", b); err != nil {
			return err
		}
	}
	return out.event("", []byte("[DONE]"))
}

func (openaiWire) streamError(out *sse, msg string) error {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "param": nil, "code": nil}})
	return out.event("", b)
}
