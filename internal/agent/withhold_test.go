package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
)

// canarySecret is the value of a secret environment variable the
// detector knows.
const canarySecret = "cnry-7Qx2-Vb9Lm4Zp"

func canaryDetector() *redact.Detector {
	return redact.New(redact.Options{Values: func() []redact.Value {
		return []redact.Value{{Kind: "$CANARY_TOKEN", Value: canarySecret}}
	}})
}

// leakTool puts the canary where its mode says: in its result, in the
// error of its review, or in the error of its run.
type leakTool struct{}

func (leakTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "leak", Description: "leak", Schema: json.RawMessage(`{"type":"object"}`)}
}

func (leakTool) Review(_ context.Context, c *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a struct{ Mode string }
	if err := tool.DecodeArgs(c.Args, &a); err != nil {
		return nil, err
	}
	if a.Mode == "review" {
		return nil, errors.New("cannot open /x/" + canarySecret)
	}
	d := &policy.Decision{Decision: policy.Allow, Display: "leak: " + a.Mode}
	return tool.Stays(at, d, func(context.Context) (*tool.Result, error) {
		if a.Mode == "run" {
			return nil, errors.New("failed: token " + canarySecret + " refused")
		}
		return &tool.Result{Content: `{"stdout":"TOKEN=` + canarySecret + `\n","exitCode":0}`}, nil
	}), nil
}

func leak(id, mode string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: "leak", Arguments: `{"mode":"` + mode + `"}`}
}

// sent is every text of the requests p received: the system prompt,
// the facts, the tools, and every message's text, calls and reasoning.
func sent(p *scripted) string {
	var b strings.Builder
	for _, r := range p.reqs {
		b.WriteString(r.System + "\n" + r.Facts + "\n")
		for _, t := range r.Tools {
			b.WriteString(t.Name + " " + t.Description + " " + string(t.Schema) + "\n")
		}
		for _, m := range r.Messages {
			b.WriteString(m.Text + "\n")
			for _, c := range m.ToolCalls {
				b.WriteString(c.Arguments + "\n")
			}
			for _, th := range m.Thinking {
				b.WriteString(th.Text + "\n")
			}
		}
	}
	return b.String()
}

// TestWithheldEveryChannel: a secret in a tool result, a review error, a
// run error, the user's message (an attachment), the system prompt (the
// project instructions) and a message added to the conversation directly
// (an MCP prompt) never reaches the model; the conversation kept holds
// the markers; the call's line is told what was withheld.
func TestWithheldEveryChannel(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(leak("1", "result"), leak("2", "review"), leak("3", "run"), llm.ToolCall{ID: "4", Name: "nosuch-" + canarySecret, Arguments: "{}"}),
		text("done"),
		text("again"),
	}}
	ui := &recUI{}
	a := New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: ui, Interactive: false, Redact: canaryDetector(),
		System: func(context.Context) string { return "instructions: key " + canarySecret },
		Facts:  func(context.Context) string { return "cwd /home/" + canarySecret }}, nil)
	user := llm.Message{Role: llm.RoleUser, Text: "File notes.txt:\n```\n" + canarySecret + "\n```\nwhat is this?"}
	if _, err := a.Turn(context.Background(), user); err != nil {
		t.Fatal(err)
	}
	a.Messages = append(a.Messages, llm.Message{Role: llm.RoleUser, Text: "prompt from a server: " + canarySecret},
		llm.Message{Role: llm.RoleAssistant, Text: "ok"})
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "go on"}); err != nil {
		t.Fatal(err)
	}
	all := sent(p)
	if strings.Contains(all, canarySecret) {
		t.Fatalf("the canary reached the model:\n%s", all)
	}
	if n := strings.Count(all, redact.Marker("$CANARY_TOKEN")); n < 7 {
		t.Errorf("%d markers in the requests, want every channel's:\n%s", n, all)
	}
	for _, m := range a.Messages {
		if strings.Contains(m.Text, canarySecret) {
			t.Errorf("the conversation kept the canary: %+v", m)
		}
	}
	if len(ui.finished) == 0 || strings.Contains(ui.finished[0], canarySecret) {
		t.Errorf("the call's view got %q", ui.finished)
	}
	if !strings.Contains(strings.Join(ui.notices, "\n"), "withheld 1 secret ($CANARY_TOKEN) from your message") {
		t.Errorf("notices: %q", ui.notices)
	}
}

// TestWithheldShownOnResult: the result a call's view gets carries the
// counts, and its content the marker.
func TestWithheldShownOnResult(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){calls(leak("1", "result")), text("done")}}
	var got *tool.Result
	ui := &viewUI{recUI: &recUI{}, done: func(r *tool.Result) { got = r }}
	a := New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: ui, Redact: canaryDetector()}, nil)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got == nil || len(got.Withheld) != 1 || got.Withheld[0] != (redact.Count{Kind: "$CANARY_TOKEN", Count: 1}) {
		t.Fatalf("result shown: %+v", got)
	}
	if strings.Contains(got.Content, canarySecret) || !strings.Contains(got.Content, redact.Marker("$CANARY_TOKEN")) {
		t.Errorf("content shown: %q", got.Content)
	}
}

