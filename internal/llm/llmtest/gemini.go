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

// geminiWire speaks generateContent streaming at
// /{version}/models/{model}:streamGenerateContent?alt=sse.
type geminiWire struct{}

func (geminiWire) basePath() string { return "" }

type gmPart struct {
	Text       string `json:"text,omitempty"`
	InlineData *struct {
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	} `json:"inlineData,omitempty"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse,omitempty"`
	ThoughtSignature string `json:"thoughtSignature,omitempty"`
}

type gmContent struct {
	Role  string   `json:"role"`
	Parts []gmPart `json:"parts"`
}

type gmRequest struct {
	Contents          []gmContent `json:"contents"`
	SystemInstruction *gmContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		MaxOutputTokens int `json:"maxOutputTokens"`
	} `json:"generationConfig"`
}

func (geminiWire) decode(r *http.Request, body []byte) (*Request, []string, error) {
	path := r.URL.Path
	i := strings.Index(path, "/models/")
	if i < 0 || !strings.HasSuffix(path, ":streamGenerateContent") {
		return nil, nil, fmt.Errorf("unexpected path (want /v1beta/models/MODEL:streamGenerateContent)")
	}
	model := strings.TrimSuffix(path[i+len("/models/"):], ":streamGenerateContent")
	var probs []string
	if r.URL.Query().Get("alt") != "sse" {
		probs = append(probs, "stream request without alt=sse")
	}
	if r.Header.Get("X-Goog-Api-Key") == "" && r.URL.Query().Get("key") == "" {
		probs = append(probs, "request without API key")
	}
	var in gmRequest
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, nil, fmt.Errorf("request body is not generateContent JSON: %v", err)
	}
	req := &Request{Kind: "gemini", Path: path, Header: r.Header.Clone(), Model: model, Stream: true, MaxTokens: in.GenerationConfig.MaxOutputTokens}
	if model == "" {
		probs = append(probs, "request has no model")
	}
	if len(in.Contents) == 0 {
		probs = append(probs, "request has no contents")
	}
	for _, t := range in.Tools {
		for _, f := range t.FunctionDeclarations {
			req.Tools = append(req.Tools, f.Name)
		}
	}
	if in.SystemInstruction != nil {
		var text []string
		for _, p := range in.SystemInstruction.Parts {
			text = append(text, p.Text)
		}
		req.System = strings.Join(text, "\n")
	}
	for n, c := range in.Contents {
		msg := Message{Role: c.Role}
		if c.Role == "model" {
			msg.Role = "assistant"
		} else if c.Role != "user" {
			probs = append(probs, fmt.Sprintf("content %d: unknown role %q", n+1, c.Role))
		}
		var text []string
		for _, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				if p.ThoughtSignature == "" {
					probs = append(probs, fmt.Sprintf("content %d: function call %q sent back without its thought signature", n+1, p.FunctionCall.Name))
				}
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: gmID(p.FunctionCall.ID, p.FunctionCall.Name), Name: p.FunctionCall.Name, Arguments: string(p.FunctionCall.Args)})
			case p.FunctionResponse != nil:
				var resp map[string]any
				_ = json.Unmarshal(p.FunctionResponse.Response, &resp)
				tr := ToolResult{CallID: gmID(p.FunctionResponse.ID, p.FunctionResponse.Name), Name: p.FunctionResponse.Name}
				if s, ok := resp["error"].(string); ok {
					tr.Content, tr.IsError = s, true
				} else if s, ok := resp["output"].(string); ok {
					tr.Content = s
				} else {
					tr.Content = string(p.FunctionResponse.Response)
				}
				msg.ToolResults = append(msg.ToolResults, tr)
			case p.InlineData != nil:
				data, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
				if err != nil {
					probs = append(probs, fmt.Sprintf("content %d: inline data: %v", n+1, err))
				}
				msg.Images = append(msg.Images, Image{MediaType: p.InlineData.MimeType, Data: data})
			default:
				text = append(text, p.Text)
			}
		}
		msg.Text = strings.Join(text, "")
		req.Messages = append(req.Messages, msg)
	}
	probs = append(probs, checkToolPairs(req.Messages)...)
	return req, probs, nil
}

// gmID pairs calls and responses by id when present, else by name.
func gmID(id, name string) string {
	if id != "" {
		return id
	}
	return "name:" + name
}

func (geminiWire) writeError(w http.ResponseWriter, t *Turn) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	if t.Body != "" {
		io.WriteString(w, t.Body)
		return
	}
	status := "INTERNAL"
	switch t.Status {
	case 400:
		status = "INVALID_ARGUMENT"
	case 401:
		status = "UNAUTHENTICATED"
	case 403:
		status = "PERMISSION_DENIED"
	case 404:
		status = "NOT_FOUND"
	case 429:
		status = "RESOURCE_EXHAUSTED"
	case 503:
		status = "UNAVAILABLE"
	}
	msg := t.Message
	if msg == "" {
		msg = http.StatusText(t.Status)
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": t.Status, "message": msg, "status": status}})
	w.Write(b)
}

func (geminiWire) stream(ctx context.Context, out *sse, req *Request, t *Turn, n int) error {
	send := func(parts []any, finish string) error {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		v := map[string]any{"candidates": []any{cand}, "modelVersion": req.Model}
		if finish != "" {
			cand["finishReason"] = finish
			v["usageMetadata"] = map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
		}
		b, _ := json.Marshal(v)
		return out.event("", b)
	}
	for _, c := range t.chunks() {
		if err := send([]any{map[string]any{"text": c}}, ""); err != nil {
			return err
		}
	}
	var calls []any
	for i, tc := range t.ToolCalls {
		var args any = map[string]any{}
		if tc.Arguments != "" {
			if err := json.Unmarshal([]byte(tc.Arguments), &args); err != nil {
				return fmt.Errorf("gemini cannot carry tool arguments that are not JSON: %w", err)
			}
		}
		fc := map[string]any{"name": tc.Name, "args": args}
		if tc.ID != "" {
			fc["id"] = tc.ID
		}
		sig := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "sig-%d-%d", n+1, i+1))
		calls = append(calls, map[string]any{"functionCall": fc, "thoughtSignature": sig})
	}
	if t.unfinished() {
		if len(calls) > 0 {
			return send(calls, "")
		}
		return nil
	}
	finish := "STOP"
	if t.StopReason != "" {
		finish = t.StopReason
	}
	if len(calls) == 0 {
		calls = []any{map[string]any{"text": ""}}
	}
	return send(calls, finish)
}

func (geminiWire) streamError(out *sse, msg string) error {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 503, "message": msg, "status": "UNAVAILABLE"}})
	return out.event("", b)
}
