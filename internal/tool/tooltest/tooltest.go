// Package tooltest helps test tools with nb's real policy engine: an
// engine with the default configuration, and a call helper that reviews a
// call and runs the invocation it returns. Its tests are the conformance
// suite every native tool passes (conformance_test.go).
package tooltest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// Engine returns the real policy engine with the default configuration,
// changed by mod when not nil. Grants stay in memory.
func Engine(t testing.TB, mod func(*policy.Options)) *policy.Engine {
	t.Helper()
	cfg := config.Default()
	opts := policy.OptionsFromConfig(cfg)
	if mod != nil {
		mod(&opts)
	}
	e, err := policy.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Call reviews a call of tl with args (marshalled to JSON unless already
// json.RawMessage or a string) at at, then runs the invocation whatever
// the decision, as `nb tool` does. A review error is returned with a nil
// decision and an error result, the way the agent reports it.
func Call(t testing.TB, tl tool.Tool, at tool.At, args any) (*policy.Decision, *tool.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var raw json.RawMessage
	switch a := args.(type) {
	case json.RawMessage:
		raw = a
	case string:
		raw = json.RawMessage(a)
	default:
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		raw = b
	}
	c := &tool.Call{ID: "test", Name: tl.Spec().Name, Args: raw}
	inv, err := tl.Review(ctx, c, at)
	if err != nil {
		return nil, tool.Errorf("%v", err), err
	}
	res, err := inv.Run(ctx)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return inv.Decision, res, nil
}

// Review reviews a call of tl with args at at without running it.
func Review(t testing.TB, tl tool.Tool, at tool.At, args any) (*tool.Invocation, error) {
	t.Helper()
	b, ok := args.(string)
	raw := json.RawMessage(b)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	return tl.Review(context.Background(), &tool.Call{ID: "test", Name: tl.Spec().Name, Args: raw}, at)
}
