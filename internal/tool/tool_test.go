package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
)

type named string

func (n named) Spec() llm.ToolSpec { return llm.ToolSpec{Name: string(n)} }
func (n named) Review(_ context.Context, _ *Call, at At) (*Invocation, error) {
	return Stays(at, &policy.Decision{Decision: policy.Allow}, func(context.Context) (*Result, error) {
		return &Result{Content: string(n)}, nil
	}), nil
}

func TestRegistry(t *testing.T) {
	r := NewRegistry(named("b"), named("a"))
	r.Add(named("c"))
	r.Remove("b")
	var names []string
	for _, s := range r.Specs() {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "a,c" {
		t.Errorf("specs = %v, want sorted a,c", names)
	}
	if _, ok := r.Get("b"); ok {
		t.Error("removed tool still found")
	}
}

func TestDecodeArgs(t *testing.T) {
	var v struct{ Command string }
	if err := DecodeArgs(nil, &v); err != nil {
		t.Errorf("empty arguments: %v", err)
	}
	if err := DecodeArgs(json.RawMessage(`{"command": "ls"`), &v); err == nil || !strings.Contains(err.Error(), "invalid arguments JSON") {
		t.Errorf("malformed arguments: %v", err)
	}
	if err := DecodeArgs(json.RawMessage(`{"command": "ls"} {"command": "rm -rf x"}`), &v); err == nil || !strings.Contains(err.Error(), "invalid arguments JSON") {
		t.Errorf("two objects: %v", err)
	}
}

// An argument the tool does not take is refused, with the ones it takes:
// a misspelt content must not write an empty file.
func TestDecodeArgsUnknown(t *testing.T) {
	var v struct {
		Path    string `json:"path"`
		Content string `json:"content"`
		skip    string
	}
	err := DecodeArgs(json.RawMessage(`{"path": "a.txt", "contents": "hello"}`), &v)
	if err == nil || err.Error() != `invalid arguments: unknown argument "contents" (the arguments are path, content)` {
		t.Errorf("unknown argument: %v", err)
	}
	_ = v.skip
}

func TestWorkdir(t *testing.T) {
	w := NewWorkdir("/launch")
	w.SetCwd("/tmp")
	if w.Launch() != "/launch" || w.Cwd() != "/tmp" {
		t.Errorf("launch %q cwd %q", w.Launch(), w.Cwd())
	}
}

func TestDescriptions(t *testing.T) {
	d := Descriptions(fstest.MapFS{"d/x.txt": {Data: []byte(" text \n")}}, "d")
	if got := d("x"); got != "text" {
		t.Errorf("description = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a missing description did not panic")
		}
	}()
	d("missing")
}

// An argument of the wrong type is named as the model named it, with the
// type it must have, not as Go's decoder names its own fields.
func TestDecodeArgsWrongType(t *testing.T) {
	var v struct {
		Path       string  `json:"path"`
		OldText    *string `json:"oldText"`
		ReplaceAll bool    `json:"replaceAll"`
		Timeout    int     `json:"timeout"`
		Lines      []int   `json:"lines"`
	}
	for raw, want := range map[string]string{
		`{"path": 5}`:           "path must be a string, not number",
		`{"oldText": ["a"]}`:    "oldText must be a string, not array",
		`{"replaceAll": "yes"}`: "replaceAll must be true or false, not string",
		`{"timeout": 1.5}`:      "timeout must be a whole number, not number 1.5",
		`{"lines": {"a": 1}}`:   "lines must be a list, not object",
		`[1, 2]`:                "the arguments must be an object, not array",
		`"run ls"`:              "the arguments must be an object, not string",
	} {
		err := DecodeArgs(json.RawMessage(raw), &v)
		if err == nil || err.Error() != "invalid arguments JSON: "+want {
			t.Errorf("%s: %v, want %q", raw, err, want)
		}
	}
}
