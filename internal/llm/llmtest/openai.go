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

func readBody(r *http.Request) ([]byte, error) {
	defer r.Body.Close()
	return io.ReadAll(io.LimitReader(r.Body, 64<<20))
}

// openaiWire speaks Chat Completions at /v1/chat/completions and at Azure's
// /openai/deployments/{name}/chat/completions.
type openaiWire struct{}

func (openaiWire) basePath() string { return "/v1" }

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

func (openaiWire) decode(r *http.Request, body []byte) (*Request, []string, error) {
	var probs []string
	deployment := ""
	switch {
	case r.URL.Path == "/v1/chat/completions":
	case strings.HasPrefix(r.URL.Path, "/openai/deployments/") && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		deployment = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openai/deployments/"), "/chat/completions")
		if r.URL.Query().Get("api-version") == "" {
			probs = append(probs, "azure request without api-version")
		}
		if r.Header.Get("Api-Key") == "" && r.Header.Get("Authorization") == "" {
			probs = append(probs, "azure request without api-key header")
		}
	default:
		return nil, nil, fmt.Errorf("unexpected path (want /v1/chat/completions)")
	}
	if r.Method != http.MethodPost {
		return nil, nil, fmt.Errorf("method %s, want POST", r.Method)
	}
	var in oaRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, nil, fmt.Errorf("request body is not chat completions JSON: %v", err)
	}
	req := &Request{Kind: "openai", Path: r.URL.Path, Header: r.Header.Clone(), Model: in.Model, Stream: in.Stream}
	req.MaxTokens = max(in.MaxTokens, in.MaxCompletion)
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
			for _, c := range m.ToolCalls {
				if c.Type != "function" {
					probs = append(probs, fmt.Sprintf("message %d: tool call type %q", i+1, c.Type))
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

func (openaiWire) writeError(w http.ResponseWriter, t *Turn) {
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
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
	w.Write(b)
}

func (openaiWire) stream(ctx context.Context, out *sse, req *Request, t *Turn, n int) error {
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
	for _, c := range t.chunks() {
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
		if err := chunk(map[string]any{"tool_calls": []any{first}}, nil); err != nil {
			return err
		}
		for _, p := range pieces {
			d := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
			if err := chunk(map[string]any{"tool_calls": []any{d}}, nil); err != nil {
				return err
			}
		}
	}
	if t.unfinished() {
		return nil
	}
	finish := "stop"
	if len(t.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	if t.StopReason != "" {
		finish = t.StopReason
	}
	if err := chunk(map[string]any{}, finish); err != nil {
		return err
	}
	b, _ := json.Marshal(map[string]any{
		"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": req.Model, "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
	if err := out.event("", b); err != nil {
		return err
	}
	return out.event("", []byte("[DONE]"))
}

func (openaiWire) streamError(out *sse, msg string) error {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "server_error", "param": nil, "code": nil}})
	return out.event("", b)
}
