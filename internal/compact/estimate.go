// Package compact keeps a conversation inside the model's context window:
// it estimates the size of a request before it is sent, shrinks old tool
// results to their first lines plus the path of the saved full output,
// caps what one message may add to the saved history, and builds the
// request that asks the model to summarise older turns and the
// conversation that replaces them.
package compact

import (
	"strings"

	"github.com/nb-cli/nb/internal/llm"
)

// Per-item overheads of the wire formats, in tokens.
const (
	messageOverhead = 8
	imageTokens     = 1600
)

// Text estimates the tokens of s: a quarter of its bytes, with the
// characters that JSON escapes counted twice.
func Text(s string) int {
	if s == "" {
		return 0
	}
	n := len(s) + strings.Count(s, "\n") + strings.Count(s, `"`)
	return (n + 3) / 4
}

// Message estimates one message.
func Message(m llm.Message) int {
	n := messageOverhead + Text(m.Text) + len(m.Images)*imageTokens
	for _, c := range m.ToolCalls {
		n += messageOverhead + Text(c.Name) + Text(c.Arguments) + (len(c.Signature)+3)/4
	}
	for _, t := range m.Thinking {
		n += Text(t.Text) + (len(t.Signature)+len(t.Redacted)+3)/4
	}
	return n
}

// Messages estimates a list of messages.
func Messages(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += Message(m)
	}
	return n
}

// Fixed estimates what a request carries besides its messages: the system
// prompt, the tools and the facts.
func Fixed(req *llm.Request) int {
	n := Text(req.System) + Text(req.Facts) + messageOverhead
	for _, t := range req.Tools {
		n += messageOverhead + Text(t.Name) + Text(t.Description) + Text(string(t.Schema))
	}
	return n
}

// Request estimates the input tokens of a whole request.
func Request(req *llm.Request) int { return Fixed(req) + Messages(req.Messages) }