// viewUI is a recUI whose views report the result they are given.
type viewUI struct {
	*recUI
	done func(*tool.Result)
}

func (v *viewUI) ToolStart(*Pending) ToolView { return doneView(v.done) }

type doneView func(*tool.Result)

func (doneView) Output(string, []byte)   {}
func (f doneView) Done(res *tool.Result) { f(res) }

// TestRelease: at a terminal the user may release what was withheld; the
// value then reaches the model, in that result and later ones. Without a
// terminal nobody is asked and it stays withheld.
func TestRelease(t *testing.T) {
	for _, interactive := range []bool{true, false} {
		p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
			calls(leak("1", "result")), calls(leak("2", "result")), text("done"),
		}}
		asked := 0
		var from string
		a := New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: &recUI{}, Interactive: interactive, Redact: canaryDetector(),
			Release: func(_ context.Context, f string, found []redact.Found) bool {
				asked++
				from = f
				return len(found) == 1 && found[0].Value == canarySecret
			}}, nil)
		if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		all := sent(p)
		if interactive {
			if asked != 1 || from != "the result of leak: result" {
				t.Errorf("asked %d times, from %q", asked, from)
			}
			if strings.Count(all, canarySecret) < 2 {
				t.Errorf("the released value did not reach the model in both results:\n%s", all)
			}
			continue
		}
		if asked != 0 || strings.Contains(all, canarySecret) {
			t.Errorf("headless: asked %d times; sent %s", asked, all)
		}
	}
}

// TestNoDetector: without a detector the texts go as they are.
func TestNoDetector(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){calls(leak("1", "result")), text("done")}}
	a := New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: &recUI{}}, nil)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sent(p), canarySecret) {
		t.Error("the text was changed without a detector")
	}
}

func TestDescribe(t *testing.T) {
	if got := Describe([]redact.Count{{Kind: "github-pat", Count: 1}}); got != "1 secret (github-pat)" {
		t.Errorf("got %q", got)
	}
	if got := Describe([]redact.Count{{Kind: "private-key", Count: 1}, {Kind: "$X", Count: 2}}); got != "3 secrets (private-key, 2 × $X)" {
		t.Errorf("got %q", got)
	}
}

// TestForgetsOnlyScreened: when the record of screened texts is trimmed
// (many texts left the conversation), a text added since and not yet
// screened is still screened before it is sent.
func TestForgetsOnlyScreened(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("ok")}}
	a := New(Options{Provider: p, UI: &recUI{}, Redact: canaryDetector()}, nil)
	for i := range 200 {
		a.w.mark(strings.Repeat("x", i+1)) // texts long gone from the conversation
	}
	a.Messages = append(a.Messages, llm.Message{Role: llm.RoleUser, Text: "from a server: " + canarySecret}, llm.Message{Role: llm.RoleAssistant, Text: "noted"})
	a.screen(context.Background(), nil) // a screening that trims, of other messages
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sent(p), canarySecret) {
		t.Fatalf("an unscreened text was taken for screened:\n%s", sent(p))
	}
}

// TestLoadedConversationScreened: a conversation loaded from disk (saved
// by a version of nb without the detector, or resumed) is screened whole
// before its first request, the model's answers, calls and reasoning
// included; reasoning that held a secret is dropped, not changed.
func TestLoadedConversationScreened(t *testing.T) {
	loaded := []llm.Message{
		{Role: llm.RoleUser, Text: "read the notes"},
		{Role: llm.RoleAssistant, Thinking: []llm.Thinking{{Text: "the token is " + canarySecret, Signature: "sig"}},
			ToolCalls: []llm.ToolCall{{ID: "1", Name: "leak", Arguments: `{"mode":"result","note":"` + canarySecret + `"}`}}},
		{Role: llm.RoleTool, ToolCallID: "1", ToolName: "leak", Text: `{"stdout":"TOKEN=` + canarySecret + `\n","exitCode":0}`},
		{Role: llm.RoleAssistant, Text: "The token is " + canarySecret + "."},
	}
	for _, how := range []string{"started with", "resumed"} {
		p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("ok")}}
		ui := &recUI{}
		msgs := slices.Clone(loaded)
		msgs[1].ToolCalls = slices.Clone(loaded[1].ToolCalls)
		var a *Agent
		if how == "started with" {
			a = New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: ui, Redact: canaryDetector()}, msgs)
		} else {
			a = New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: ui, Redact: canaryDetector()}, nil)
			a.Messages = msgs
		}
		if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "go on"}); err != nil {
			t.Fatal(err)
		}
		if all := sent(p); strings.Contains(all, canarySecret) {
			t.Errorf("%s: the canary of a loaded conversation reached the model:\n%s", how, all)
		}
		if a.Messages[1].Thinking != nil || !json.Valid([]byte(a.Messages[1].ToolCalls[0].Arguments)) {
			t.Errorf("%s: the answer kept %+v", how, a.Messages[1])
		}
		if !strings.Contains(strings.Join(ui.notices, "\n"), "from an earlier answer of the model") {
			t.Errorf("%s: notices %q", how, ui.notices)
		}
	}
}

