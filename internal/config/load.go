package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/nb-cli/nb/internal/spelling"
)

// Error is a configuration problem: which file, which line, which key,
// what is wrong.
type Error struct {
	File    string
	Line    int    // of the key in the file, 0 when it is not there
	Key     string // dotted path, "" for file-level problems
	Problem string
}

func (e *Error) Error() string {
	s := "config " + e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
	}
	if e.Key != "" {
		s += ": " + e.Key
	}
	return s + ": " + e.Problem
}

// DefaultPath is $XDG_CONFIG_HOME/nb/config.json (~/.config/nb/config.json);
// on Windows, without XDG_CONFIG_HOME, %APPDATA%\nb\config.json. A relative
// XDG_CONFIG_HOME is ignored, as the XDG specification says; with no
// absolute HOME either, there is no user configuration and DefaultPath is
// "" (a relative path would read a file of the project).
func DefaultPath(getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "nb", "config.json")
	}
	if d := platformConfigDir(getenv); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "config.json")
	}
	if home := getenv("HOME"); home != "" && filepath.IsAbs(home) {
		return filepath.Join(home, ".config", "nb", "config.json")
	}
	return ""
}

// Load reads path on top of the defaults. A missing file is not an error
// unless required (the user named it with --config).
func Load(path string, required bool) (*Config, error) {
	cfg := Default()
	if path == "" && !required {
		return cfg, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !required {
			return cfg, nil
		}
		return nil, &Error{File: path, Problem: "cannot read: " + unwrapPathErr(err)}
	}
	if err := Decode(path, data, cfg); err != nil {
		return nil, err
	}
	cfg.Path = path
	if err := cfg.Validate(); err != nil {
		return nil, locate(err, data)
	}
	return cfg, nil
}

// locate adds to a configuration error about a key the line of the file
// (data) that sets it.
func locate(err error, data []byte) error {
	var ce *Error
	if !errors.As(err, &ce) || ce.Line > 0 || ce.Key == "" {
		return err
	}
	if text, terr := utf8Text(data); terr == nil {
		ce.Line = keyLine(StripComments(text), ce.Key)
	}
	return err
}

// Decode parses JSON-with-comments data into v, rejecting unknown keys.
func Decode(file string, data []byte, v any) error {
	data, err := utf8Text(data)
	if err != nil {
		return &Error{File: file, Problem: err.Error()}
	}
	clean := StripComments(data)
	if len(bytes.TrimSpace(clean)) == 0 {
		return nil
	}
	if !json.Valid(clean) {
		return &Error{File: file, Problem: syntaxProblem(clean, json.Unmarshal(clean, new(any)))}
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.UseNumber() // a number too large for a float is the key's error, below
	if err := dec.Decode(&raw); err != nil {
		return &Error{File: file, Problem: syntaxProblem(clean, err)}
	}
	if _, ok := raw.(map[string]any); !ok {
		return &Error{File: file, Problem: "must be a JSON object"}
	}
	if key, first, line := duplicateKey(clean); key != "" {
		return &Error{File: file, Line: line, Key: key, Problem: fmt.Sprintf("is set twice (lines %d and %d): only the last would count; keep one", first, line)}
	}
	if key, problem := unknownKey(raw, reflect.TypeOf(v).Elem(), ""); key != "" {
		return &Error{File: file, Line: keyLine(clean, key), Key: key, Problem: problem}
	}
	if err := json.Unmarshal(clean, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// te.Field leaves out the names of map entries
			// (providers.model for providers.work.model): the key is
			// the value the decoder stopped at.
			key, line := valueAt(clean, te.Offset)
			if key == "" {
				key = te.Field
			}
			return &Error{File: file, Line: line, Key: key, Problem: typeProblem(te)}
		}
		return &Error{File: file, Problem: err.Error()}
	}
	return nil
}

// utf8Text returns data without a UTF-8 byte order mark (editors on
// Windows write one); a file in UTF-16 or UTF-32 gets an error saying so.
func utf8Text(data []byte) ([]byte, error) {
	if rest, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		return rest, nil
	}
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) || bytes.HasPrefix(data, []byte("\x00\x00\xfe\xff")) {
		return nil, errors.New("is UTF-16 or UTF-32 text; save it as UTF-8")
	}
	return data, nil
}

// typeProblem says what a value of the wrong type should have been.
func typeProblem(te *json.UnmarshalTypeError) string {
	got, isNumber := strings.CutPrefix(te.Value, "number ")
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int64:
		if isNumber {
			return fmt.Sprintf("must be a whole number (got %s)", got)
		}
	}
	return fmt.Sprintf("must be %s, not %s", typeName(te.Type), te.Value)
}

func unwrapPathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func syntaxProblem(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := 1, 1
		for _, b := range data[:min(int(se.Offset), len(data))] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, strings.TrimPrefix(se.Error(), "json: "))
	}
	return "invalid JSON: " + err.Error()
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(typeName(t.Elem()), "a ") + "s"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return t.String()
}

