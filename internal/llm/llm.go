// Package llm defines the provider-neutral conversation model shared by every
// language-model backend: messages, tool calls, streaming events and errors.
//
// Providers (internal/llm/openai, anthropic, gemini) translate these types to
// and from their wire formats; the agent loop only ever sees this package.
package llm

import (
	"context"
	"encoding/json"
	"fmt"
)

// Role says who authored a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of one tool call back to the model.
	RoleTool Role = "tool"
)

// Image is an inline picture attached to a user message.
type Image struct {
	MediaType string `json:"mediaType"` // e.g. "image/png"
	Data      []byte `json:"data"`      // raw bytes; JSON-encoded as base64
	Name      string `json:"name,omitempty"`
}

// ToolCall is one request by the model to run a tool.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the raw JSON text the model produced. It may be invalid
	// JSON; tools report that back to the model as an error it can correct.
	Arguments string `json:"arguments"`
	// Signature is opaque provider data that must be sent back with the call
	// in later requests (Gemini's thought signature). Callers keep it as is.
	Signature []byte `json:"signature,omitempty"`
}

// Message is one entry of the conversation.
type Message struct {
	Role   Role    `json:"role"`
	Text   string  `json:"text,omitempty"`
	Images []Image `json:"images,omitempty"`
	// ToolCalls is set on assistant messages that request tools.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolCallID, ToolName and IsError are set on RoleTool messages.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	IsError    bool   `json:"isError,omitempty"`
	// Thinking holds an assistant message's reasoning blocks (Anthropic
	// extended thinking). They are sent back unchanged with the message and
	// never shown as answer text.
	Thinking []Thinking `json:"thinking,omitempty"`
	// Usage and Model are set on assistant messages: what the request that
	// produced the message cost, and which model answered.
	Usage *Usage `json:"usage,omitempty"`
	Model string `json:"model,omitempty"`
	// Summary marks a user message that stands for older turns replaced by
	// a model-written summary (compaction).
	Summary bool `json:"summary,omitempty"`
	// Partial marks an assistant message whose answer was cut (the stream
	// stalled or dropped, the provider failed, Ctrl+C): its text is only
	// what arrived.
	Partial bool `json:"partial,omitempty"`
	// Extra holds the fields of a saved message this version of nb does
	// not know (another version wrote them), kept as they were so that
	// saving the conversation again does not lose them.
	Extra map[string]json.RawMessage `json:"-"`
}

// BadRole finds the first message whose role is none of user, assistant
// and tool: its index and a description ("no role", "the unknown role
// \"system\""), or -1.
func BadRole(msgs []Message) (int, string) {
	for i, m := range msgs {
		switch m.Role {
		case RoleUser, RoleAssistant, RoleTool:
		case "":
			return i, "no role"
		default:
			return i, fmt.Sprintf("the unknown role %q", m.Role)
		}
	}
	return -1, ""
}

// Thinking is one reasoning block of an assistant message. Signature (or,
// for a redacted block, Redacted) is the provider's opaque proof that must
// come back unchanged.
type Thinking struct {
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"` // JSON Schema of the arguments object
}

// Request is one model call.
type Request struct {
	Model string
	// System is the stable system prompt: it, the tools and the messages
	// form the prefix providers cache, so it must not change between turns.
	System   string
	Messages []Message
	Tools    []ToolSpec
	// Facts are per-request facts (the working directory, the date) that
	// change between requests. Providers place them after the cacheable
	// prefix, at the end of the request, so that they never invalidate it.
	Facts     string
	MaxTokens int
	// Reasoning is the reasoning effort for models that support it.
	Reasoning Effort
	// ThinkingBudget, when positive, turns on Anthropic extended thinking
	// with this many tokens.
	ThinkingBudget int
	// Internal marks a request nb makes for itself (the summary of older
	// turns): its answer is not shown or reported as the model's answer.
	Internal bool
}

// Effort is a reasoning effort: "", EffortLow, EffortMedium or EffortHigh.
type Effort string

// Reasoning efforts.
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
)

// ParseEffort checks a reasoning effort given by the user.
func ParseEffort(s string) (Effort, error) {
	switch e := Effort(s); e {
	case "", EffortLow, EffortMedium, EffortHigh:
		return e, nil
	}
	return "", fmt.Errorf("reasoning effort must be low, medium or high (got %q)", s)
}

// EventType names a streaming event.
type EventType int

const (
	// EventText carries a chunk of answer text in Event.Text.
	EventText EventType = iota
	// EventToolCallStart says the model began a tool call (Event.ToolCall has
	// ID and Name; Arguments still streaming).
	EventToolCallStart
	// EventToolCallDelta carries a chunk of tool-call arguments in Event.Text
	// for the call at Event.Index.
	EventToolCallDelta
	// EventRetry says a transient failure is being retried (Event.Err, Event.Text
	// holds a human-readable "retrying in 2s" note).
	EventRetry
)

// Event is one streaming notification.
type Event struct {
	Type     EventType
	Text     string
	Index    int
	ToolCall ToolCall
	Err      error
}

// Normalised values of Response.StopReason.
const (
	StopEnd       = "end"        // the model finished its answer
	StopToolUse   = "tool_use"   // the model wants tool results
	StopMaxTokens = "max_tokens" // the answer was cut at the token limit
)

// Usage reports token counts when the provider gives them. InputTokens
// counts every input token of the request, including those read from or
// written to the provider's prompt cache; OutputTokens includes reasoning.
type Usage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	// CachedInputTokens of InputTokens were served from the prompt cache.
	CachedInputTokens int `json:"cachedInputTokens,omitempty"`
	// CacheWriteTokens of InputTokens were written to the prompt cache
	// (Anthropic bills them differently).
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
	// ReasoningTokens of OutputTokens were spent thinking.
	ReasoningTokens int `json:"reasoningTokens,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:       u.InputTokens + v.InputTokens,
		OutputTokens:      u.OutputTokens + v.OutputTokens,
		CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens,
		CacheWriteTokens:  u.CacheWriteTokens + v.CacheWriteTokens,
		ReasoningTokens:   u.ReasoningTokens + v.ReasoningTokens,
	}
}

// IsZero reports whether no tokens were counted.
func (u Usage) IsZero() bool { return u == Usage{} }

// Response is the complete assistant turn assembled from the stream.
type Response struct {
	Message Message // Role is RoleAssistant
	// StopReason is StopEnd, StopToolUse, StopMaxTokens, or the provider's
	// own word for anything else.
	StopReason string
	Usage      Usage
}

// Provider is one configured model backend.
type Provider interface {
	// Name is the configured provider name ("openai", "work-azure", ...).
	Name() string
	// Model is the model that Stream uses.
	Model() string
	// Stream sends req and calls onEvent for every streaming event, in order,
	// from the calling goroutine. It returns the assembled response, or an
	// *Error. Cancelling ctx aborts the request promptly.
	Stream(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error)
}
