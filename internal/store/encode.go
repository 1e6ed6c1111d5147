package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/nb-cli/nb/internal/jsonstr"
	"io"
	"strconv"

	"github.com/nb-cli/nb/internal/llm"
)

// writeHistory writes the file's text, as encodeHistory makes it, to w:
// plain messages (no images, thinking or signatures) directly, byte for
// byte what json.MarshalIndent writes, the others through encoding/json,
// one message at a time. Nothing of the size of the history is held in
// memory. A history with keys or fields this version does not know is
// encoded whole by encodeIndented, as before.
func writeHistory(out io.Writer, doc historyDoc) error {
	unknown := len(doc.Extra) > 0
	for i := 0; i < len(doc.Messages) && !unknown; i++ {
		unknown = len(doc.Messages[i].Extra) > 0
	}
	if unknown {
		data, err := encodeIndented(doc)
		if err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	}
	w := bufio.NewWriterSize(out, 64<<10)
	saved, err := doc.Saved.MarshalJSON()
	if err != nil {
		return err
	}
	w.WriteString("{\n \"format\": ")
	writeJSONString(w, doc.Format)
	w.WriteString(",\n \"version\": ")
	writeInt(w, doc.Version)
	w.WriteString(",\n \"saved\": ")
	w.Write(saved)
	w.WriteString(",\n \"messages\": ")
	switch {
	case doc.Messages == nil:
		w.WriteString("null")
	case len(doc.Messages) == 0:
		w.WriteString("[]")
	default:
		w.WriteByte('[')
		for i := range doc.Messages {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString("\n  ")
			if err := writeMessage(w, &doc.Messages[i]); err != nil {
				return err
			}
		}
		w.WriteString("\n ]")
	}
	w.WriteString("\n}")
	return w.Flush()
}

// writeMessage writes one message of the list, indented as
// json.MarshalIndent indents it there.
func writeMessage(w *bufio.Writer, m *llm.Message) error {
	plain := len(m.Images) == 0 && len(m.Thinking) == 0
	for _, c := range m.ToolCalls {
		plain = plain && len(c.Signature) == 0
	}
	if !plain {
		data, err := json.Marshal(m)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := json.Indent(&b, data, "  ", " "); err != nil {
			return err
		}
		_, err = w.Write(b.Bytes())
		return err
	}
	w.WriteString("{\n   \"role\": ")
	writeJSONString(w, string(m.Role))
	field := func(name string) {
		w.WriteString(",\n   \"")
		w.WriteString(name)
		w.WriteString("\": ")
	}
	if m.Text != "" {
		field("text")
		writeJSONString(w, m.Text)
	}
	if len(m.ToolCalls) > 0 {
		field("toolCalls")
		w.WriteByte('[')
		for i, c := range m.ToolCalls {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString("\n    {\n     \"id\": ")
			writeJSONString(w, c.ID)
			w.WriteString(",\n     \"name\": ")
			writeJSONString(w, c.Name)
			w.WriteString(",\n     \"arguments\": ")
			writeJSONString(w, c.Arguments)
			w.WriteString("\n    }")
		}
		w.WriteString("\n   ]")
	}
	if m.ToolCallID != "" {
		field("toolCallId")
		writeJSONString(w, m.ToolCallID)
	}
	if m.ToolName != "" {
		field("toolName")
		writeJSONString(w, m.ToolName)
	}
	if m.IsError {
		field("isError")
		w.WriteString("true")
	}
	if u := m.Usage; u != nil {
		field("usage")
		w.WriteString("{\n    \"inputTokens\": ")
		writeInt(w, u.InputTokens)
		w.WriteString(",\n    \"outputTokens\": ")
		writeInt(w, u.OutputTokens)
		for _, f := range []struct {
			name string
			n    int
		}{{"cachedInputTokens", u.CachedInputTokens}, {"cacheWriteTokens", u.CacheWriteTokens}, {"reasoningTokens", u.ReasoningTokens}} {
			if f.n != 0 {
				w.WriteString(",\n    \"")
				w.WriteString(f.name)
				w.WriteString("\": ")
				writeInt(w, f.n)
			}
		}
		w.WriteString("\n   }")
	}
	if m.Model != "" {
		field("model")
		writeJSONString(w, m.Model)
	}
	if m.Summary {
		field("summary")
		w.WriteString("true")
	}
	if m.Partial {
		field("partial")
		w.WriteString("true")
	}
	w.WriteString("\n  }")
	return nil
}

// writeInt writes n in decimal.
func writeInt(w *bufio.Writer, n int) {
	w.Write(strconv.AppendInt(w.AvailableBuffer(), int64(n), 10))
}

// writeJSONString writes s as encoding/json does (HTML escaping on).
func writeJSONString(w *bufio.Writer, s string) { jsonstr.Write(w, s, jsonstr.HTML) }
