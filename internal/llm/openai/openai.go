// Package openai is nb's provider for the OpenAI Chat Completions API, used
// for OpenAI itself, for Azure OpenAI (see the azure subpackage), for Gemini
// through its OpenAI-compatible endpoint, and for any OpenAI-compatible
// server reached by base URL (Ollama, vLLM, llama.cpp, LM Studio,
// OpenRouter).
package openai

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync/atomic"

	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/internal/apierr"
)

// Config configures a provider.
type Config struct {
	// Name is the provider's configured name ("openai" when empty).
	Name  string
	Model string
	// APIKey is sent as a bearer token; local servers accept any value.
	APIKey string
	// BaseURL overrides https://api.openai.com/v1.
	BaseURL string
	Headers map[string]string
	// MaxTokens bounds the answer; 0 leaves it to the server.
	MaxTokens int
	// Compatible marks an OpenAI-compatible server: max_tokens is sent
	// instead of max_completion_tokens, and thought signatures received with
	// tool calls are sent back with them.
	Compatible bool
	// ThoughtSignatures marks Gemini's OpenAI-compatible endpoint: the
	// thought signature of every tool call is sent back with it, and an
	// assistant message whose calls have none (a conversation begun with
	// another model) gets the placeholder Gemini documents for that case.
	ThoughtSignatures bool
	// HTTPClient replaces the default client.
	HTTPClient *http.Client
	// StrictRoles marks a server whose chat template accepts only
	// alternating user and assistant turns (no tool or system role): tool
	// calls and results are sent as text in those turns. nb also switches
	// to it by itself when a server rejects the roles of a request.
	StrictRoles bool
}

// Provider streams chat completions.
type Provider struct {
	name       string
	model      string
	maxTokens  int
	compatible bool
	signatures bool
	svc        oa.ChatCompletionService
	// opts are the client's options (the models service uses them too);
	// server reaches a compatible server's own endpoints (server.go).
	opts   []option.RequestOption
	server serverAccess
	// fold is set when the server's chat template accepts only
	// alternating user and assistant turns (roles.go).
	fold atomic.Bool
}

// New builds a provider. It does no network I/O.
func New(cfg Config) *Provider {
	opts := []option.RequestOption{option.WithAPIKey(cfg.APIKey)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	name := cfg.Name
	if name == "" {
		name = "openai"
	}
	p := NewWithOptions(name, cfg.Model, cfg.MaxTokens, cfg.Compatible, opts...)
	p.signatures = cfg.ThoughtSignatures
	p.server = serverAccess{base: cfg.BaseURL, key: cfg.APIKey, headers: cfg.Headers, client: cfg.HTTPClient}
	p.fold.Store(cfg.StrictRoles)
	return p
}

// NewWithOptions builds a provider from SDK options (the azure subpackage
// uses it). Environment defaults of the SDK are not consulted and the SDK's
// own retries are off: callers wrap the provider with llm.WithRetry.
func NewWithOptions(name, model string, maxTokens int, compatible bool, opts ...option.RequestOption) *Provider {
	base := []option.RequestOption{option.WithEnvironmentProduction(), option.WithMaxRetries(0)}
	all := append(base, opts...)
	return &Provider{
		name:       name,
		model:      model,
		maxTokens:  maxTokens,
		compatible: compatible,
		svc:        oa.NewChatCompletionService(all...),
		opts:       all,
	}
}

// Name implements llm.Provider.
func (p *Provider) Name() string { return p.name }

// Model implements llm.Provider.
func (p *Provider) Model() string { return p.model }

// Stream implements llm.Provider. A server that rejects the roles of the
// request (roles.go) gets it once more with tool calls and results as
// text, and every later request of this provider too.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	if onEvent == nil {
		onEvent = func(llm.Event) {}
	}
	delivered := false
	resp, err := p.stream(ctx, req, func(ev llm.Event) {
		delivered = true
		onEvent(ev)
	})
	if err == nil || delivered || p.fold.Load() || !rolesRejected(err) || ctx.Err() != nil {
		return resp, err
	}
	p.fold.Store(true)
	onEvent(llm.Event{Type: llm.EventRetry, Err: err, Text: "the server's chat template takes only alternating user and assistant turns: tool calls and results now go in those turns as text (\"strictRoles\": true in the provider's config starts that way); sending again"})
	return p.stream(ctx, req, onEvent)
}

