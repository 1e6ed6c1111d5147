package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Testscript support: a "fakellm" command that end-to-end scripts use to
// start scripted model servers and point nb at them.
//
//	fakellm KIND SCRIPT.json [window=N] [local=LOCAL.json]
//	                           start a server (KIND: openai, local, azure,
//	                           anthropic, gemini) playing the turns in
//	                           SCRIPT.json and set the environment nb reads:
//	                             openai:    OPENAI_BASE_URL, OPENAI_API_KEY
//	                             local:     OPENAI_BASE_URL only (a local
//	                                        server needs no key); with
//	                                        local=LOCAL.json it plays the
//	                                        local server LOCAL.json
//	                                        describes (llmtest.Local: models,
//	                                        nCtx, strictRoles, parseArguments)
//	                             azure:     AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY,
//	                                        AZURE_OPENAI_DEPLOYMENT (if unset)
//	                             anthropic: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY
//	                             gemini:    GEMINI_BASE_URL, GEMINI_API_KEY
//	                           and FAKELLM_URL (the server root). With
//	                           window=N, requests over N tokens get the
//	                           provider's context-overflow error.
//	fakellm verify             fail unless every server of this script got
//	                           exactly its turns with no problem.
//	fakellm requests           print the requests received so far, one JSON
//	                           object per line (kind, model, system, messages,
//	                           tools, tokens, cached, breakpoints), for
//	                           stdout/cmp checks.
//	fakellm bodies             print the request bodies received so far as
//	                           the servers got them, one a line (line breaks
//	                           in a body become spaces).
//	fakellm prefix A B         fail unless request B (numbered from 1 over
//	                           all servers) repeats request A byte for byte
//	                           up to A's last unit (its facts): the system
//	                           prompt, the tools and every message.
//	fakellm usage              print the token accounting of all servers as
//	                           one JSON object (requests, input, cached,
//	                           written, largest, overflows).
//	fakellm wait N             wait (up to 20s) until the servers of this
//	                           script have received N requests in all, so a
//	                           script can act while a background run is
//	                           known to be in flight.
//
// With TestscriptSetup installed, servers are closed and verified when the
// script ends, so a forgotten "fakellm verify" still fails the test.

type scriptStateKey struct{}

type scriptState struct {
	mu       sync.Mutex
	servers  []*Server
	problems []string
	// expectFailure is set by "! fakellm verify": the script checked that
	// problems exist, so the end-of-script check stays quiet.
	expectFailure bool
}

func (st *scriptState) fail(msg string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.problems = append(st.problems, msg)
}

// received counts the requests of every server.
func (st *scriptState) received() int {
	st.mu.Lock()
	servers := append([]*Server(nil), st.servers...)
	st.mu.Unlock()
	n := 0
	for _, s := range servers {
		n += len(s.Requests())
	}
	return n
}

// verify closes nothing; it gathers problems and unconsumed turns.
func (st *scriptState) verify() error {
	st.mu.Lock()
	servers := append([]*Server(nil), st.servers...)
	probs := append([]string(nil), st.problems...)
	st.mu.Unlock()
	for _, s := range servers {
		if left := s.unconsumed(); left != "" {
			probs = append(probs, left)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New(strings.Join(probs, "\n"))
}

// TestscriptSetup prepares a script for the fakellm command. Call it from
// testscript.Params.Setup (together with any setup of your own).
func TestscriptSetup(env *testscript.Env) error {
	st := &scriptState{}
	env.Values[scriptStateKey{}] = st
	tb, canFail := env.T().(testing.TB)
	env.Defer(func() {
		st.mu.Lock()
		servers := st.servers
		st.mu.Unlock()
		for _, s := range servers {
			s.Close()
		}
		st.mu.Lock()
		quiet := st.expectFailure
		st.mu.Unlock()
		if err := st.verify(); err != nil && canFail && !quiet {
			tb.Errorf("fake model server:\n%v", err)
		}
	})
	return nil
}

// TestscriptCommands returns the fakellm command for testscript.Params.Cmds.
func TestscriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){"fakellm": fakellmCmd}
}

