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
