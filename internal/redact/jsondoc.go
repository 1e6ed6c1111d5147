package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// Tool results are JSON documents whose strings hold what commands
// printed, escaped ("\"api_key\": \"…\"" for a JSON file a command
// showed). The rule set's expressions are written for text as it is
// printed, so the strings of a document are scanned decoded, each on its
// own, and a string that held a secret is written back encoded with the
// markers in it.

// redactJSON withholds the secrets of the strings of a JSON document;
// ok is false when text is not one.
func (d *Detector) redactJSON(text string, released func(string) bool) (res Result, ok bool) {
	t := strings.TrimSpace(text)
	if t == "" || t[0] != '{' && t[0] != '[' || !json.Valid([]byte(t)) {
		return Result{}, false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var b strings.Builder
	last := 0
	for {
		start := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Result{}, false
		}
		s, isString := tok.(string)
		if !isString || s == "" {
			continue
		}
		r := d.redactText(s, released)
		if len(r.Found) == 0 {
			continue
		}
		end := int(dec.InputOffset())
		// the literal begins at the first quote after the previous token
		q := start + strings.IndexByte(text[start:end], '"')
		b.WriteString(text[last:q])
		b.Write(encodeString(r.Text))
		last = end
		res.Found = append(res.Found, r.Found...)
	}
	if res.Found == nil {
		return Result{Text: text}, true
	}
	b.WriteString(text[last:])
	res.Text = b.String()
	return res, true
}

// encodeString writes s as a JSON string, <, > and & as they are.
func encodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// A JSON document held in a string of another (a configuration a log
// line prints as JSON, a tool's result quoted in a message) has its
// quotes escaped, once or more (\" or \\\"), and the rules written for
// "name": "value" do not see them; when the text is not a JSON document
// itself, its strings cannot be decoded either. Terminal escape
// sequences (colours) between a token's characters break its shape
// alike. The rules also run on the text with the backslashes before
// quotes, and the escape sequences, left out.

// findUnescaped adds what the rules find in text with the backslashes
// before quotes and the terminal escape sequences left out.
func (rs *ruleSet) findUnescaped(text string, spans []span) []span {
	quotes := strings.Contains(text, `\"`) || strings.Contains(text, `\'`)
	ansi := strings.IndexByte(text, 0x1b) >= 0
	if !quotes && !ansi {
		return spans
	}
	view := make([]byte, 0, len(text))
	at := make([]int32, 0, len(text))
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			j := i
			for j < len(text) && text[j] == '\\' {
				j++
			}
			if j < len(text) && (text[j] == '"' || text[j] == '\'') {
				i = j - 1
				continue
			}
		case 0x1b:
			i += ansiLen(text[i:]) - 1
			continue
		}
		view = append(view, text[i])
		at = append(at, int32(i))
	}
	for _, s := range rs.find(string(view), nil) {
		spans = append(spans, span{start: int(at[s.start]), end: int(at[s.end-1]) + 1, kind: s.kind})
	}
	return spans
}
