package openai

import (
	"errors"
	"fmt"
	"strings"

	oa "github.com/openai/openai-go/v3"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/catalog"
)

// The chat templates local servers apply (Gemma's, Mistral's, several
// Llama 2 derivatives, under vLLM, llama.cpp or Ollama) refuse a
// conversation whose roles do not alternate: after an optional system
// message, a user message, then the assistant's (its tool calls followed by
// their results), then a user message again. Some (Gemma's) have no system
// role at all. The history nb keeps does not always alternate (a summary
// followed by the turn in flight, a turn that ended without an answer), so
// wire sends a sequence every such template accepts, made the same way in
// every request so that the cached prefix stays byte-stable:
//
//   - consecutive user messages are sent as one (texts joined, images kept);
//   - a user message right after tool results, where the turn ended before
//     the model answered, is preceded by a short assistant note saying so;
//   - empty assistant messages (an interrupted answer) are left out;
//   - the request's facts end the last message (the turn's own user
//     message, or its last tool result): never a user message of their own;
//   - for models without a system role, the system prompt starts the first
//     user message;
//   - a tool call's arguments go as a JSON object (llm.SendableArguments):
//     a call cut off in its arguments never makes the history invalid.
//
// Some templates (Gemma 2's) have no tool role either, and reject a
// request that holds one ("roles must alternate"). For them (Provider.fold:
// the provider's strictRoles setting, or set when a server rejected the
// roles of a request) tool calls and results are sent as text: the calls
// at the end of the assistant's turn, their results in the user turn that
// follows, and the system prompt at the start of the first user turn.

// noAnswer stands for the answer of a turn that ended after its tool
// results, before the model replied (tool-call limit, Ctrl+C, an error).
const noAnswer = "[nb: this turn ended here, before an answer]"

// factsSeparator separates a message's own text from the request's facts.
const factsSeparator = "\n\n"

// wire converts the request's system prompt, messages and facts to the
// API's messages.
func (p *Provider) wire(req *llm.Request) ([]oa.ChatCompletionMessageParamUnion, error) {
	system, msgs := p.sequence(req)
	out := make([]oa.ChatCompletionMessageParamUnion, 0, len(msgs)+1)
	if system != "" {
		out = append(out, oa.SystemMessage(system))
	}
	for i, m := range msgs {
		facts := ""
		if i == len(msgs)-1 {
			facts = req.Facts
		}
		msg, err := p.message(m, facts)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i+1, err)
		}
		out = append(out, msg)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// sequence is the system message (if sent as one) and the messages wire
// sends; the request's facts go at the end of the last message.
func (p *Provider) sequence(req *llm.Request) (string, []llm.Message) {
	model := req.Model
	if model == "" {
		model = p.model
	}
	fold := p.fold.Load()
	msgs := req.Messages
	if fold {
		msgs = foldTools(msgs)
	}
	msgs = sendableCalls(alternate(msgs))
	system := req.System
	if system != "" && (fold || catalog.NoSystemRole(model)) {
		if len(msgs) == 0 || msgs[0].Role != llm.RoleUser {
			msgs = append([]llm.Message{{Role: llm.RoleUser}}, msgs...)
		} else {
			// A copy: msgs may be the conversation itself.
			msgs = append([]llm.Message{msgs[0]}, msgs[1:]...)
		}
		msgs[0].Text = joinText(system, msgs[0].Text)
		system = ""
	}
	if req.Facts != "" {
		if n := len(msgs); n == 0 || msgs[n-1].Role == llm.RoleAssistant {
			msgs = append(msgs, llm.Message{Role: llm.RoleUser})
		}
	}
	return system, msgs
}

