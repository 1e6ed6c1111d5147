package openai

import (
	"bytes"
	"fmt"
	"github.com/nb-cli/nb/internal/jsonstr"
	"io"

	"github.com/nb-cli/nb/internal/llm"
)

// Body is the JSON body of the request, byte for byte what the SDK makes
// of Params. Plain messages (text from the user, an answer, with or
// without tool calls, a tool result) are written directly from the
// conversation, which for a long history is many times faster than
// building the SDK's parameters and its reflective encoder; the others go
// through the SDK.
func (p *Provider) Body(req *llm.Request) ([]byte, error) {
	b, err := p.newBody(req, false)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(b.size))
	b.write(&buf, 0, b.entries())
	return buf.Bytes(), nil
}

// body is a request body that is written as it is sent (see reader): a
// long conversation's body is never held whole in memory, and its plain
// messages are written straight from the conversation, without the SDK's
// parameters. Its size is known in advance, so it goes out with a
// Content-Length as before.
type body struct {
	// system is the system message ("" when there is none); msgs are the
	// messages after it (see sequence), facts end the last one.
	system string
	msgs   []llm.Message
	facts  string
	kinds  []kind
	// sdk holds the messages the SDK encodes, by index in msgs, encoded
	// once.
	sdk map[int][]byte
	// rest is the object of the other parameters, "{...}".
	rest []byte
	size int64
}

// newBody prepares the body of req; with stream set, it asks for a
// streamed answer ("stream": true, as the SDK would add it).
func (p *Provider) newBody(req *llm.Request, stream bool) (*body, error) {
	others := *req
	others.System, others.Messages, others.Facts = "", nil, ""
	params, err := p.Params(&others)
	if err != nil {
		return nil, err
	}
	b := &body{facts: req.Facts}
	b.system, b.msgs = p.sequence(req)
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
	b.kinds = make([]kind, len(b.msgs))
	for i, m := range b.msgs {
		if b.kinds[i] = p.plainKind(m); b.kinds[i] != notPlain {
			continue
		}
		msg, err := p.message(m, b.factsOf(i))
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i+1, err)
		}
		data, err := msg.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("encode message %d: %w", i+1, err)
		}
		if b.sdk == nil {
			b.sdk = map[int][]byte{}
		}
		b.sdk[i] = data
	}
	var n counter
	b.write(&n, 0, b.entries())
	b.size = int64(n)
	return b, nil
}

// entries is the number of messages sent, the system message included.
func (b *body) entries() int {
	if b.system != "" {
		return len(b.msgs) + 1
	}
	return len(b.msgs)
}

// factsOf is the facts that end message i.
func (b *body) factsOf(i int) string {
	if i == len(b.msgs)-1 {
		return b.facts
	}
	return ""
}

// kind is how a message is written.
type kind uint8

const (
	notPlain kind = iota
	plainUser
	plainTool
	plainAnswer
	plainCalls
)

// plainKind says whether m is written directly, and how: as the SDK
// writes what message makes of it, with nothing but a string content, a
// tool call id, or tool calls without signatures.
func (p *Provider) plainKind(m llm.Message) kind {
	switch m.Role {
	case llm.RoleUser:
		if len(m.Images) == 0 {
			return plainUser
		}
	case llm.RoleTool:
		return plainTool
	case llm.RoleAssistant:
		if len(m.ToolCalls) == 0 {
			if m.Text != "" {
				return plainAnswer
			}
			return notPlain
		}
		placeholder := p.placeholder(m.ToolCalls)
		for i, c := range m.ToolCalls {
			if p.signature(c, placeholder && i == 0) != "" {
				return notPlain
			}
		}
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

// write writes the part of the body from message from up to message to
// (the system message first, if any): the opening before the first
// message, and the end after the last.
func (b *body) write(w jsonWriter, from, to int) {
	n := b.entries()
	if n == 0 {
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
	if to == n {
		w.WriteByte(']')
		if len(b.rest) > 2 {
			w.WriteByte(',')
		}
		w.Write(b.rest[1:])
	}
}

// message writes message i (counting the system message), as the SDK
// writes it.
func (b *body) message(w jsonWriter, i int) {
	str := func(s string) { jsonstr.Write(w, s, jsonstr.Plain) }
	if c, ok := w.(*counter); ok {
		str = func(s string) { *c += counter(jsonstr.Len(s, jsonstr.Plain)) }
	}
	if b.system != "" {
		if i == 0 {
			w.WriteString(`{"content":`)
			str(b.system)
			w.WriteString(`,"role":"system"}`)
			return
		}
		i--
	}
	m := &b.msgs[i]
	switch b.kinds[i] {
	case plainUser:
		w.WriteString(`{"content":`)
		str(joinText(m.Text, b.factsOf(i)))
		w.WriteString(`,"role":"user"}`)
	case plainTool:
		text := m.Text
		if text == "" {
			text = noOutput
		}
		w.WriteString(`{"content":`)
		str(joinText(text, b.factsOf(i)))
		w.WriteString(`,"tool_call_id":`)
		str(m.ToolCallID)
		w.WriteString(`,"role":"tool"}`)
	case plainAnswer:
		w.WriteString(`{"content":`)
		str(m.Text)
		w.WriteString(`,"role":"assistant"}`)
	case plainCalls:
		// An answer with tool calls, as the SDK writes it.
		w.WriteByte('{')
		if m.Text != "" {
			w.WriteString(`"content":`)
			str(m.Text)
			w.WriteByte(',')
		}
		w.WriteString(`"tool_calls":[`)
		for j, c := range m.ToolCalls {
			if j > 0 {
				w.WriteByte(',')
			}
			w.WriteString(`{"id":`)
			str(c.ID)
			w.WriteString(`,"function":{"arguments":`)
			str(c.Arguments)
			w.WriteString(`,"name":`)
			str(c.Name)
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
		from, n := r.next, r.b.entries()
		for r.next < n && (r.next == from || r.buf.Len() < chunk) {
			r.next++
			r.b.write(&r.buf, r.next-1, r.next)
		}
		if n == 0 {
			r.b.write(&r.buf, 0, 0)
		}
		r.done = r.next == n
	}
	return r.buf.Read(p)
}
