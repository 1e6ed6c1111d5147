package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/nb-cli/nb/internal/llm"
)

// errNotPlain stops streamHistory on anything it leaves to decodeHistory:
// a name that matches a known one only when case is ignored, a value of
// an unexpected kind.
var errNotPlain = errors.New("history needs the full decoder")

// streamHistory decodes a well-formed history file as it reads it, straight
// into the messages: no copy of the whole file is held (the scanner of
// scan.go reads it through a window), a string is scanned once, eight
// plain bytes at a time, and copied from the window (its escapes, if any,
// undone on the way), the usage counts are read as plain integers, and
// the messages are collected in blocks and copied once into a slice of
// their number and a little room for the next turn (instead of a slice
// grown again and again). Keys and fields this version does not know are
// kept as decodeHistory keeps them.
//
// Anything unusual (invalid UTF-8, a control character or a lone
// surrogate in a string, a duplicate name, a name in another case, a
// value of another type, a number that is not a plain integer where
// counts are, trailing data) is an error: the caller then decodes the
// whole file with decodeHistory, which accepts or reports it exactly as
// before.
func streamHistory(r io.Reader) (historyDoc, error) {
	s := streamer{sc: newScanner(r)}
	doc, err := s.doc()
	if err != nil {
		return historyDoc{}, err
	}
	if s.sc.peek() != 0 || s.sc.pos != len(s.sc.buf) || s.sc.err != nil {
		return historyDoc{}, fmt.Errorf("after the history: %w", errors.Join(s.sc.err, errNotPlain))
	}
	return doc, nil
}

type streamer struct {
	sc *scanner
	// names holds the roles, models and tool names read so far: each is
	// allocated once, not once per message.
	names map[string]string
}

// fullOpts are the options decodeHistory's fast pass uses, for the values
// the streamer hands to the full decoder (images, thinking, usage,
// signatures, the version and the time saved).
var fullOpts = jsonv2.JoinOptions(jsonv2.MatchCaseInsensitiveNames(true), jsonv2.RejectUnknownMembers(true))

// full decodes the value next with the full decoder.
func (s *streamer) full(dst any) error {
	v, err := s.sc.raw()
	if err != nil {
		return err
	}
	return jsonv2.Unmarshal(v, dst, fullOpts)
}

// name reads an object member's name and its colon, and its field's
// index in names (-1 for a name not there). A name in names is not
// allocated again.
func (s *streamer) name(names map[string]int) (string, int, error) {
	if s.sc.peek() != '"' {
		return "", 0, errNotPlain
	}
	v, err := s.sc.str()
	if err != nil {
		return "", 0, err
	}
	i, ok := names[string(v)]
	if !ok {
		return string(v), -1, s.sc.expect(':')
	}
	return fieldNames[i], i, s.sc.expect(':')
}

// object consumes the opening of an object and reports whether a member
// follows.
func (s *streamer) object() (bool, error) {
	if err := s.sc.expect('{'); err != nil {
		return false, err
	}
	if s.sc.peek() == '}' {
		s.sc.pos++
		return false, nil
	}
	return true, nil
}

// once fails when bit is in *seen (a name that comes twice), and adds it.
func once(seen *uint64, bit int) error {
	if *seen&(1<<bit) != 0 {
		return errNotPlain
	}
	*seen |= 1 << bit
	return nil
}

// extra keeps the value next as the unknown member name of extra; a name
// that comes twice is errNotPlain.
func (s *streamer) extra(extra *map[string]json.RawMessage, name string) error {
	if _, dup := (*extra)[name]; dup {
		return errNotPlain
	}
	v, err := s.sc.raw()
	if err != nil {
		return err
	}
	if *extra == nil {
		*extra = map[string]json.RawMessage{}
	}
	(*extra)[name] = v
	return nil
}

