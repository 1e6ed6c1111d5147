// Package anthropic is nb's provider for the Anthropic Messages API.
package anthropic

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/internal/apierr"
)

// DefaultMaxTokens bounds answers when the configuration does not: the
// Messages API requires a limit.
const DefaultMaxTokens = 8192

// Config configures a provider.
type Config struct {
	// Name is the provider's configured name ("anthropic" when empty).
	Name   string
	Model  string
	APIKey string
	// BaseURL overrides https://api.anthropic.com.
	BaseURL    string
	Headers    map[string]string
	MaxTokens  int
	HTTPClient *http.Client
}

// Provider streams messages.
type Provider struct {
	name      string
	model     string
	maxTokens int
	svc       sdk.MessageService
}

// New builds a provider. It does no network I/O and ignores the SDK's
// environment defaults; the SDK's own retries are off (see llm.WithRetry).
func New(cfg Config) *Provider {
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(0),
	}
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
		name = "anthropic"
	}
	maxTokens := cfg.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	return &Provider{name: name, model: cfg.Model, maxTokens: maxTokens, svc: sdk.NewMessageService(opts...)}
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
	params, err := p.Params(req)
	if err != nil {
		return nil, &llm.Error{Kind: llm.ErrBadRequest, Provider: p.name, Message: err.Error(), Err: err}
	}
	capture := &apierr.Capture{}
	mw := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		return capture.Pass(next(r))
	})
	stream := p.svc.NewStreaming(ctx, params, mw)
	defer stream.Close()

	asm := assembler{blocks: map[int64]int{}}
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
	var ae *sdk.Error
	status, msg := 0, ""
	if errors.As(err, &ae) {
		status, msg = ae.StatusCode, ae.Message
		if status < 400 && ctx.Err() == nil {
			// An error event inside the stream (overloaded, for example).
			kind := llm.ErrServer
			if t := string(ae.Type()); t == "rate_limit_error" {
				kind = llm.ErrRateLimit
			}
			if msg == "" {
				msg = "the server reported an error in the middle of the answer"
			}
			return &llm.Error{Kind: kind, Provider: p.name, Message: apierr.OneLine(msg), Err: err}
		}
	}
	return apierr.Classify(ctx, p.name, err, c, status, msg)
}

