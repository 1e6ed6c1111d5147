// Package gemini is nb's provider for the Gemini API (generateContent
// streaming) through the official google.golang.org/genai SDK.
package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/genai"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/internal/apierr"
)

// Config configures a provider.
type Config struct {
	// Name is the provider's configured name ("gemini" when empty).
	Name   string
	Model  string
	APIKey string
	// BaseURL overrides https://generativelanguage.googleapis.com/.
	BaseURL    string
	Headers    map[string]string
	MaxTokens  int
	HTTPClient *http.Client
}

// Provider streams generateContent.
type Provider struct {
	name      string
	model     string
	maxTokens int
	models    *genai.Models
}

// generatedID marks tool call ids nb made up because the API gave none;
// they are not sent back.
const generatedID = "nbgen_"

// New builds a provider. It does no network I/O. The SDK's retries stay
// off (see llm.WithRetry).
func New(cfg Config) (*Provider, error) {
	var base http.RoundTripper
	if cfg.HTTPClient != nil {
		base = cfg.HTTPClient.Transport
	}
	client := &http.Client{Transport: &apierr.Transport{Base: base, Quiet: true}}
	opts := genai.HTTPOptions{BaseURL: cfg.BaseURL}
	if len(cfg.Headers) > 0 {
		opts.Headers = http.Header{}
		for k, v := range cfg.Headers {
			opts.Headers.Set(k, v)
		}
	}
	if opts.BaseURL == "" {
		opts.BaseURL = "https://generativelanguage.googleapis.com/"
	}
	name := cfg.Name
	if name == "" {
		name = "gemini"
	}
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      cfg.APIKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  client,
		HTTPOptions: opts,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Provider{name: name, model: cfg.Model, maxTokens: cfg.MaxTokens, models: c.Models}, nil
}

// Name implements llm.Provider.
func (p *Provider) Name() string { return p.name }

// Model implements llm.Provider.
func (p *Provider) Model() string { return p.model }

// Stream implements llm.Provider.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	if onEvent == nil {
		onEvent = func(llm.Event) {}
	}
	contents, config, err := p.Params(req)
	if err != nil {
		return nil, &llm.Error{Kind: llm.ErrBadRequest, Provider: p.name, Message: err.Error(), Err: err}
	}
	model := req.Model
	if model == "" {
		model = p.model
	}
	capture := &apierr.Capture{}
	cctx := apierr.WithCapture(ctx, capture)
	var asm assembler
	for resp, err := range p.models.GenerateContentStream(cctx, model, contents, config) {
		if err != nil {
			return nil, p.classify(ctx, err, capture)
		}
		asm.add(resp, onEvent)
	}
	if ctx.Err() != nil {
		return nil, p.classify(ctx, ctx.Err(), capture)
	}
	if err := capture.ReadErr(); err != nil {
		return nil, p.classify(ctx, err, capture)
	}
	if !asm.finished {
		return nil, apierr.StreamEnded(p.name)
	}
	return asm.response(), nil
}

func (p *Provider) classify(ctx context.Context, err error, c *apierr.Capture) error {
	status, msg := 0, ""
	var ae genai.APIError
	var pae *genai.APIError
	switch {
	case errors.As(err, &ae):
		status, msg = ae.Code, ae.Message
	case errors.As(err, &pae):
		status, msg = pae.Code, pae.Message
	}
	if c.Status() != 0 {
		// The SDK's message may be a raw (HTML) body: the captured body is
		// parsed instead.
		msg = ""
	} else if status != 0 {
		// An error object inside the stream.
		msg = apierr.OneLine(msg)
	}
	return apierr.Classify(ctx, p.name, err, c, status, msg)
}