// stream sends one request.
func (p *Provider) stream(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	b, err := p.newBody(req, true)
	if err != nil {
		return nil, &llm.Error{Kind: llm.ErrBadRequest, Provider: p.name, Message: err.Error(), Err: err}
	}
	// The SDK sets "stream": true in the body it is given, which would copy
	// a long history's body whole; it is given a small stub instead, and
	// the body, written as it is sent, goes out in its place.
	capture := &apierr.Capture{}
	mw := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		r.Body = io.NopCloser(b.reader())
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(b.reader()), nil }
		r.ContentLength = b.size
		return capture.Pass(next(r))
	})
	model := req.Model
	if model == "" {
		model = p.model
	}
	// The stub names the model: Azure's client routes by it.
	stub, _ := json.Marshal(map[string]string{"model": model})
	stream := p.svc.NewStreaming(ctx, oa.ChatCompletionNewParams{}, mw, option.WithRequestBody("application/json", stub))
	defer stream.Close()

	var asm assembler
	for stream.Next() {
		asm.add(stream.Current(), onEvent)
	}
	if err := stream.Err(); err != nil {
		return nil, p.classify(ctx, err, capture)
	}
	if ctx.Err() != nil {
		return nil, p.classify(ctx, ctx.Err(), capture)
	}
	if !asm.finished {
		return nil, apierr.StreamEnded(p.name)
	}
	return asm.response(), nil
}

func (p *Provider) classify(ctx context.Context, err error, c *apierr.Capture) error {
	var ae *oa.Error
	status, msg := 0, ""
	if errors.As(err, &ae) {
		status, msg = ae.StatusCode, ae.Message
	}
	var se *ssestream.StreamError
	if status == 0 && errors.As(err, &se) && ctx.Err() == nil {
		// An error event inside an otherwise healthy stream.
		msg := apierr.Message(se.Event.Data)
		if msg == "" {
			msg = "the server reported an error in the middle of the answer"
		}
		return &llm.Error{Kind: llm.ErrServer, Provider: p.name, Message: msg, Err: err}
	}
	return apierr.Classify(ctx, p.name, err, c, status, msg)
}

// Params converts a request to the SDK's parameters.
func (p *Provider) Params(req *llm.Request) (oa.ChatCompletionNewParams, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	params := oa.ChatCompletionNewParams{Model: shared.ChatModel(model)}
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = p.maxTokens
	}
	if maxTokens > 0 {
		if p.compatible {
			params.MaxTokens = param.NewOpt(int64(maxTokens))
		} else {
			params.MaxCompletionTokens = param.NewOpt(int64(maxTokens))
		}
	}
	// Usage is requested from every server: OpenAI-compatible servers
	// (vLLM, llama.cpp, Ollama, LM Studio, OpenRouter) report it too.
	params.StreamOptions = oa.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)}
	if req.Reasoning != "" {
		params.ReasoningEffort = shared.ReasoningEffort(req.Reasoning)
	}
	// The system prompt, the tools and the messages are serialised the same
	// way in every request, so the prefix a server caches stays byte-stable;
	// the request's facts come last, inside the last message (see wire).
	msgs, err := p.wire(req)
	if err != nil {
		return params, err
	}
	params.Messages = msgs
	for _, t := range req.Tools {
		def := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			def.Description = param.NewOpt(t.Description)
		}
		if len(t.Schema) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(t.Schema, &schema); err != nil {
				return params, fmt.Errorf("tool %s: schema: %w", t.Name, err)
			}
			def.Parameters = shared.FunctionParameters(schema)
		}
		params.Tools = append(params.Tools, oa.ChatCompletionFunctionTool(def))
	}
	return params, nil
}

