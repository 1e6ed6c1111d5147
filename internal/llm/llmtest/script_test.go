package llmtest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/providers"
)

// TestScripts drives the fakellm testscript command with nb's real provider
// construction from the environment.
func TestScripts(t *testing.T) {
	defer http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	cmds := llmtest.TestscriptCommands()
	cmds["ask"] = ask
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: llmtest.TestscriptSetup,
		Cmds:  cmds,
	})
}

// ask PROVIDER WORDS... sends one user message through the provider the
// environment selects (PROVIDER "-" for the default) and prints the answer,
// tool calls and retry notes.
func ask(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: ask PROVIDER WORDS...")
	}
	name := args[0]
	if name == "-" {
		name = ""
	}
	spec, err := providers.Resolve(config.Default(), name, "", ts.Getenv)
	ts.Check(err)
	spec.Sleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	spec, err = providers.Discover(ctx, spec) // the server's only model
	ts.Check(err)
	p, err := providers.Build(spec)
	ts.Check(err)
	resp, err := p.Stream(ctx, &llm.Request{
		System:   "You are nb.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: strings.Join(args[1:], " ")}},
		Tools:    []llm.ToolSpec{{Name: "run_cmd", Description: "Run a command.", Schema: []byte(`{"type":"object"}`)}},
	}, func(ev llm.Event) {
		if ev.Type == llm.EventRetry {
			fmt.Fprintf(ts.Stdout(), "retry: %s\n", ev.Text)
		}
	})
	if neg {
		if err == nil {
			ts.Fatalf("ask succeeded")
		}
		fmt.Fprintf(ts.Stderr(), "%v\n", err)
		return
	}
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "%s: %s\n", p.Name(), resp.Message.Text)
	for _, c := range resp.Message.ToolCalls {
		fmt.Fprintf(ts.Stdout(), "call %s %s\n", c.Name, c.Arguments)
	}
}