// unknownKey walks decoded JSON against the struct type and returns the
// first key the type does not have, with a suggestion.
func unknownKey(v any, t reflect.Type, path string) (string, string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", ""
	}
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch t.Kind() {
	case reflect.Map:
		keys := sortedKeys(obj)
		for _, k := range keys {
			if key, p := unknownKey(obj[k], t.Elem(), join(k)); key != "" {
				return key, p
			}
		}
	case reflect.Struct:
		fields := map[string]reflect.Type{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			fields[name] = f.Type
		}
		for _, k := range sortedKeys(obj) {
			ft, ok := fields[k]
			if !ok {
				problem := "unknown key"
				if s := suggest(k, fields); s != "" {
					problem += fmt.Sprintf(" (did you mean %q?)", s)
				}
				return join(k), problem
			}
			if key, p := unknownKey(obj[k], ft, join(k)); key != "" {
				return key, p
			}
		}
	case reflect.Slice:
		// Lists of objects are not used in the config; nothing to check.
	}
	return "", ""
}

// suggest returns the known key closest to k, if close enough.
func suggest(k string, fields map[string]reflect.Type) string {
	return spelling.Suggest(k, sortedKeys(fields))
}

// StripComments blanks // and /* */ comments and trailing commas outside
// strings, keeping every byte offset so that error positions stay true.
func StripComments(data []byte) []byte {
	out := bytes.Clone(data)
	scanJSON(out, func(i int) int {
		switch {
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
			return i
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out); i++ {
				if out[i] == '*' && i+1 < len(out) && out[i+1] == '/' {
					out[i], out[i+1] = ' ', ' '
					return i + 1
				}
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			return i
		}
		return i
	})
	scanJSON(out, func(i int) int {
		if out[i] != ',' {
			return i
		}
		j := i + 1
		for j < len(out) && (out[j] == ' ' || out[j] == '\t' || out[j] == '\n' || out[j] == '\r') {
			j++
		}
		if j < len(out) && (out[j] == '}' || out[j] == ']') {
			out[i] = ' '
		}
		return i
	})
	return out
}

// scanJSON calls f for every byte outside string literals; f returns the
// index of the last byte it consumed.
func scanJSON(b []byte, f func(i int) int) {
	inStr := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inStr && c == '\\':
			i++
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		default:
			i = f(i)
		}
	}
}

// walkJSON calls f for every value of the JSON text data below the top
// level, in order, with its key as Error.Key spells it (a.b, a.list[0]),
// the line it is on (its key's, for an object's member) and the offset
// just past its first token; f returns true to stop. Keys are reported
// as they are met, so f also sees a key given twice.
func walkJSON(data []byte, f func(key string, line int, end int64) bool) {
	type frame struct {
		key     string
		obj     bool
		wantKey bool
		member  string
		at      int64
		index   int
	}
	var stack []*frame
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		end := dec.InputOffset()
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				if up := stack[len(stack)-1]; up.obj {
					up.wantKey = true
				} else {
					up.index++
				}
			}
			continue
		}
		if top != nil && top.obj && top.wantKey {
			top.member, top.at, top.wantKey = tok.(string), end, false
			continue
		}
		key, line := "", 0
		switch {
		case top == nil:
		case top.obj:
			key, line = top.member, lineAt(top.at)
			if top.key != "" {
				key = top.key + "." + key
			}
		default:
			key, line = fmt.Sprintf("%s[%d]", top.key, top.index), lineAt(end)
		}
		if top != nil && f(key, line, end) {
			return
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{key: key, obj: d == '{', wantKey: d == '{'})
			continue
		}
		if top != nil {
			if top.obj {
				top.wantKey = true
			} else {
				top.index++
			}
		}
	}
}

// keyLine is the line of data that sets key, 0 when none does.
func keyLine(data []byte, key string) int {
	found := 0
	walkJSON(data, func(k string, line int, _ int64) bool {
		if k == key {
			found = line
			return true
		}
		return false
	})
	return found
}

// valueAt is the key and line of the value data holds at offset (as
// json.UnmarshalTypeError counts it: just past the value's first token).
func valueAt(data []byte, offset int64) (string, int) {
	key, line := "", 0
	walkJSON(data, func(k string, l int, end int64) bool {
		if end > offset {
			return true
		}
		key, line = k, l
		return false
	})
	return key, line
}

// duplicateKey is the first key data sets twice in one object, with the
// lines of both.
func duplicateKey(data []byte) (key string, first, second int) {
	seen := map[string]int{}
	walkJSON(data, func(k string, line int, _ int64) bool {
		if l, ok := seen[k]; ok {
			key, first, second = k, l, line
			return true
		}
		seen[k] = line
		return false
	})
	return key, first, second
}
