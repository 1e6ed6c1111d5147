package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/nb-cli/nb/internal/llm"
)

// errNotPlain stops streamHistory on anything it leaves to decodeHistory:
// a name that matches a known one only when case is ignored, a value of
// an unexpected kind.
var errNotPlain = errors.New("history needs the full decoder")

// streamHistory decodes a well-formed history file as it reads it, straight
// into the messages: no copy of the whole file is held, every string is
// copied once (not unquoted into a buffer and then copied), and the
// messages are collected in blocks and copied once into a slice of their
// number and a little room for the next turn (instead of a slice grown
// again and again). Keys and fields
// this version does not know are kept as decodeHistory keeps them.
//
// Anything unusual (invalid UTF-8, a duplicate name, a name in another
// case, a value of another type, trailing data) is an error: the caller
// then decodes the whole file with decodeHistory, which accepts or reports
// it exactly as before.
func streamHistory(r io.Reader) (historyDoc, error) {
	s := streamer{dec: jsontext.NewDecoder(r)}
	doc, err := s.doc()
	if err != nil {
		return historyDoc{}, err
	}
	if _, err := s.dec.ReadToken(); err != io.EOF {
		return historyDoc{}, fmt.Errorf("after the history: %w", errNotPlain)
	}
	return doc, nil
}

type streamer struct {
	dec *jsontext.Decoder
	// buf is the scratch space strings are unquoted into.
	buf []byte
	// names holds the roles, models and tool names read so far: each is
	// allocated once, not once per message.
	names map[string]string
}

// fullOpts are the options decodeHistory's fast pass uses, for the values
// the streamer hands to the full decoder (images, thinking, usage,
// signatures, the version and the time saved).
var fullOpts = jsonv2.JoinOptions(jsonv2.MatchCaseInsensitiveNames(true), jsonv2.RejectUnknownMembers(true))

// name reads an object member's name, or reports the end of the object.
// A name in names is not allocated again.
func (s *streamer) name(names map[string]string) (string, bool, error) {
	if s.dec.PeekKind() == '}' {
		_, err := s.dec.ReadToken()
		return "", false, err
	}
	v, err := s.dec.ReadValue()
	if err != nil {
		return "", false, err
	}
	if s.buf, err = jsontext.AppendUnquote(s.buf[:0], v); err != nil {
		return "", false, err
	}
	if n, ok := names[string(s.buf)]; ok {
		return n, true, nil
	}
	return string(s.buf), true, nil
}

// open reads the start of an object or array (kind '{' or '['); a null
// is false.
func (s *streamer) open(kind jsontext.Kind) (bool, error) {
	switch s.dec.PeekKind() {
	case 'n':
		_, err := s.dec.ReadToken()
		return false, err
	case kind:
		_, err := s.dec.ReadToken()
		return err == nil, err
	}
	return false, errNotPlain
}

// str decodes a string (null leaves *dst as it is). With a nil dst, the
// string is left in s.buf (nil for null).
func (s *streamer) str(dst *string) error {
	switch s.dec.PeekKind() {
	case 'n':
		_, err := s.dec.ReadToken()
		if dst == nil {
			s.buf = nil
		}
		return err
	case '"':
	default:
		return errNotPlain
	}
	v, err := s.dec.ReadValue()
	if err != nil {
		return err
	}
	if s.buf, err = jsontext.AppendUnquote(s.buf[:0], v); err != nil {
		return err
	}
	if s.buf == nil {
		s.buf = []byte{}
	}
	if dst != nil {
		*dst = string(s.buf)
	}
	return nil
}

// repeated decodes a string that repeats from message to message (a role, a
// model, a tool's name).
func (s *streamer) repeated(dst *string) error {
	if err := s.str(nil); err != nil || s.buf == nil {
		return err
	}
	if n, ok := s.names[string(s.buf)]; ok {
		*dst = n
		return nil
	}
	if s.names == nil {
		s.names = map[string]string{}
	}
	n := string(s.buf)
	if len(s.names) < 1000 {
		s.names[n] = n
	}
	*dst = n
	return nil
}

// boolean decodes true or false (null leaves *dst as it is).
func (s *streamer) boolean(dst *bool) error {
	k := s.dec.PeekKind()
	if k != 't' && k != 'f' && k != 'n' {
		return errNotPlain
	}
	t, err := s.dec.ReadToken()
	if err == nil && k != 'n' {
		*dst = t.Bool()
	}
	return err
}

// raw is the next value, copied.
func (s *streamer) raw() ([]byte, error) {
	v, err := s.dec.ReadValue()
	return append([]byte(nil), v...), err
}

// known reports whether name is one of names, and fails when it matches
// one only with another case, or without its underscores and dashes (the
// full decoder may match such a name to a field).
func known(name string, names map[string]string) (bool, error) {
	if _, ok := names[name]; ok {
		return true, nil
	}
	loose := looseName(name)
	for k := range names {
		if looseName(k) == loose || strings.EqualFold(k, name) {
			return false, errNotPlain
		}
	}
	return false, nil
}

// looseName is name in lower case without underscores and dashes.
func looseName(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
}