// signaturePlaceholder is the value Gemini documents for tool calls whose
// thought signature is unknown, such as calls made by another model.
const signaturePlaceholder = "skip_thought_signature_validator"

// message converts one message; facts, when set, end it (a last text part
// after images, else after a blank line).
func (p *Provider) message(m llm.Message, facts string) (oa.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case llm.RoleUser:
		if len(m.Images) == 0 {
			return oa.UserMessage(joinText(m.Text, facts)), nil
		}
		var parts []oa.ChatCompletionContentPartUnionParam
		if m.Text != "" {
			parts = append(parts, oa.TextContentPart(m.Text))
		}
		for _, img := range m.Images {
			url := "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
			parts = append(parts, oa.ImageContentPart(oa.ChatCompletionContentPartImageImageURLParam{URL: url}))
		}
		if facts != "" {
			parts = append(parts, oa.TextContentPart(facts))
		}
		return oa.UserMessage(parts), nil
	case llm.RoleAssistant:
		var a oa.ChatCompletionAssistantMessageParam
		if m.Text != "" {
			a.Content.OfString = param.NewOpt(m.Text)
		}
		// Gemini validates the signature of the first call of each step.
		placeholder := p.placeholder(m.ToolCalls)
		for i, c := range m.ToolCalls {
			call := &oa.ChatCompletionMessageFunctionToolCallParam{
				ID: c.ID,
				Function: oa.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      c.Name,
					Arguments: c.Arguments,
				},
			}
			if sig := p.signature(c, placeholder && i == 0); sig != "" {
				call.SetExtraFields(map[string]any{"extra_content": googleExtra{Google: googleSignature{ThoughtSignature: sig}}})
			}
			a.ToolCalls = append(a.ToolCalls, oa.ChatCompletionMessageToolCallUnionParam{OfFunction: call})
		}
		return oa.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
	case llm.RoleTool:
		text := m.Text
		if text == "" {
			text = noOutput
		}
		return oa.ToolMessage(joinText(text, facts), m.ToolCallID), nil
	}
	return oa.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q", m.Role)
}

// placeholder reports whether the first call of an assistant message gets
// the placeholder signature: for Gemini, when none of its calls has one.
func (p *Provider) placeholder(calls []llm.ToolCall) bool {
	return p.signatures && !slices.ContainsFunc(calls, func(c llm.ToolCall) bool { return len(c.Signature) > 0 })
}

// signature is the thought signature sent with call ("" for none); first
// says it is the first call of a message that gets the placeholder.
func (p *Provider) signature(c llm.ToolCall, first bool) string {
	switch {
	case len(c.Signature) > 0 && (p.signatures || p.compatible):
		return string(c.Signature)
	case first:
		return signaturePlaceholder
	}
	return ""
}

// noOutput is the content of a tool result without text (the API
// refuses an empty one).
const noOutput = "(no output)"

// googleExtra is the extra_content Gemini attaches to a tool call.
type googleExtra struct {
	Google googleSignature `json:"google"`
}

type googleSignature struct {
	ThoughtSignature string `json:"thought_signature,omitempty"`
}

// signatureOf returns the thought signature a tool call delta carries.
func signatureOf(tc oa.ChatCompletionChunkChoiceDeltaToolCall) string {
	raw := tc.JSON.ExtraFields["extra_content"].Raw()
	if raw == "" {
		return ""
	}
	var e googleExtra
	if json.Unmarshal([]byte(raw), &e) != nil {
		return ""
	}
	return e.Google.ThoughtSignature
}

// assembler builds the response from chunks and emits events.
type assembler struct {
	text  llm.TextBuffer
	calls []llm.ToolCall
	// ids are the ids the server gave the calls ("" where it gave none).
	ids      []string
	byIndex  map[int64]int
	stop     string
	usage    llm.Usage
	finished bool
}