// elements reads an array's elements, calling element for each.
func (s *streamer) elements(element func() error) error {
	if err := s.sc.expect('['); err != nil {
		return err
	}
	if s.sc.peek() == ']' {
		s.sc.pos++
		return nil
	}
	for {
		if err := element(); err != nil {
			return err
		}
		more, err := s.sc.more(']')
		if err != nil || !more {
			return err
		}
	}
}

// isNull consumes a null next, if there is one.
func (s *streamer) isNull() (bool, error) {
	if s.sc.peek() != 'n' {
		return false, nil
	}
	return true, s.sc.literal("null")
}

// strOrNull reads a string, or a null (v nil, ok false).
func (s *streamer) strOrNull() (v []byte, ok bool, err error) {
	switch s.sc.peek() {
	case 'n':
		return nil, false, s.sc.literal("null")
	case '"':
		v, err = s.sc.str()
		return v, err == nil, err
	}
	return nil, false, errNotPlain
}

// str decodes a string (null leaves *dst as it is).
func (s *streamer) str(dst *string) error {
	v, ok, err := s.strOrNull()
	if ok {
		*dst = string(v)
	}
	return err
}

// repeated decodes a string that repeats from message to message (a role, a
// model, a tool's name).
func (s *streamer) repeated(dst *string) error {
	v, ok, err := s.strOrNull()
	if !ok {
		return err
	}
	if n, ok := s.names[string(v)]; ok {
		*dst = n
		return nil
	}
	if s.names == nil {
		s.names = map[string]string{}
	}
	n := string(v)
	if len(s.names) < 1000 {
		s.names[n] = n
	}
	*dst = n
	return nil
}

// boolean decodes true or false (null leaves *dst as it is).
func (s *streamer) boolean(dst *bool) error {
	switch s.sc.peek() {
	case 't':
		*dst = true
		return s.sc.literal("true")
	case 'f':
		*dst = false
		return s.sc.literal("false")
	case 'n':
		return s.sc.literal("null")
	}
	return errNotPlain
}

// unknown fails when name, a name not in names, matches one only with
// another case, or without its underscores and dashes (the full decoder
// may match such a name to a field).
func unknown(name string, names map[string]int) error {
	loose := looseName(name)
	for k := range names {
		if looseName(k) == loose || strings.EqualFold(k, name) {
			return errNotPlain
		}
	}
	return nil
}

// looseName is name in lower case without underscores and dashes.
func looseName(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
}

// fieldNames are the JSON names of the fields of the history's types;
// docKeys, messageKeys and callKeys map each type's names to their index
// here, which is also their bit in a set of the names read.
var (
	fieldNames       []string
	exactDocKeys     = tagNames(historyDoc{})
	exactMessageKeys = tagNames(llm.Message{})
	callKeys         = tagNames(llm.ToolCall{})
	usageKeys        = tagNames(llm.Usage{})
)

// tagNames maps the JSON names of a type's fields, as written, to their
// index in fieldNames.
func tagNames(v any) map[string]int {
	names := map[string]int{}
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names[name] = len(fieldNames)
			fieldNames = append(fieldNames, name)
		}
	}
	return names
}

func (s *streamer) doc() (historyDoc, error) {
	var doc historyDoc
	err := s.members(exactDocKeys, &doc.Extra, func(name string) error { return s.docField(&doc, name) })
	return doc, err
}

// members decodes an object member by member: a known name once (field
// decodes its value), a name the type does not know into extra; with no
// extra, or a known name twice, the object is not plain.
func (s *streamer) members(keys map[string]int, extra *map[string]json.RawMessage, field func(name string) error) error {
	more, err := s.object()
	var seen uint64
	for more && err == nil {
		var name string
		var i int
		if name, i, err = s.name(keys); err != nil {
			break
		}
		switch {
		case i < 0 && extra == nil, i >= 0 && once(&seen, i) != nil:
			return errNotPlain
		case i < 0:
			if err = unknown(name, keys); err == nil {
				err = s.extra(extra, name)
			}
		default:
			err = field(name)
		}
		if err == nil {
			more, err = s.sc.more('}')
		}
	}
	return err
}