// TestLiveAnswersNotScreened: what the model writes in this session is
// sent back as it is (a value the user released, repeated by the model,
// is not withheld from its own answer, nor its reasoning dropped).
func TestLiveAnswersNotScreened(t *testing.T) {
	thought := []llm.Thinking{{Text: "the user released " + canarySecret, Signature: "sig"}}
	answer := func(context.Context, func(llm.Event)) (*llm.Response, error) {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: "it says " + canarySecret, Thinking: thought}}, nil
	}
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){answer, text("ok")}}
	ui := &recUI{}
	a := New(Options{Provider: p, UI: ui, Redact: canaryDetector()}, nil)
	for _, msg := range []string{"hi", "and?"} {
		if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: msg}); err != nil {
			t.Fatal(err)
		}
	}
	if last := p.reqs[1].Messages; last[1].Text != "it says "+canarySecret || len(last[1].Thinking) != 1 || len(ui.notices) != 0 {
		t.Errorf("the model's own answer was changed: %+v (notices %q)", last[1], ui.notices)
	}
}

// specTool is a tool whose description and schema (an MCP server's own
// words) hold the canary.
type specTool struct{ leakTool }

func (specTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "remote_query", Description: "Queries the API with key " + canarySecret,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{"type":"string","default":"` + canarySecret + `"}}}`)}
}

// TestToolSpecsScreened: the tools' descriptions and schemas are
// screened; the schema stays valid JSON; the same specs are screened
// once.
func TestToolSpecsScreened(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("a"), text("b")}}
	ui := &recUI{}
	a := New(Options{Provider: p, Tools: tool.NewRegistry(specTool{}), UI: ui, Redact: canaryDetector()}, nil)
	for _, msg := range []string{"hi", "again"} {
		if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: msg}); err != nil {
			t.Fatal(err)
		}
	}
	if all := sent(p); strings.Contains(all, canarySecret) {
		t.Fatalf("a tool's spec reached the model:\n%s", all)
	}
	if !json.Valid(p.reqs[1].Tools[0].Schema) {
		t.Errorf("schema %s", p.reqs[1].Tools[0].Schema)
	}
	if n := strings.Count(strings.Join(ui.notices, "\n"), "from the description of the tool remote_query"); n != 2 {
		t.Errorf("%d notices (description and schema, once): %q", n, ui.notices)
	}
}

// TestPicturesTold: a picture cannot be screened; the user is told once
// that it goes as it is.
func TestPicturesTold(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("a"), text("b")}}
	ui := &recUI{}
	a := New(Options{Provider: p, UI: ui, Redact: canaryDetector()}, nil)
	img := llm.Image{MediaType: "image/png", Data: []byte("\x89PNG fake"), Name: "shot.png"}
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "see", Images: []llm.Image{img, {MediaType: "image/png", Data: []byte("other")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "and?"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ui.notices, "\n"); strings.Count(got, "nb cannot look for secrets in pictures") != 1 || !strings.Contains(got, "2 pictures are sent as they are") {
		t.Errorf("notices %q", ui.notices)
	}
}

// TestSummaryScreened: compaction of a conversation loaded from disk
// (nothing of it screened yet) before its first request sends the older
// turns to the model for a summary: that request is screened, and so is
// the summary kept in place of the turns.
func TestSummaryScreened(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("summary: the key was " + canarySecret), text("ok")}}
	var old []llm.Message
	for i := range 40 {
		old = append(old, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("q%d %s", i, strings.Repeat("x", 1600))},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: fmt.Sprint(i), Name: "leak", Arguments: `{"mode":"result"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: fmt.Sprint(i), ToolName: "leak", Text: "TOKEN=" + canarySecret},
			llm.Message{Role: llm.RoleAssistant, Text: "it is " + canarySecret})
	}
	ui := &recUI{}
	a := New(Options{Provider: p, Tools: tool.NewRegistry(leakTool{}), UI: ui, Model: Model{Window: 16000}, Redact: canaryDetector()}, old)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "next"}); err != nil {
		t.Fatal(err)
	}
	if len(p.reqs) != 2 || !strings.HasPrefix(p.reqs[0].System, "You compact") {
		t.Fatalf("%d requests, want a summary request and the turn's", len(p.reqs))
	}
	if all := sent(p); strings.Contains(all, canarySecret) {
		t.Errorf("the canary reached the model:\n%s", all)
	}
}