func (a *assembler) add(chunk oa.ChatCompletionChunk, onEvent func(llm.Event)) {
	if chunk.Usage.TotalTokens > 0 || chunk.Usage.PromptTokens > 0 {
		u := chunk.Usage
		a.usage = llm.Usage{
			InputTokens:       int(u.PromptTokens),
			OutputTokens:      int(u.CompletionTokens),
			CachedInputTokens: int(u.PromptTokensDetails.CachedTokens),
			ReasoningTokens:   int(u.CompletionTokensDetails.ReasoningTokens),
		}
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 {
			continue
		}
		d := ch.Delta
		if d.Content != "" {
			a.text.WriteString(d.Content)
			onEvent(llm.Event{Type: llm.EventText, Text: d.Content})
		}
		for _, tc := range d.ToolCalls {
			pos := a.position(tc)
			if pos < 0 {
				pos = len(a.calls)
				if tc.JSON.Index.Valid() {
					if a.byIndex == nil {
						a.byIndex = map[int64]int{}
					}
					a.byIndex[tc.Index] = pos
				}
				a.calls = append(a.calls, llm.ToolCall{ID: a.uniqueID(tc.ID, pos), Name: tc.Function.Name})
				a.ids = append(a.ids, tc.ID)
				onEvent(llm.Event{Type: llm.EventToolCallStart, Index: pos, ToolCall: a.calls[pos]})
			} else {
				c := &a.calls[pos]
				if tc.ID != "" && a.ids[pos] == "" {
					// The arguments came before the call's id.
					a.ids[pos] = tc.ID
					c.ID = a.uniqueID(tc.ID, pos)
				}
				if name := tc.Function.Name; name != "" && name != c.Name {
					// A name split across chunks is joined; one repeated
					// in every chunk is taken once.
					c.Name += name
				}
			}
			if sig := signatureOf(tc); sig != "" {
				a.calls[pos].Signature = []byte(sig)
			}
			if args := tc.Function.Arguments; args != "" {
				a.calls[pos].Arguments += args
				onEvent(llm.Event{Type: llm.EventToolCallDelta, Index: pos, Text: args})
			}
		}
		if ch.FinishReason != "" {
			a.finished = true
			a.stop = ch.FinishReason
		}
	}
}

// position finds the call a delta continues, -1 for a new call. OpenAI
// numbers calls by index, which decides (local servers may give two calls
// the same id). Gemini leaves the index out: a new id starts a new call,
// unless the latest call has neither id nor name yet (its arguments came
// first); an id seen before continues its call, unless that call is
// complete (named, with arguments) and the delta names a call again; a
// delta with neither index nor id continues the latest call.
func (a *assembler) position(tc oa.ChatCompletionChunkChoiceDeltaToolCall) int {
	if tc.JSON.Index.Valid() {
		if pos, ok := a.byIndex[tc.Index]; ok {
			return pos
		}
		return -1
	}
	last := len(a.calls) - 1
	if tc.ID != "" {
		pos := slices.Index(a.ids, tc.ID)
		switch {
		case pos >= 0 && tc.Function.Name != "" && a.calls[pos].Name != "" && a.calls[pos].Arguments != "":
			return -1
		case pos >= 0:
			return pos
		case last >= 0 && a.ids[last] == "" && a.calls[last].Name == "":
			return last
		}
		return -1
	}
	return last
}

// uniqueID is the id of the call at pos: the server's, made unique when
// another call already has it, or call_N when the server gave none.
func (a *assembler) uniqueID(id string, pos int) string {
	if id == "" {
		return fmt.Sprintf("call_%d", pos+1)
	}
	for i, c := range a.calls {
		if i != pos && c.ID == id {
			return fmt.Sprintf("%s_%d", id, pos+1)
		}
	}
	return id
}

func (a *assembler) response() *llm.Response {
	stop := a.stop
	switch stop {
	case "stop":
		stop = llm.StopEnd
	case "tool_calls", "function_call":
		stop = llm.StopToolUse
	case "length":
		stop = llm.StopMaxTokens
	}
	if len(a.calls) > 0 && stop == llm.StopEnd {
		// Some compatible servers say "stop" after tool calls.
		stop = llm.StopToolUse
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Text: a.text.String(), ToolCalls: a.calls},
		StopReason: stop,
		Usage:      a.usage,
	}
}