var (
	exactDocKeys     = tagNames(historyDoc{})
	exactMessageKeys = tagNames(llm.Message{})
	callKeys         = tagNames(llm.ToolCall{})
)

// tagNames are the JSON names of a type's fields, as written (each its
// own value).
func tagNames(v any) map[string]string {
	names := map[string]string{}
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names[name] = name
		}
	}
	return names
}

func (s *streamer) doc() (historyDoc, error) {
	var doc historyDoc
	if ok, err := s.open('{'); !ok {
		return doc, errors.Join(err, errNotPlain)
	}
	for {
		name, more, err := s.name(exactDocKeys)
		if err != nil || !more {
			return doc, err
		}
		isKnown, err := known(name, exactDocKeys)
		if err != nil {
			return doc, err
		}
		switch {
		case !isKnown:
			v, err := s.raw()
			if err != nil {
				return doc, err
			}
			if doc.Extra == nil {
				doc.Extra = map[string]json.RawMessage{}
			}
			doc.Extra[name] = v
		case name == "format":
			err = s.str(&doc.Format)
		case name == "version":
			err = jsonv2.UnmarshalDecode(s.dec, &doc.Version, fullOpts)
		case name == "saved":
			err = jsonv2.UnmarshalDecode(s.dec, &doc.Saved, fullOpts)
		case name == "messages":
			doc.Messages, err = s.messages()
		default:
			// A field added to the type and not here.
			err = errNotPlain
		}
		if err != nil {
			return doc, err
		}
	}
}

const (
	// block is how many messages are collected before a new block starts.
	block = 512
	// spare is the room left after the messages for the next turn's.
	spare = 16
)

func (s *streamer) messages() ([]llm.Message, error) {
	if ok, err := s.open('['); !ok {
		return nil, err
	}
	var full [][]llm.Message
	cur := make([]llm.Message, 0, block)
	for s.dec.PeekKind() != ']' {
		if len(cur) == cap(cur) {
			full = append(full, cur)
			cur = make([]llm.Message, 0, block)
		}
		cur = append(cur, llm.Message{})
		if err := s.message(&cur[len(cur)-1]); err != nil {
			return nil, err
		}
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return nil, err
	}
	if len(full) == 0 && cap(cur)-len(cur) >= spare {
		return cur, nil
	}
	// Room for the next turn's messages: its first request does not copy
	// the conversation again.
	msgs := make([]llm.Message, 0, len(full)*block+len(cur)+spare)
	for _, b := range full {
		msgs = append(msgs, b...)
	}
	return append(msgs, cur...), nil
}

func (s *streamer) message(m *llm.Message) error {
	if ok, err := s.open('{'); !ok {
		// A null message stays a zero one, as with the full decoder.
		return err
	}
	for {
		name, more, err := s.name(exactMessageKeys)
		if err != nil || !more {
			return err
		}
		isKnown, err := known(name, exactMessageKeys)
		if err != nil {
			return err
		}
		switch {
		case !isKnown:
			v, err := s.raw()
			if err != nil {
				return err
			}
			if m.Extra == nil {
				m.Extra = map[string]json.RawMessage{}
			}
			m.Extra[name] = v
		case name == "role":
			var role string
			err = s.repeated(&role)
			m.Role = llm.Role(role)
		case name == "text":
			err = s.str(&m.Text)
		case name == "toolCallId":
			err = s.str(&m.ToolCallID)
		case name == "toolName":
			err = s.repeated(&m.ToolName)
		case name == "model":
			err = s.repeated(&m.Model)
		case name == "isError":
			err = s.boolean(&m.IsError)
		case name == "summary":
			err = s.boolean(&m.Summary)
		case name == "partial":
			err = s.boolean(&m.Partial)
		case name == "toolCalls":
			err = s.toolCalls(&m.ToolCalls)
		case name == "images":
			err = jsonv2.UnmarshalDecode(s.dec, &m.Images, fullOpts)
		case name == "thinking":
			err = jsonv2.UnmarshalDecode(s.dec, &m.Thinking, fullOpts)
		case name == "usage":
			err = jsonv2.UnmarshalDecode(s.dec, &m.Usage, fullOpts)
		default:
			// A field added to the type and not here.
			err = errNotPlain
		}
		if err != nil {
			return err
		}
	}
}

// toolCalls decodes the calls of an assistant message.
func (s *streamer) toolCalls(dst *[]llm.ToolCall) error {
	if ok, err := s.open('['); !ok {
		return err
	}
	calls := []llm.ToolCall{}
	for s.dec.PeekKind() != ']' {
		var c llm.ToolCall
		ok, err := s.open('{')
		if err != nil {
			return err
		}
		for ok {
			name, more, err := s.name(callKeys)
			if err != nil {
				return err
			}
			if !more {
				break
			}
			switch name {
			case "id":
				err = s.str(&c.ID)
			case "name":
				err = s.repeated(&c.Name)
			case "arguments":
				err = s.str(&c.Arguments)
			case "signature":
				err = jsonv2.UnmarshalDecode(s.dec, &c.Signature, fullOpts)
			default:
				err = errNotPlain
			}
			if err != nil {
				return err
			}
		}
		calls = append(calls, c)
	}
	_, err := s.dec.ReadToken()
	*dst = calls
	return err
}
