package openai

import (
	"bytes"
	"fmt"
	"io"

	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/nb-cli/nb/internal/llm"
)

// Body is the JSON body of the request, byte for byte what the SDK makes
// of Params. Plain messages (text from the user, an answer, with or
// without tool calls, a tool result) are written directly, which for a
// long history is many times faster than the SDK's reflective encoder; the
// others go through the SDK.
func (p *Provider) Body(req *llm.Request) ([]byte, error) {
	b, err := p.newBody(req, false)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(b.size))
	b.write(&buf, 0, len(b.msgs))
	return buf.Bytes(), nil
}

// body is a request body that is written as it is sent (see reader): a
// long conversation's body is never held whole in memory. Its size is
// known in advance, so it goes out with a Content-Length as before.
type body struct {
	msgs []oa.ChatCompletionMessageParamUnion
	// sdk holds the messages the SDK encodes, by index, encoded once.
	sdk map[int][]byte
	// rest is the object of the other parameters, "{...}".
	rest []byte
	size int64
}

// newBody prepares the body of req; with stream set, it asks for a
// streamed answer ("stream": true, as the SDK would add it).
func (p *Provider) newBody(req *llm.Request, stream bool) (*body, error) {
	params, err := p.Params(req)
	if err != nil {
		return nil, err
	}
	b := &body{msgs: params.Messages}
	params.Messages = nil
	b.rest, err = params.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	if len(b.rest) < 2 || b.rest[0] != '{' || b.rest[len(b.rest)-1] != '}' {
		return nil, fmt.Errorf("encode request: unexpected %.20q", b.rest)
	}
	if stream {
		sep := ","
		if len(b.rest) == 2 {
			sep = ""
		}
		b.rest = append(append(b.rest[:len(b.rest)-1:len(b.rest)-1], sep...), `"stream":true}`...)
	}
	for i, m := range b.msgs {
		if plainKind(m) != notPlain {
			continue
		}
		data, err := m.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("encode message %d: %w", i+1, err)
		}
		if b.sdk == nil {
			b.sdk = map[int][]byte{}
		}
		b.sdk[i] = data
	}
	var n counter
	b.write(&n, 0, len(b.msgs))
	b.size = int64(n)
	return b, nil
}

// kind is how a message is written.
type kind int

const (
	notPlain kind = iota
	plainUser
	plainSystem
	plainTool
	plainAnswer
	plainCalls
)

// plainKind says whether m is written directly, and how.
func plainKind(m oa.ChatCompletionMessageParamUnion) kind {
	switch {
	case m.OfUser != nil && m.OfUser.Content.OfString.Valid() && isPlain(m.OfUser.Content.OfArrayOfContentParts == nil, m.OfUser.Name, m.OfUser.ExtraFields()):
		return plainUser
	case m.OfSystem != nil && m.OfSystem.Content.OfString.Valid() && isPlain(m.OfSystem.Content.OfArrayOfContentParts == nil, m.OfSystem.Name, m.OfSystem.ExtraFields()):
		return plainSystem
	case m.OfTool != nil && m.OfTool.Content.OfString.Valid() && isPlain(m.OfTool.Content.OfArrayOfContentParts == nil, param.Opt[string]{}, m.OfTool.ExtraFields()):
		return plainTool
	case m.OfAssistant != nil && m.OfAssistant.Content.OfString.Valid() && len(m.OfAssistant.ToolCalls) == 0 &&
		//lint:ignore SA1019 a message that sets the deprecated field is left to the SDK's encoder
		isPlain(m.OfAssistant.Content.OfArrayOfContentParts == nil && m.OfAssistant.Audio.ID == "" && !m.OfAssistant.Refusal.Valid() && m.OfAssistant.FunctionCall.Name == "", m.OfAssistant.Name, m.OfAssistant.ExtraFields()):
		return plainAnswer
	case m.OfAssistant != nil && len(m.OfAssistant.ToolCalls) > 0 && functionCalls(m.OfAssistant.ToolCalls) &&
		//lint:ignore SA1019 a message that sets the deprecated field is left to the SDK's encoder
		isPlain(m.OfAssistant.Content.OfArrayOfContentParts == nil && m.OfAssistant.Audio.ID == "" && !m.OfAssistant.Refusal.Valid() && m.OfAssistant.FunctionCall.Name == "", m.OfAssistant.Name, m.OfAssistant.ExtraFields()):
		return plainCalls
	}
	return notPlain
}

