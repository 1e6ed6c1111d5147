package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// scripted is a provider that replays responses and records requests.
type scripted struct {
	replies []func(ctx context.Context, on func(llm.Event)) (*llm.Response, error)
	reqs    []*llm.Request
}

func (s *scripted) Name() string  { return "fake" }
func (s *scripted) Model() string { return "fake-1" }
func (s *scripted) Stream(ctx context.Context, req *llm.Request, on func(llm.Event)) (*llm.Response, error) {
	cp := *req
	cp.Messages = append([]llm.Message(nil), req.Messages...)
	s.reqs = append(s.reqs, &cp)
	if len(s.replies) == 0 {
		return nil, fmt.Errorf("unexpected request %d", len(s.reqs))
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r(ctx, on)
}

func text(t string) func(context.Context, func(llm.Event)) (*llm.Response, error) {
	return func(_ context.Context, on func(llm.Event)) (*llm.Response, error) {
		on(llm.Event{Type: llm.EventText, Text: t})
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: t}}, nil
	}
}

func calls(cs ...llm.ToolCall) func(context.Context, func(llm.Event)) (*llm.Response, error) {
	return func(context.Context, func(llm.Event)) (*llm.Response, error) {
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: cs}}, nil
	}
}

func fail(err error) func(context.Context, func(llm.Event)) (*llm.Response, error) {
	return func(context.Context, func(llm.Event)) (*llm.Response, error) { return nil, err }
}

// echoTool echoes its "say" argument; its verdict comes from the argument.
type echoTool struct{ ran []string }

func (e *echoTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "echo", Description: "echo", Schema: json.RawMessage(`{"type":"object"}`)}
}

func (e *echoTool) Review(_ context.Context, c *tool.Call) (*policy.Decision, error) {
	var a struct{ Say, Verdict string }
	if err := tool.DecodeArgs(c.Args, &a); err != nil {
		return nil, err
	}
	v := policy.Verdict(a.Verdict)
	if v == "" {
		v = policy.Allow
	}
	return &policy.Decision{Decision: v, Display: "echo: " + a.Say, Rule: "echo " + a.Say, Subject: a.Say, Reasons: []string{"because"}}, nil
}

func (e *echoTool) Run(_ context.Context, c *tool.Call) (*tool.Result, error) {
	var a struct{ Say string }
	tool.DecodeArgs(c.Args, &a)
	e.ran = append(e.ran, a.Say)
	return &tool.Result{Content: "said " + a.Say}, nil
}

type recUI struct {
	text     strings.Builder
	notices  []string
	asked    [][]*Pending
	answers  []Answer
	refused  []string
	finished []string
}

func (r *recUI) Waiting()                        {}
func (r *recUI) Text(s string)                   { r.text.WriteString(s) }
func (r *recUI) EndText()                        {}
func (r *recUI) Notice(_ NoticeKind, msg string) { r.notices = append(r.notices, msg) }
func (r *recUI) Approve(_ context.Context, b []*Pending) ([]Answer, error) {
	r.asked = append(r.asked, b)
	return r.answers, nil
}
func (r *recUI) ToolStart(p *Pending) ToolView { return &recView{r} }
func (r *recUI) Refused(p *Pending, why string) {
	r.refused = append(r.refused, p.Decision.Display+": "+why)
}

type recView struct{ r *recUI }

func (v *recView) Output(string, []byte) {}
func (v *recView) Done(res *tool.Result) { v.r.finished = append(v.r.finished, res.Content) }

type grants struct{ got []string }

func (g *grants) Grant(d *policy.Decision, s policy.Scope) error {
	g.got = append(g.got, fmt.Sprintf("%s/%d", d.Rule, s))
	return nil
}

func call(id, say, verdict string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: "echo", Arguments: fmt.Sprintf(`{"say":%q,"verdict":%q}`, say, verdict)}
}