func fakellmCmd(ts *testscript.TestScript, neg bool, args []string) {
	st, _ := ts.Value(scriptStateKey{}).(*scriptState)
	if st == nil {
		ts.Fatalf("fakellm: llmtest.TestscriptSetup is not installed in testscript.Params.Setup")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: fakellm KIND SCRIPT.json | fakellm verify | fakellm requests | fakellm bodies | fakellm wait N")
	}
	switch args[0] {
	case "verify":
		err := st.verify()
		if neg {
			if err == nil {
				ts.Fatalf("fakellm verify: no problem found")
			}
			ts.Logf("fakellm verify (expected to fail):\n%v", err)
			st.mu.Lock()
			st.expectFailure = true
			st.mu.Unlock()
			return
		}
		ts.Check(err)
	case "wait":
		if neg || len(args) != 2 {
			ts.Fatalf("usage: fakellm wait N")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		deadline := time.Now().Add(20 * time.Second)
		for st.received() < n {
			if time.Now().After(deadline) {
				ts.Fatalf("fakellm wait: %d requests after 20s, want %d", st.received(), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
	case "prefix":
		if len(args) != 3 {
			ts.Fatalf("usage: fakellm prefix A B")
		}
		st.mu.Lock()
		servers := append([]*Server(nil), st.servers...)
		st.mu.Unlock()
		var reqs []Request
		for _, s := range servers {
			reqs = append(reqs, s.Requests()...)
		}
		a, errA := strconv.Atoi(args[1])
		b, errB := strconv.Atoi(args[2])
		if errA != nil || errB != nil || a < 1 || b < 1 || a > len(reqs) || b > len(reqs) {
			ts.Fatalf("fakellm prefix: requests are numbered 1 to %d", len(reqs))
		}
		err := SamePrefix(reqs[a-1], reqs[b-1])
		if neg {
			if err == nil {
				ts.Fatalf("fakellm prefix: request %d repeats request %d's prefix", b, a)
			}
			return
		}
		ts.Check(err)
	case "usage":
		st.mu.Lock()
		servers := append([]*Server(nil), st.servers...)
		st.mu.Unlock()
		var total Usage
		for _, s := range servers {
			u := s.Usage()
			total.Requests += u.Requests
			total.Input += u.Input
			total.Cached += u.Cached
			total.Written += u.Written
			total.Largest = max(total.Largest, u.Largest)
			total.Overflows += u.Overflows
		}
		b, err := json.Marshal(total)
		ts.Check(err)
		fmt.Fprintf(ts.Stdout(), "%s\n", b)
	case "bodies":
		// the request bodies as the servers received them, one a line
		st.mu.Lock()
		servers := append([]*Server(nil), st.servers...)
		st.mu.Unlock()
		for _, s := range servers {
			for _, r := range s.Requests() {
				fmt.Fprintf(ts.Stdout(), "%s\n", bytes.ReplaceAll(r.Raw, []byte("\n"), []byte(" ")))
			}
		}
	case "requests":
		st.mu.Lock()
		servers := append([]*Server(nil), st.servers...)
		st.mu.Unlock()
		for _, s := range servers {
			for _, r := range s.Requests() {
				b, err := json.Marshal(summary(r))
				ts.Check(err)
				fmt.Fprintf(ts.Stdout(), "%s\n", b)
			}
		}
	default:
		if neg {
			ts.Fatalf("fakellm: unsupported: ! fakellm %s", args[0])
		}
		if len(args) < 2 || len(args) > 4 {
			ts.Fatalf("usage: fakellm KIND SCRIPT.json [window=N] [local=LOCAL.json]")
		}
		window := 0
		var local Local
		for _, opt := range args[2:] {
			if v, ok := strings.CutPrefix(opt, "local="); ok {
				ts.Check(json.Unmarshal([]byte(ts.ReadFile(v)), &local))
				continue
			}
			v, ok := strings.CutPrefix(opt, "window=")
			n, err := strconv.Atoi(v)
			if !ok || err != nil || n <= 0 {
				ts.Fatalf("fakellm: bad option %q (want window=TOKENS or local=FILE)", opt)
			}
			window = n
		}
		kind := args[0]
		wireKind := kind
		if kind == "azure" || kind == "local" {
			wireKind = "openai"
		}
		turns, err := LoadScript([]byte(ts.ReadFile(args[1])))
		ts.Check(err)
		s, err := Start(wireKind, turns, st.fail)
		ts.Check(err)
		s.SetWindow(window)
		s.SetLocal(local)
		st.mu.Lock()
		st.servers = append(st.servers, s)
		st.mu.Unlock()
		ts.Setenv("FAKELLM_URL", s.Root())
		switch kind {
		case "openai":
			ts.Setenv("OPENAI_BASE_URL", s.URL())
			ts.Setenv("OPENAI_API_KEY", "sk-fakellm")
		case "local":
			ts.Setenv("OPENAI_BASE_URL", s.URL())
		case "azure":
			ts.Setenv("AZURE_OPENAI_ENDPOINT", s.Root())
			ts.Setenv("AZURE_OPENAI_API_KEY", "fakellm")
			if ts.Getenv("AZURE_OPENAI_DEPLOYMENT") == "" {
				ts.Setenv("AZURE_OPENAI_DEPLOYMENT", "fakellm-deployment")
			}
		case "anthropic":
			ts.Setenv("ANTHROPIC_BASE_URL", s.URL())
			ts.Setenv("ANTHROPIC_API_KEY", "sk-ant-fakellm")
		case "gemini":
			ts.Setenv("GEMINI_BASE_URL", s.URL())
			ts.Setenv("GEMINI_API_KEY", "fakellm")
		}
	}
}

type requestSummary struct {
	Kind        string           `json:"kind"`
	Model       string           `json:"model"`
	System      string           `json:"system,omitempty"`
	Tools       []string         `json:"tools,omitempty"`
	Messages    []messageSummary `json:"messages"`
	Tokens      int              `json:"tokens"`
	Cached      int              `json:"cached"`
	Breakpoints int              `json:"breakpoints,omitempty"`
	Reasoning   string           `json:"reasoningEffort,omitempty"`
	Thinking    int              `json:"thinkingBudget,omitempty"`
}

type messageSummary struct {
	Role        string       `json:"role"`
	Text        string       `json:"text,omitempty"`
	Images      int          `json:"images,omitempty"`
	ToolCalls   []ToolCall   `json:"toolCalls,omitempty"`
	ToolResults []ToolResult `json:"toolResults,omitempty"`
	Thinking    []Thinking   `json:"thinking,omitempty"`
}

func summary(r Request) requestSummary {
	out := requestSummary{Kind: r.Kind, Model: r.Model, System: r.System, Tools: r.Tools, Tokens: r.Tokens, Cached: r.Cached,
		Breakpoints: r.Breakpoints, Reasoning: r.ReasoningEffort, Thinking: r.ThinkingBudget}
	for _, m := range r.Messages {
		out.Messages = append(out.Messages, messageSummary{Role: m.Role, Text: m.Text, Images: len(m.Images), ToolCalls: m.ToolCalls, ToolResults: m.ToolResults, Thinking: m.Thinking})
	}
	return out
}