// docField decodes the document's known member name.
func (s *streamer) docField(doc *historyDoc, name string) (err error) {
	switch name {
	case "format":
		err = s.str(&doc.Format)
	case "version":
		err = s.full(&doc.Version)
	case "saved":
		err = s.full(&doc.Saved)
	case "messages":
		doc.Messages, err = s.messages()
	default:
		// A field added to the type and not here.
		err = errNotPlain
	}
	return err
}

const (
	// block is how many messages are collected before a new block starts.
	block = 512
	// spare is the room left after the messages for the next turn's.
	spare = 16
)

func (s *streamer) messages() ([]llm.Message, error) {
	if null, err := s.isNull(); null || err != nil {
		return nil, err
	}
	var full [][]llm.Message
	cur := make([]llm.Message, 0, block)
	err := s.elements(func() error {
		if len(cur) == cap(cur) {
			full = append(full, cur)
			cur = make([]llm.Message, 0, block)
		}
		cur = append(cur, llm.Message{})
		return s.message(&cur[len(cur)-1])
	})
	if err != nil {
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
	if null, err := s.isNull(); null || err != nil {
		// A null message stays a zero one, as with the full decoder.
		return err
	}
	return s.members(exactMessageKeys, &m.Extra, func(name string) error { return s.messageField(m, name) })
}

// messageField decodes the message's known member name.
func (s *streamer) messageField(m *llm.Message, name string) (err error) {
	switch name {
	case "role":
		var role string
		err = s.repeated(&role)
		m.Role = llm.Role(role)
	case "text":
		err = s.str(&m.Text)
	case "toolCallId":
		err = s.str(&m.ToolCallID)
	case "toolName":
		err = s.repeated(&m.ToolName)
	case "model":
		err = s.repeated(&m.Model)
	case "isError":
		err = s.boolean(&m.IsError)
	case "summary":
		err = s.boolean(&m.Summary)
	case "partial":
		err = s.boolean(&m.Partial)
	case "toolCalls":
		err = s.toolCalls(&m.ToolCalls)
	case "images":
		err = s.full(&m.Images)
	case "thinking":
		err = s.full(&m.Thinking)
	case "usage":
		err = s.usage(&m.Usage)
	default:
		// A field added to the type and not here.
		err = errNotPlain
	}
	return err
}

// usage decodes a message's usage: plain integers of the known fields,
// anything else by the full decoder.
func (s *streamer) usage(dst **llm.Usage) error {
	if null, err := s.isNull(); null || err != nil {
		return err
	}
	u := &llm.Usage{}
	err := s.members(usageKeys, nil, func(name string) error {
		n, err := s.sc.integer()
		if err != nil {
			return err
		}
		switch name {
		case "inputTokens":
			u.InputTokens = n
		case "outputTokens":
			u.OutputTokens = n
		case "cachedInputTokens":
			u.CachedInputTokens = n
		case "cacheWriteTokens":
			u.CacheWriteTokens = n
		case "reasoningTokens":
			u.ReasoningTokens = n
		default:
			// A field added to the type and not here.
			return errNotPlain
		}
		return nil
	})
	*dst = u
	return err
}

// toolCalls decodes the calls of an assistant message.
func (s *streamer) toolCalls(dst *[]llm.ToolCall) error {
	if null, err := s.isNull(); null || err != nil {
		return err
	}
	calls := []llm.ToolCall{}
	err := s.elements(func() error {
		calls = append(calls, llm.ToolCall{})
		c := &calls[len(calls)-1]
		if null, err := s.isNull(); null || err != nil {
			return err
		}
		// calls keep no unknown fields: those go to the full decoder
		return s.members(callKeys, nil, func(name string) error {
			switch name {
			case "id":
				return s.str(&c.ID)
			case "name":
				return s.repeated(&c.Name)
			case "arguments":
				return s.str(&c.Arguments)
			case "signature":
				return s.full(&c.Signature)
			}
			return errNotPlain
		})
	})
	*dst = calls
	return err
}
