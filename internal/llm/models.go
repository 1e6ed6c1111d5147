package llm

import (
	"context"
	"encoding/json"
	"strings"
)

// ModelInfo is what a provider's server says of one of its models.
type ModelInfo struct {
	ID string
	// Window is the context window the server runs the model with, in
	// tokens (0: it does not say); WindowFrom names where it was read.
	Window     int
	WindowFrom string
}

// ModelLister is a provider that can list the models its server offers.
type ModelLister interface {
	Models(ctx context.Context) ([]ModelInfo, error)
}

// WindowReader is a provider that can ask its server the context window it
// runs a model with (a local server's is its own setting, not the
// model's): the window in tokens and where it was read, 0 when the server
// does not say.
type WindowReader interface {
	ServerWindow(ctx context.Context, model string) (int, string, error)
}

// As finds, among p and the providers it wraps (Unwrap), the first that
// is a T.
func As[T any](p Provider) (T, bool) {
	for p != nil {
		if t, ok := p.(T); ok {
			return t, true
		}
		u, ok := p.(interface{ Unwrap() Provider })
		if !ok {
			break
		}
		p = u.Unwrap()
	}
	var zero T
	return zero, false
}

// SendableArguments is a tool call's arguments as they may be sent back to
// a model: a JSON object. A call the model left without arguments gets
// {}; arguments that are not a JSON object (a call cut off in the middle,
// or garbled) are kept as text under "invalid_arguments", so the history
// stays valid JSON for servers that parse it (llama.cpp answers HTTP 500
// to invalid arguments) while the model still sees what it wrote.
func SendableArguments(args string) string {
	if strings.TrimSpace(args) == "" {
		return "{}"
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		return args
	}
	b, _ := json.Marshal(map[string]string{"invalid_arguments": args})
	return string(b)
}

// RoleFolder is a provider that may send tool calls and results as text,
// for servers whose chat template takes only alternating user and
// assistant turns; it switches by itself when a server rejects the roles
// of a request.
type RoleFolder interface {
	StrictRoles() bool
	SetStrictRoles()
}