// Params converts a request to the SDK's parameters. Consecutive messages
// of the same role are merged, and tool results go in user messages, as the
// Messages API requires.
//
// Prompt caching: the system prompt carries a cache breakpoint (caching the
// tools and the system prompt), and so do the last block of the
// conversation and of the user message before it, so each request reads the
// prefix the previous one wrote. The request's facts come after the last
// breakpoint, as a text block of their own, and never invalidate the cache.
func (p *Provider) Params(req *llm.Request) (sdk.MessageNewParams, error) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = p.maxTokens
	}
	params := sdk.MessageNewParams{Model: sdk.Model(model), MaxTokens: int64(maxTokens)}
	if req.ThinkingBudget > 0 {
		budget := max(req.ThinkingBudget, MinThinkingBudget)
		params.Thinking = sdk.ThinkingConfigParamOfEnabled(int64(budget))
		if params.MaxTokens <= int64(budget) {
			// max_tokens counts the thinking too and must exceed the budget.
			params.MaxTokens = int64(budget + maxTokens)
		}
	}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	type group struct {
		role   llm.Role
		blocks []sdk.ContentBlockParamUnion
	}
	var groups []group
	for i, m := range req.Messages {
		role, blocks, err := convert(m, req.ThinkingBudget > 0)
		if err != nil {
			return params, fmt.Errorf("message %d: %w", i+1, err)
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(groups); n > 0 && groups[n-1].role == role {
			groups[n-1].blocks = append(groups[n-1].blocks, blocks...)
			continue
		}
		groups = append(groups, group{role: role, blocks: blocks})
	}
	// Breakpoints on the last block and on the previous user message.
	marked := 0
	for i := len(groups) - 1; i >= 0 && marked < 2; i-- {
		if marked > 0 && groups[i].role != llm.RoleUser {
			continue
		}
		if cc := groups[i].blocks[len(groups[i].blocks)-1].GetCacheControl(); cc != nil {
			*cc = sdk.NewCacheControlEphemeralParam()
			marked++
		}
	}
	if req.Facts != "" {
		facts := sdk.NewTextBlock(req.Facts)
		if n := len(groups); n > 0 && groups[n-1].role == llm.RoleUser {
			groups[n-1].blocks = append(groups[n-1].blocks, facts)
		} else {
			groups = append(groups, group{role: llm.RoleUser, blocks: []sdk.ContentBlockParamUnion{facts}})
		}
	}
	for _, g := range groups {
		if g.role == llm.RoleAssistant {
			params.Messages = append(params.Messages, sdk.NewAssistantMessage(g.blocks...))
		} else {
			params.Messages = append(params.Messages, sdk.NewUserMessage(g.blocks...))
		}
	}
	for _, t := range req.Tools {
		schema, err := inputSchema(t.Schema)
		if err != nil {
			return params, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		tool := sdk.ToolUnionParamOfTool(schema, t.Name)
		if t.Description != "" {
			tool.OfTool.Description = sdk.String(t.Description)
		}
		params.Tools = append(params.Tools, tool)
	}
	return params, nil
}

// MinThinkingBudget is the smallest extended-thinking budget the API takes.
const MinThinkingBudget = 1024

// convert returns the wire role (user or assistant) and blocks of m.
// Thinking blocks are sent back (first, signatures unchanged) only when
// thinking is on.
func convert(m llm.Message, thinking bool) (llm.Role, []sdk.ContentBlockParamUnion, error) {
	var blocks []sdk.ContentBlockParamUnion
	switch m.Role {
	case llm.RoleUser:
		for _, img := range m.Images {
			blocks = append(blocks, sdk.NewImageBlockBase64(img.MediaType, base64.StdEncoding.EncodeToString(img.Data)))
		}
		if m.Text != "" {
			blocks = append(blocks, sdk.NewTextBlock(m.Text))
		}
		return llm.RoleUser, blocks, nil
	case llm.RoleAssistant:
		for _, t := range m.Thinking {
			switch {
			case !thinking:
			case t.Redacted != "":
				blocks = append(blocks, sdk.NewRedactedThinkingBlock(t.Redacted))
			case t.Signature != "":
				blocks = append(blocks, sdk.NewThinkingBlock(t.Signature, t.Text))
			}
		}
		if m.Text != "" {
			blocks = append(blocks, sdk.NewTextBlock(m.Text))
		}
		for _, c := range m.ToolCalls {
			blocks = append(blocks, sdk.NewToolUseBlock(c.ID, toolInput(c.Arguments), c.Name))
		}
		return llm.RoleAssistant, blocks, nil
	case llm.RoleTool:
		res := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
		if m.Text != "" {
			res.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: m.Text}}}
		}
		if m.IsError {
			res.IsError = sdk.Bool(true)
		}
		return llm.RoleUser, []sdk.ContentBlockParamUnion{{OfToolResult: &res}}, nil
	}
	return "", nil, fmt.Errorf("unknown role %q", m.Role)
}

// toolInput is the tool_use input sent back to the API: it must be an
// object (llm.SendableArguments).
func toolInput(args string) any {
	return json.RawMessage(llm.SendableArguments(args))
}