func newAgent(p llm.Provider, ui UI, interactive bool, et *echoTool) *Agent {
	return New(Options{Provider: p, Tools: tool.NewRegistry(et), UI: ui, Interactive: interactive, System: func(context.Context) string { return "sys" }}, nil)
}

func TestToolRoundTrip(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(call("1", "a", "allow"), call("2", "b", "allow")),
		text("done"),
	}}
	ui, et := &recUI{}, &echoTool{}
	a := newAgent(p, ui, true, et)
	changed, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"})
	if err != nil || !changed {
		t.Fatalf("Turn = %v, %v", changed, err)
	}
	if got := strings.Join(et.ran, ","); got != "a,b" {
		t.Errorf("ran %q, want a,b", got)
	}
	// user, assistant(calls), tool, tool, assistant
	if len(a.Messages) != 5 {
		t.Fatalf("messages = %d, want 5: %+v", len(a.Messages), a.Messages)
	}
	second := p.reqs[1]
	if second.System != "sys" || len(second.Tools) != 1 {
		t.Errorf("second request system %q tools %d", second.System, len(second.Tools))
	}
	last := second.Messages[len(second.Messages)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != "2" || last.Text != "said b" {
		t.Errorf("last tool message = %+v", last)
	}
	if ui.text.String() != "done" {
		t.Errorf("text = %q", ui.text.String())
	}
}

func TestMalformedArgumentsGoBackToModel(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(llm.ToolCall{ID: "1", Name: "echo", Arguments: `{"say": "a"`}),
		calls(llm.ToolCall{ID: "2", Name: "nosuch", Arguments: `{}`}),
		text("fixed"),
	}}
	a := newAgent(p, &recUI{}, true, &echoTool{})
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	m := p.reqs[1].Messages
	if got := m[len(m)-1]; !got.IsError || !strings.Contains(got.Text, "invalid arguments JSON") {
		t.Errorf("malformed args result = %+v", got)
	}
	m = p.reqs[2].Messages
	if got := m[len(m)-1]; !got.IsError || !strings.Contains(got.Text, `unknown tool "nosuch"`) || !strings.Contains(got.Text, "echo") {
		t.Errorf("unknown tool result = %+v", got)
	}
}

func TestBatchApproval(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(call("1", "a", "ask"), call("2", "b", "allow"), call("3", "c", "ask"), call("4", "d", "deny")),
		text("ok"),
	}}
	ui, et, g := &recUI{answers: []Answer{{Approved: true, Always: true}, {Approved: false, Reason: "too risky"}}}, &echoTool{}, &grants{}
	a := newAgent(p, ui, true, et)
	a.opts.Grants = g
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if len(ui.asked) != 1 || len(ui.asked[0]) != 2 {
		t.Fatalf("asked %d batches; want one batch of the two ask calls", len(ui.asked))
	}
	if got := strings.Join(et.ran, ","); got != "a,b" {
		t.Errorf("ran %q, want a,b", got)
	}
	if len(g.got) != 1 || g.got[0] != "echo a/1" {
		t.Errorf("grants = %v", g.got)
	}
	m := p.reqs[1].Messages
	declined, denied := m[len(m)-2], m[len(m)-1]
	if !strings.Contains(declined.Text, "too risky") || !declined.IsError {
		t.Errorf("declined result = %+v", declined)
	}
	if denied.Text != "not run: denied by policy: because" {
		t.Errorf("denied result = %+v", denied)
	}
}

func TestHeadlessRefusesWithRemedy(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(call("1", "a", "ask")),
		text("ok"),
	}}
	ui, et := &recUI{}, &echoTool{}
	a := newAgent(p, ui, false, et)
	var remedy []string
	a.opts.Remedy = func(s string) { remedy = append(remedy, s) }
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if len(ui.asked) != 0 || len(et.ran) != 0 {
		t.Fatalf("headless asked %d, ran %v", len(ui.asked), et.ran)
	}
	if len(remedy) != 1 || !strings.Contains(remedy[0], "--approve 'echo a'") {
		t.Errorf("remedy = %q", remedy)
	}
	m := p.reqs[1].Messages
	if got := m[len(m)-1]; !strings.Contains(got.Text, "no terminal") {
		t.Errorf("refusal = %q", got.Text)
	}
}