// alternate returns msgs as a sequence whose user and assistant turns
// alternate (see above). It copies only when it changes something.
func alternate(msgs []llm.Message) []llm.Message {
	if alternates(msgs) {
		// Without room to append into: the caller's appends copy.
		return msgs[:len(msgs):len(msgs)]
	}
	out := make([]llm.Message, 0, len(msgs)+1)
	for _, m := range msgs {
		if m.Role == llm.RoleAssistant && m.Text == "" && len(m.ToolCalls) == 0 {
			// An interrupted, empty answer: the API rejects empty
			// assistant messages.
			continue
		}
		if n := len(out); n > 0 && m.Role == llm.RoleUser {
			switch out[n-1].Role {
			case llm.RoleUser:
				prev := out[n-1]
				prev.Text = joinText(prev.Text, m.Text)
				if len(m.Images) > 0 {
					prev.Images = append(append([]llm.Image(nil), prev.Images...), m.Images...)
				}
				out[n-1] = prev
				continue
			case llm.RoleTool:
				out = append(out, llm.Message{Role: llm.RoleAssistant, Text: noAnswer})
			}
		}
		out = append(out, m)
	}
	return out
}

// sendableCalls returns msgs with every tool call's arguments a JSON
// object; it copies only when it changes something.
func sendableCalls(msgs []llm.Message) []llm.Message {
	out := msgs
	for i, m := range msgs {
		for j, c := range m.ToolCalls {
			args := llm.SendableArguments(c.Arguments)
			if args == c.Arguments {
				continue
			}
			if &out[0] == &msgs[0] {
				out = append([]llm.Message(nil), msgs...)
			}
			if &out[i].ToolCalls[0] == &m.ToolCalls[0] {
				out[i].ToolCalls = append([]llm.ToolCall(nil), m.ToolCalls...)
			}
			out[i].ToolCalls[j].Arguments = args
		}
	}
	return out
}

// foldTools returns msgs with tool calls and results as text: for chat
// templates with no tool role.
func foldTools(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, 0, len(msgs))
	for _, m := range msgs {
		switch {
		case m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0:
			var b strings.Builder
			b.WriteString(m.Text)
			for _, c := range m.ToolCalls {
				if b.Len() > 0 {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "[nb: tool call %s (%s): %s]", c.Name, c.ID, llm.SendableArguments(c.Arguments))
			}
			m.Text, m.ToolCalls = b.String(), nil
		case m.Role == llm.RoleTool:
			status := "result"
			if m.IsError {
				status = "error"
			}
			text := m.Text
			if text == "" {
				text = noOutput
			}
			m = llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("[nb: %s of tool call %s (%s)]\n%s", status, m.ToolName, m.ToolCallID, text)}
		}
		out = append(out, m)
	}
	return out
}

// rolesRejected reports whether err is a server refusing the roles of a
// request: a chat template that wants strictly alternating user and
// assistant turns, or that has no tool or system role.
func rolesRejected(err error) bool {
	var e *llm.Error
	if !errors.As(err, &e) || (e.Kind != llm.ErrBadRequest && e.Kind != llm.ErrServer) {
		return false
	}
	msg := strings.ToLower(e.Message)
	for _, phrase := range []string{"must alternate", "role not supported", "roles are supported", "unsupported role", "invalid role", "roles supported"} {
		if strings.Contains(msg, phrase) {
			return true
		}
	}
	return false
}

// joinText joins two texts of one message with a blank line.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + factsSeparator + b
}

// alternates reports whether msgs needs no change from alternate: no
// empty answer, no user message after a user or tool message.
func alternates(msgs []llm.Message) bool {
	var prev llm.Role
	for _, m := range msgs {
		if m.Role == llm.RoleAssistant && m.Text == "" && len(m.ToolCalls) == 0 {
			return false
		}
		if m.Role == llm.RoleUser && (prev == llm.RoleUser || prev == llm.RoleTool) {
			return false
		}
		prev = m.Role
	}
	return true
}

// StrictRoles reports whether tool calls and results are sent as text
// (the server's chat template takes only alternating user and assistant
// turns); SetStrictRoles turns that on, for a server known to need it.
func (p *Provider) StrictRoles() bool { return p.fold.Load() }

// SetStrictRoles: see StrictRoles.
func (p *Provider) SetStrictRoles() { p.fold.Store(true) }