// jsonWriter is what the body is written to: a buffer, or a counter.
type jsonWriter interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
	Write(p []byte) (int, error)
}

// counter counts the bytes written to it.
type counter int64

func (c *counter) WriteString(s string) (int, error) { *c += counter(len(s)); return len(s), nil }
func (c *counter) WriteByte(byte) error              { *c++; return nil }
func (c *counter) Write(p []byte) (int, error)       { *c += counter(len(p)); return len(p), nil }

// write writes the part of the body from message from up to message to:
// the opening before the first message, and the end after the last.
func (b *body) write(w jsonWriter, from, to int) {
	if len(b.msgs) == 0 {
		w.Write(b.rest)
		return
	}
	if from == 0 {
		w.WriteString(`{"messages":[`)
	}
	for i := from; i < to; i++ {
		if i > 0 {
			w.WriteByte(',')
		}
		b.message(w, i)
	}
	if to == len(b.msgs) {
		w.WriteByte(']')
		if len(b.rest) > 2 {
			w.WriteByte(',')
		}
		w.Write(b.rest[1:])
	}
}

// message writes message i, as the SDK writes it.
func (b *body) message(w jsonWriter, i int) {
	m := b.msgs[i]
	str := func(s string) { appendJSONString(w, s) }
	if c, ok := w.(*counter); ok {
		str = func(s string) { *c += counter(jsonStringLen(s)) }
	}
	switch plainKind(m) {
	case plainUser:
		w.WriteString(`{"content":`)
		str(m.OfUser.Content.OfString.Value)
		w.WriteString(`,"role":"user"}`)
	case plainSystem:
		w.WriteString(`{"content":`)
		str(m.OfSystem.Content.OfString.Value)
		w.WriteString(`,"role":"system"}`)
	case plainTool:
		w.WriteString(`{"content":`)
		str(m.OfTool.Content.OfString.Value)
		w.WriteString(`,"tool_call_id":`)
		str(m.OfTool.ToolCallID)
		w.WriteString(`,"role":"tool"}`)
	case plainAnswer:
		w.WriteString(`{"content":`)
		str(m.OfAssistant.Content.OfString.Value)
		w.WriteString(`,"role":"assistant"}`)
	case plainCalls:
		// An answer with tool calls, as the SDK writes it.
		w.WriteByte('{')
		if m.OfAssistant.Content.OfString.Valid() {
			w.WriteString(`"content":`)
			str(m.OfAssistant.Content.OfString.Value)
			w.WriteByte(',')
		}
		w.WriteString(`"tool_calls":[`)
		for j, c := range m.OfAssistant.ToolCalls {
			if j > 0 {
				w.WriteByte(',')
			}
			f := c.OfFunction
			w.WriteString(`{"id":`)
			str(f.ID)
			w.WriteString(`,"function":{"arguments":`)
			str(f.Function.Arguments)
			w.WriteString(`,"name":`)
			str(f.Function.Name)
			w.WriteString(`},"type":"function"}`)
		}
		w.WriteString(`],"role":"assistant"}`)
	default:
		w.Write(b.sdk[i])
	}
}

// chunk is about how much of the body a reader holds at once.
const chunk = 32 << 10

// reader reads the body, encoding messages as the bytes are asked for;
// it holds about one chunk (or one message, when longer) at a time.
func (b *body) reader() io.Reader { return &bodyReader{b: b} }

type bodyReader struct {
	b    *body
	next int
	done bool
	buf  bytes.Buffer
}

func (r *bodyReader) Read(p []byte) (int, error) {
	if r.buf.Len() == 0 {
		if r.done {
			return 0, io.EOF
		}
		r.buf.Reset()
		from := r.next
		for r.next < len(r.b.msgs) && (r.next == from || r.buf.Len() < chunk) {
			r.next++
			r.b.write(&r.buf, r.next-1, r.next)
		}
		if len(r.b.msgs) == 0 {
			r.b.write(&r.buf, 0, 0)
		}
		r.done = r.next == len(r.b.msgs)
	}
	return r.buf.Read(p)
}