func TestMaxToolCalls(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(call("1", "a", "allow"), call("2", "b", "allow")),
		calls(call("3", "c", "allow"), call("4", "d", "allow")),
	}}
	ui, et := &recUI{}, &echoTool{}
	a := newAgent(p, ui, true, et)
	a.opts.MaxToolCalls = 3
	_, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"})
	if !errors.Is(err, ErrToolLimit) {
		t.Fatalf("err = %v, want ErrToolLimit", err)
	}
	if got := strings.Join(et.ran, ","); got != "a,b,c" {
		t.Errorf("ran %q", got)
	}
	last := a.Messages[len(a.Messages)-1]
	if last.ToolCallID != "4" || !strings.Contains(last.Text, "limit of 3") {
		t.Errorf("last = %+v", last)
	}
	if len(ui.notices) == 0 || !strings.Contains(ui.notices[0], "maxToolCalls") {
		t.Errorf("notices = %q", ui.notices)
	}
}

func TestProviderErrorKeepsConversation(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		text("first answer"),
		fail(&llm.Error{Kind: llm.ErrAuth, Provider: "fake", Status: 401}),
	}}
	a := newAgent(p, &recUI{}, true, &echoTool{})
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "one"}); err != nil {
		t.Fatal(err)
	}
	changed, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "two"})
	if err == nil || changed {
		t.Fatalf("Turn = %v, %v; want error, unchanged", changed, err)
	}
	if len(a.Messages) != 2 || a.Messages[1].Text != "first answer" {
		t.Errorf("messages = %+v", a.Messages)
	}
}

func TestCancelMidStreamKeepsPartialText(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		func(ctx context.Context, on func(llm.Event)) (*llm.Response, error) {
			on(llm.Event{Type: llm.EventText, Text: "partial"})
			cancel()
			return nil, ctx.Err()
		},
	}}
	a := newAgent(p, &recUI{}, true, &echoTool{})
	changed, err := a.Turn(ctx, llm.Message{Role: llm.RoleUser, Text: "hi"})
	if !errors.Is(err, context.Canceled) || !changed {
		t.Fatalf("Turn = %v, %v", changed, err)
	}
	if got := a.Messages[len(a.Messages)-1]; got.Role != llm.RoleAssistant || got.Text != "partial" {
		t.Errorf("last message = %+v", got)
	}
}

// retryTool fails once and offers a retry.
type retryTool struct{ echoTool }

func (r *retryTool) Run(_ context.Context, c *tool.Call) (*tool.Result, error) {
	return &tool.Result{Content: "refused", Retry: &tool.Retry{
		Decision: &policy.Decision{Decision: policy.Ask, Display: "run outside the sandbox: x"},
		Run:      func(context.Context) (*tool.Result, error) { return &tool.Result{Content: "worked outside"}, nil },
	}}, nil
}

func TestRetryOutsideSandboxNeedsApproval(t *testing.T) {
	for _, approve := range []bool{true, false} {
		p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
			calls(call("1", "a", "allow")),
			text("ok"),
		}}
		ui := &recUI{answers: []Answer{{Approved: approve}}}
		a := New(Options{Provider: p, Tools: tool.NewRegistry(&retryTool{}), UI: ui, Interactive: true}, nil)
		if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		if len(ui.asked) != 1 || ui.asked[0][0].Decision.Display != "run outside the sandbox: x" {
			t.Fatalf("approve=%v: asked %+v", approve, ui.asked)
		}
		m := p.reqs[1].Messages
		got := m[len(m)-1].Text
		if approve && !strings.Contains(got, "worked outside") {
			t.Errorf("approved retry result = %q", got)
		}
		if !approve && got != "refused" {
			t.Errorf("declined retry result = %q", got)
		}
	}
}