func inputSchema(raw json.RawMessage) (sdk.ToolInputSchemaParam, error) {
	// The API requires input_schema, so an empty schema is still sent as
	// {"type":"object","properties":{}}.
	s := sdk.ToolInputSchemaParam{Properties: map[string]any{}}
	if len(raw) == 0 {
		return s, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return s, fmt.Errorf("schema: %w", err)
	}
	if props, ok := m["properties"]; ok {
		s.Properties = props
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	for k, v := range m {
		switch k {
		case "properties", "required", "type":
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[k] = v
		}
	}
	return s, nil
}

// assembler builds the response from stream events and emits llm events.
type assembler struct {
	text     llm.TextBuffer
	thinking []llm.Thinking
	// thinkingAt maps a thinking block's index to its position.
	thinkingAt map[int64]int
	calls      []llm.ToolCall
	blocks     map[int64]int // content block index → position in calls
	stop       string
	usage      llm.Usage
	finished   bool
}

func (a *assembler) add(ev sdk.MessageStreamEventUnion, onEvent func(llm.Event)) {
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		a.setInput(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
		a.usage.OutputTokens = int(u.OutputTokens)
	case "content_block_start":
		switch ev.ContentBlock.Type {
		case "thinking", "redacted_thinking":
			if a.thinkingAt == nil {
				a.thinkingAt = map[int64]int{}
			}
			a.thinkingAt[ev.Index] = len(a.thinking)
			a.thinking = append(a.thinking, llm.Thinking{Text: ev.ContentBlock.Thinking, Signature: ev.ContentBlock.Signature, Redacted: ev.ContentBlock.Data})
			return
		}
		if ev.ContentBlock.Type == "tool_use" {
			pos := len(a.calls)
			a.blocks[ev.Index] = pos
			a.calls = append(a.calls, llm.ToolCall{ID: ev.ContentBlock.ID, Name: ev.ContentBlock.Name})
			onEvent(llm.Event{Type: llm.EventToolCallStart, Index: pos, ToolCall: a.calls[pos]})
		} else if t := ev.ContentBlock.Text; ev.ContentBlock.Type == "text" && t != "" {
			a.text.WriteString(t)
			onEvent(llm.Event{Type: llm.EventText, Text: t})
		}
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			if ev.Delta.Text != "" {
				a.text.WriteString(ev.Delta.Text)
				onEvent(llm.Event{Type: llm.EventText, Text: ev.Delta.Text})
			}
		case "thinking_delta", "signature_delta":
			if pos, ok := a.thinkingAt[ev.Index]; ok {
				a.thinking[pos].Text += ev.Delta.Thinking
				a.thinking[pos].Signature += ev.Delta.Signature
			}
		case "input_json_delta":
			pos, ok := a.blocks[ev.Index]
			if ok && ev.Delta.PartialJSON != "" {
				a.calls[pos].Arguments += ev.Delta.PartialJSON
				onEvent(llm.Event{Type: llm.EventToolCallDelta, Index: pos, Text: ev.Delta.PartialJSON})
			}
		}
	case "message_delta":
		if ev.Delta.StopReason != "" {
			a.stop = string(ev.Delta.StopReason)
		}
		if ev.Usage.OutputTokens > 0 {
			a.usage.OutputTokens = int(ev.Usage.OutputTokens)
		}
		if r := ev.Usage.OutputTokensDetails.ThinkingTokens; r > 0 {
			a.usage.ReasoningTokens = int(r)
		}
		if u := ev.Usage; u.InputTokens > 0 || u.CacheReadInputTokens > 0 || u.CacheCreationInputTokens > 0 {
			a.setInput(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens)
		}
	case "message_stop":
		a.finished = true
	}
}

// setInput records input usage: the API counts cache reads and writes
// apart from input_tokens; llm.Usage counts them in InputTokens.
func (a *assembler) setInput(input, read, write int64) {
	a.usage.InputTokens = int(input + read + write)
	a.usage.CachedInputTokens = int(read)
	a.usage.CacheWriteTokens = int(write)
}

func (a *assembler) response() *llm.Response {
	for i := range a.calls {
		if a.calls[i].Arguments == "" {
			// A tool with no parameters streams no input deltas.
			a.calls[i].Arguments = "{}"
		}
	}
	stop := a.stop
	switch stop {
	case "end_turn", "stop_sequence":
		stop = llm.StopEnd
	case "tool_use":
		stop = llm.StopToolUse
	case "max_tokens":
		stop = llm.StopMaxTokens
	}
	return &llm.Response{
		Message:    llm.Message{Role: llm.RoleAssistant, Text: a.text.String(), ToolCalls: a.calls, Thinking: a.thinking},
		StopReason: stop,
		Usage:      a.usage,
	}
}