// Params converts a request to the SDK's contents and configuration.
func (p *Provider) Params(req *llm.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	config := &genai.GenerateContentConfig{}
	if req.System != "" {
		config.SystemInstruction = genai.NewContentFromText(req.System, genai.RoleUser)
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.maxTokens
	}
	if maxTokens > 0 {
		config.MaxOutputTokens = int32(maxTokens)
	}
	if len(req.Tools) > 0 {
		tool := &genai.Tool{}
		for _, t := range req.Tools {
			fd := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
			if len(t.Schema) > 0 {
				var schema map[string]any
				if err := json.Unmarshal(t.Schema, &schema); err != nil {
					return nil, nil, fmt.Errorf("tool %s: schema: %w", t.Name, err)
				}
				fd.ParametersJsonSchema = schema
			}
			tool.FunctionDeclarations = append(tool.FunctionDeclarations, fd)
		}
		config.Tools = []*genai.Tool{tool}
	}
	var contents []*genai.Content
	add := func(role genai.Role, parts ...*genai.Part) {
		if len(parts) == 0 {
			return
		}
		if n := len(contents); n > 0 && contents[n-1].Role == string(role) {
			contents[n-1].Parts = append(contents[n-1].Parts, parts...)
			return
		}
		contents = append(contents, &genai.Content{Role: string(role), Parts: parts})
	}
	names := map[string]string{} // tool call id → name
	for i, m := range req.Messages {
		switch m.Role {
		case llm.RoleUser:
			var parts []*genai.Part
			if m.Text != "" {
				parts = append(parts, genai.NewPartFromText(m.Text))
			}
			for _, img := range m.Images {
				parts = append(parts, genai.NewPartFromBytes(img.Data, img.MediaType))
			}
			add(genai.RoleUser, parts...)
		case llm.RoleAssistant:
			var parts []*genai.Part
			if m.Text != "" {
				parts = append(parts, genai.NewPartFromText(m.Text))
			}
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Name
				part := &genai.Part{FunctionCall: &genai.FunctionCall{Name: c.Name, Args: args(c.Arguments)}, ThoughtSignature: c.Signature}
				if !strings.HasPrefix(c.ID, generatedID) {
					part.FunctionCall.ID = c.ID
				}
				parts = append(parts, part)
			}
			add(genai.RoleModel, parts...)
		case llm.RoleTool:
			name := m.ToolName
			if name == "" {
				name = names[m.ToolCallID]
			}
			resp := map[string]any{"output": m.Text}
			if m.IsError {
				resp = map[string]any{"error": m.Text}
			}
			fr := &genai.FunctionResponse{Name: name, Response: resp}
			if !strings.HasPrefix(m.ToolCallID, generatedID) {
				fr.ID = m.ToolCallID
			}
			add(genai.RoleUser, &genai.Part{FunctionResponse: fr})
		default:
			return nil, nil, fmt.Errorf("message %d: unknown role %q", i+1, m.Role)
		}
	}
	return contents, config, nil
}

// args decodes tool arguments; arguments that are not a JSON object are
// passed under one key so that the model sees what it sent.
func args(s string) map[string]any {
	var m map[string]any
	if s == "" {
		return map[string]any{}
	}
	if json.Unmarshal([]byte(s), &m) == nil && m != nil {
		return m
	}
	return map[string]any{"invalid_arguments": s}
}

type assembler struct {
	text     []byte
	calls    []llm.ToolCall
	stop     string
	usage    llm.Usage
	finished bool
}

func (a *assembler) add(resp *genai.GenerateContentResponse, onEvent func(llm.Event)) {
	if u := resp.UsageMetadata; u != nil {
		a.usage = llm.Usage{InputTokens: int(u.PromptTokenCount), OutputTokens: int(u.CandidatesTokenCount)}
	}
	if len(resp.Candidates) == 0 {
		if pf := resp.PromptFeedback; pf != nil && pf.BlockReason != "" {
			a.finished = true
			a.stop = string(pf.BlockReason)
		}
		return
	}
	c := resp.Candidates[0]
	if c.Content != nil {
		for _, part := range c.Content.Parts {
			switch {
			case part.Thought:
				// Thought summaries are not part of the answer.
			case part.FunctionCall != nil:
				pos := len(a.calls)
				id := part.FunctionCall.ID
				if id == "" {
					id = fmt.Sprintf("%s%d", generatedID, pos+1)
				}
				argText := "{}"
				if part.FunctionCall.Args != nil {
					if b, err := json.Marshal(part.FunctionCall.Args); err == nil {
						argText = string(b)
					}
				}
				call := llm.ToolCall{ID: id, Name: part.FunctionCall.Name, Signature: part.ThoughtSignature}
				a.calls = append(a.calls, call)
				onEvent(llm.Event{Type: llm.EventToolCallStart, Index: pos, ToolCall: call})
				a.calls[pos].Arguments = argText
				onEvent(llm.Event{Type: llm.EventToolCallDelta, Index: pos, Text: argText})
			case part.Text != "":
				a.text = append(a.text, part.Text...)
				onEvent(llm.Event{Type: llm.EventText, Text: part.Text})
			}
		}
	}
	if c.FinishReason != "" {
		a.finished = true
		a.stop = string(c.FinishReason)
	}
}

func (a *assembler) response() *llm.Response {
	stop := a.stop
	switch stop {
	case string(genai.FinishReasonStop):
		stop = llm.StopEnd
	case string(genai.FinishReasonMaxTokens):
		stop = llm.StopMaxTokens
	}
	if len(a.calls) > 0 && (stop == llm.StopEnd || stop == "") {
		stop = llm.StopToolUse
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Text: string(a.text), ToolCalls: a.calls},
		StopReason: stop,
		Usage:      a.usage,
	}
}
