package openai

import (
	"fmt"

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
//     user message.

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
	msgs := alternate(req.Messages)
	system := req.System
	if system != "" && catalog.NoSystemRole(model) {
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
