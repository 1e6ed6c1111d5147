package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/compact"
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
// "cd" moves its working directory ("?" says the move cannot be known
// before the call runs; "land" is where such a call ends, or where any
// call really ends when it differs from "cd"). Reviews record the
// directory they were made for.
type echoTool struct {
	ran      []string
	cwd      string
	reviewed []string
}

func (e *echoTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "echo", Description: "echo", Schema: json.RawMessage(`{"type":"object"}`)}
}

type echoArgs struct{ Say, Verdict, Cd, Land string }

func (e *echoTool) Review(_ context.Context, c *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a echoArgs
	if err := tool.DecodeArgs(c.Args, &a); err != nil {
		return nil, err
	}
	v := policy.Verdict(a.Verdict)
	if v == "" {
		v = policy.Allow
	}
	e.reviewed = append(e.reviewed, a.Say+"@"+at.Cwd)
	d := &policy.Decision{Decision: v, Display: "echo: " + a.Say, Rule: "echo " + a.Say, Subject: a.Say, Reasons: []string{"because"}}
	after := at.Cwd
	switch a.Cd {
	case "":
	case "?":
		after = ""
	default:
		after = a.Cd
	}
	return &tool.Invocation{Decision: d, CwdAfter: after, Run: func(context.Context) (*tool.Result, error) {
		return e.run(a, at)
	}}, nil
}

func (e *echoTool) run(a echoArgs, at tool.At) (*tool.Result, error) {
	e.ran = append(e.ran, a.Say)
	switch {
	case a.Land != "":
		e.cwd = a.Land
	case a.Cd != "":
		e.cwd = a.Cd
	}
	return &tool.Result{Content: "said " + a.Say + " in " + at.Cwd}, nil
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
	if len(r.answers) > len(b) {
		// Several rounds: each takes its answers in turn.
		got := r.answers[:len(b)]
		r.answers = r.answers[len(b):]
		return got, nil
	}
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
	if et.cwd == "" {
		et.cwd = "/w"
	}
	return New(Options{Provider: p, Tools: tool.NewRegistry(et), UI: ui, Interactive: interactive, System: func(context.Context) string { return "sys" },
		Cwd: func() string { return et.cwd }}, nil)
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
	if last.Role != llm.RoleTool || last.ToolCallID != "2" || last.Text != "said b in /w" {
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

func (r *retryTool) Review(ctx context.Context, c *tool.Call, at tool.At) (*tool.Invocation, error) {
	inv, err := r.echoTool.Review(ctx, c, at)
	if err != nil {
		return nil, err
	}
	inv.Run = func(context.Context) (*tool.Result, error) {
		return &tool.Result{Content: "refused", Retry: &tool.Retry{
			Decision: &policy.Decision{Decision: policy.Ask, Display: "run outside the sandbox: x"},
			Run:      func(context.Context) (*tool.Result, error) { return &tool.Result{Content: "worked outside"}, nil },
		}}, nil
	}
	return inv, nil
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

func cdCall(id, say, verdict, cd, land string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: "echo", Arguments: fmt.Sprintf(`{"say":%q,"verdict":%q,"cd":%q,"land":%q}`, say, verdict, cd, land)}
}

// runBatch runs one model message with cs and returns the tool, the UI and
// the tool results the model got.
func runBatch(t *testing.T, answers []Answer, cs ...llm.ToolCall) (*echoTool, *recUI, []string) {
	t.Helper()
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){calls(cs...), text("done")}}
	ui, et := &recUI{answers: answers}, &echoTool{cwd: "/home/u"}
	a := newAgent(p, ui, true, et)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range p.reqs[1].Messages {
		if m.Role == llm.RoleTool {
			got = append(got, m.Text)
		}
	}
	return et, ui, got
}

// A later call of a batch is reviewed against the directory the earlier
// ones leave behind, and asked about together with them.
func TestBatchReviewedInOrderWithCwd(t *testing.T) {
	yes := []Answer{{Approved: true}, {Approved: true}}
	et, ui, got := runBatch(t, yes, cdCall("1", "a", "ask", "/etc", ""), call("2", "b", "ask"))
	if strings.Join(et.reviewed, " ") != "a@/home/u b@/etc" {
		t.Errorf("reviews = %v, want b reviewed in /etc", et.reviewed)
	}
	if len(ui.asked) != 1 || len(ui.asked[0]) != 2 {
		t.Errorf("asked %d times, want both calls at once", len(ui.asked))
	}
	if strings.Join(got, "|") != "said a in /home/u|said b in /etc" {
		t.Errorf("results = %q", got)
	}
}

// When an earlier call's directory cannot be known before it runs, the
// later call is reviewed (and asked about) after it ran, where it ended.
func TestBatchUnknownCwdReviewsLaterCallsAfterwards(t *testing.T) {
	yes := []Answer{{Approved: true}}
	et, ui, got := runBatch(t, yes, cdCall("1", "a", "ask", "?", "/srv"), call("2", "b", "ask"), call("3", "c", "allow"))
	if strings.Join(et.reviewed, " ") != "a@/home/u b@/srv c@/srv" {
		t.Errorf("reviews = %v, want b and c reviewed in /srv after a ran", et.reviewed)
	}
	if len(ui.asked) != 2 || ui.asked[0][0].Decision.Subject != "a" || ui.asked[1][0].Decision.Subject != "b" {
		t.Errorf("asked %+v, want a then b in separate rounds", ui.asked)
	}
	if strings.Join(got, "|") != "said a in /home/u|said b in /srv|said c in /srv" {
		t.Errorf("results = %q", got)
	}
}

// A call that does not end where its review predicted makes the later
// calls be reviewed again; so does one that did not run at all.
func TestBatchMispredictedCwdReviewsAgain(t *testing.T) {
	yes := []Answer{{Approved: true}, {Approved: true}, {Approved: true}}
	et, _, got := runBatch(t, yes, cdCall("1", "a", "allow", "/etc", "/var"), call("2", "b", "ask"))
	if strings.Join(et.reviewed, " ") != "a@/home/u b@/etc b@/var" {
		t.Errorf("reviews = %v", et.reviewed)
	}
	if strings.Join(got, "|") != "said a in /home/u|said b in /var" {
		t.Errorf("results = %q", got)
	}

	no := []Answer{{Approved: false}, {Approved: true}, {Approved: true}}
	et, _, got = runBatch(t, no, cdCall("1", "a", "ask", "/etc", ""), call("2", "b", "ask"))
	if strings.Join(et.reviewed, " ") != "a@/home/u b@/etc b@/home/u" {
		t.Errorf("declined cd: reviews = %v", et.reviewed)
	}
	if len(got) != 2 || !strings.Contains(got[0], "declined") || got[1] != "said b in /home/u" {
		t.Errorf("declined cd: results = %q", got)
	}
}

// When compaction cannot get below the threshold (the system prompt alone
// is large), nb does not ask for a summary before every request.
func TestNoCompactionLoop(t *testing.T) {
	var replies []func(context.Context, func(llm.Event)) (*llm.Response, error)
	replies = append(replies, text("summary of the old turns"))
	for range 4 {
		replies = append(replies, text("answer"))
	}
	p := &scripted{replies: replies}
	ui := &recUI{}
	big := strings.Repeat("instructions ", 1850) // about 6 k of a 10 k window
	var old []llm.Message
	for i := range 6 {
		old = append(old, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("q%d %s", i, strings.Repeat("x", 1200))}, llm.Message{Role: llm.RoleAssistant, Text: "a"})
	}
	a := New(Options{Provider: p, UI: ui, Model: Model{Window: 10000}, CompactAt: 0.6, System: func(context.Context) string { return big }}, old)
	for i := range 4 {
		if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("next %d", i)}); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	summaries := 0
	for _, r := range p.reqs {
		if strings.HasPrefix(r.System, "You compact") {
			summaries++
		}
	}
	if summaries != 1 {
		t.Errorf("%d summary requests, want 1", summaries)
	}
	if !a.Messages[0].Summary {
		t.Errorf("the conversation does not start with the summary")
	}
}

// A provider's overflow error leads to one compaction and one retry, never
// more; a failed retry leaves the error to the user.
func TestOverflowRetriesOnce(t *testing.T) {
	tooLong := &llm.Error{Kind: llm.ErrContextSize, Provider: "fake", Status: 400, Message: "This model's maximum context length is 6000 tokens."}
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		fail(tooLong), text("summary"), fail(tooLong),
	}}
	var old []llm.Message
	for i := range 8 {
		old = append(old, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("q%d %s", i, strings.Repeat("x", 2000))}, llm.Message{Role: llm.RoleAssistant, Text: "a"})
	}
	ui := &recUI{}
	a := New(Options{Provider: p, UI: ui, Model: Model{Window: 200000}}, old)
	_, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "next"})
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.ErrContextSize {
		t.Fatalf("err = %v, want the provider's overflow error", err)
	}
	if len(p.reqs) != 3 || !strings.HasPrefix(p.reqs[1].System, "You compact") {
		t.Fatalf("%d requests, want the request, one summary and one retry", len(p.reqs))
	}
	if a.Model().Window != 6000 {
		t.Errorf("window = %d, want the 6000 the provider named", a.Model().Window)
	}
	// The compaction is kept; the unanswered message is not.
	if !a.Messages[0].Summary || a.Messages[len(a.Messages)-1].Text == "next" {
		t.Errorf("conversation after the failed retry: %d messages, first summary=%v", len(a.Messages), a.Messages[0].Summary)
	}
}

// A summary request to a model that reasons first leaves room for its
// reasoning: its output limit is well above the summary's own few
// thousand tokens, and input and output together still fit the window.
func TestSummaryLeavesRoomForReasoning(t *testing.T) {
	for _, reasons := range []bool{false, true} {
		p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("summary")}}
		var old []llm.Message
		for i := range 40 {
			old = append(old, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("q%d %s", i, strings.Repeat("x", 8000))}, llm.Message{Role: llm.RoleAssistant, Text: "a"})
		}
		const window = 128000
		a := New(Options{Provider: p, UI: &recUI{}, Model: Model{Window: window, Reasons: reasons}}, old)
		if err := a.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
		r := p.reqs[0]
		if reasons && r.MaxTokens < summaryMaxTokens+8000 {
			t.Errorf("reasoning model: summary max tokens %d leave no room for reasoning", r.MaxTokens)
		}
		if !reasons && r.MaxTokens != summaryMaxTokens {
			t.Errorf("summary max tokens %d, want %d", r.MaxTokens, summaryMaxTokens)
		}
		if in := compact.Request(r); in+r.MaxTokens > window {
			t.Errorf("reasons=%v: summary request of %d tokens + %d to answer exceeds the %d window", reasons, in, r.MaxTokens, window)
		}
	}
}

// overcounting is a provider whose tokenizer counts every request factor
// times nb's estimate, and refuses one over its window with the
// provider's overflow error (naming the count when named is set).
type overcounting struct {
	window, factor int
	named          bool
	reqs, refused  int
}

func (o *overcounting) Name() string  { return "fake" }
func (o *overcounting) Model() string { return "fake-1" }
func (o *overcounting) Stream(_ context.Context, req *llm.Request, on func(llm.Event)) (*llm.Response, error) {
	o.reqs++
	n := compact.Request(req) * o.factor
	if n+req.MaxTokens > o.window {
		o.refused++
		msg := "prompt is too long"
		if o.named {
			msg = fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens.", o.window, n)
		}
		return nil, &llm.Error{Kind: llm.ErrContextSize, Provider: "fake", Status: 400, Message: msg}
	}
	answer := "answer"
	if strings.HasPrefix(req.System, "You compact") {
		answer = "summary of the older turns"
	}
	on(llm.Event{Type: llm.EventText, Text: answer})
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: answer}, Usage: llm.Usage{InputTokens: n, OutputTokens: 2}}, nil
}

// A history whose recorded token counts undercount the conversation (the
// provider counts three times what they suggest) must not make every later
// turn fail: the overflowing summary request shrinks and is sent again,
// and the turns after it succeed.
func TestUndercountingHistoryDoesNotStick(t *testing.T) {
	for _, named := range []bool{true, false} {
		t.Run(fmt.Sprintf("count named %v", named), func(t *testing.T) {
			p := &overcounting{window: 32000, factor: 3, named: named}
			var old []llm.Message
			for i := range 80 {
				old = append(old,
					llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("q%d %s", i, strings.Repeat("x", 2000))},
					// The recorded usage says the requests were small.
					llm.Message{Role: llm.RoleAssistant, Text: "a", Usage: &llm.Usage{InputTokens: 100 + i*100}})
			}
			ui := &recUI{}
			a := New(Options{Provider: p, UI: ui, Model: Model{Window: p.window}}, old)
			for i := range 3 {
				if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("next %d", i)}); err != nil {
					t.Fatalf("turn %d failed: %v\nnotices: %q", i, err, ui.notices)
				}
			}
			if !a.Messages[0].Summary {
				t.Errorf("the conversation was not compacted")
			}
			if p.refused > 3 {
				t.Errorf("%d of %d requests refused as too long", p.refused, p.reqs)
			}
		})
	}
}

// After a provider's overflow error, the retry keeps the most recent turns
// whole (question, calls, results, answer) up to RecentShare of the window
// the provider named; only older turns are summarised.
func TestOverflowKeepsRecentTurnsWhole(t *testing.T) {
	const window = 14000
	tooLong := &llm.Error{Kind: llm.ErrContextSize, Provider: "fake", Status: 400, Message: fmt.Sprintf("This model's maximum context length is %d tokens.", window)}
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		fail(tooLong), text("summary"), text("answer"),
	}}
	var old []llm.Message
	for i := range 12 {
		id := fmt.Sprintf("call_%d", i)
		old = append(old,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: what do the logs say?", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "echo", Arguments: `{"say":"logs"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "echo", Text: strings.Repeat(fmt.Sprintf("log line of turn %d\n", i), 150)},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d: the logs are quiet.", i)})
	}
	a := New(Options{Provider: p, UI: &recUI{}, Model: Model{Window: 200000}}, old)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "next"}); err != nil {
		t.Fatal(err)
	}
	retry := p.reqs[2]
	msgs := retry.Messages
	if !msgs[0].Summary || msgs[1].Role != llm.RoleUser || !strings.HasPrefix(msgs[1].Text, "question") {
		t.Fatalf("the retry does not start with the summary and then a whole turn: %q, %q", msgs[0].Text, msgs[1].Text)
	}
	// The previous turn is there whole.
	n := len(msgs)
	if msgs[n-1].Text != "next" || msgs[n-2].Text != "answer 11: the logs are quiet." || msgs[n-3].Role != llm.RoleTool || msgs[n-5].Text != "question 11: what do the logs say?" {
		t.Errorf("the previous turn is not whole in the retry")
	}
	kept := compact.Messages(msgs[1:])
	if kept < window/4 || kept > int(RecentShare*window) {
		t.Errorf("the retry keeps %d tokens of recent turns, want about %.0f%% of the %d window", kept, RecentShare*100, window)
	}
}

// The wording of the cap's notice and of a refused request: "an
// assistant message", and the limit actually hit (the window less the
// room kept for the answer).
func TestCapAndLimitWording(t *testing.T) {
	ui := &recUI{}
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text(strings.Repeat("long answer ", 100))}}
	a := New(Options{Provider: p, UI: ui, MaxMessageBytes: 200}, nil)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if len(ui.notices) == 0 || !strings.HasPrefix(ui.notices[0], "an assistant message was cut to 200 bytes") {
		t.Errorf("notices %q", ui.notices)
	}

	p = &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){fail(errors.New("summary refused"))}}
	a = New(Options{Provider: p, UI: &recUI{}, Model: Model{Window: 16384}}, []llm.Message{
		{Role: llm.RoleUser, Text: "q"}, {Role: llm.RoleAssistant, Text: "a"},
	})
	_, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: strings.Repeat("y", 60000)})
	if err == nil || !strings.Contains(err.Error(), "the limit is 12 k: the 16 k window less 4 k kept for the answer") {
		t.Errorf("err = %v", err)
	}
}

// A 10 MB tool argument runs whole but is kept to maxMessageBytes in the
// conversation, as valid JSON naming the saved full text.
func TestHugeArgumentsCappedInHistory(t *testing.T) {
	huge := `{"say":"` + strings.Repeat("z", 10<<20) + `"}`
	echo := &echoTool{}
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		calls(llm.ToolCall{ID: "c1", Name: "echo", Arguments: huge}), text("done"),
	}}
	saved := map[string]string{}
	a := New(Options{Provider: p, Tools: tool.NewRegistry(echo), UI: &recUI{}, Interactive: true, MaxMessageBytes: 4096,
		SaveOutput: func(kind, text string) (string, error) { saved[kind] = text; return "/state/" + kind, nil }}, nil)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	if len(echo.ran) != 1 || len(echo.ran[0]) != 10<<20 {
		t.Fatalf("the call did not run with its whole argument")
	}
	args := a.Messages[1].ToolCalls[0].Arguments
	var v map[string]string
	if len(args) > 4096 || json.Unmarshal([]byte(args), &v) != nil || !strings.Contains(v["nb_cut"], "/state/capped-args-echo") {
		t.Errorf("kept arguments (%d bytes): %.300s", len(args), args)
	}
	if saved["capped-args-echo"] != huge {
		t.Errorf("the full arguments were not saved")
	}
}

// A conversation holding a message with an unknown role is not sent: the
// error says which message and that /clear starts over.
func TestUnknownRoleNotSent(t *testing.T) {
	p := &scripted{}
	a := New(Options{Provider: p, UI: &recUI{}}, []llm.Message{{Role: "system", Text: "x"}})
	_, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "hi"})
	if err == nil || !strings.Contains(err.Error(), `message 1 of the conversation has the unknown role "system"`) || !strings.Contains(err.Error(), "/clear") || len(p.reqs) != 0 {
		t.Errorf("err = %v, %d requests", err, len(p.reqs))
	}
}

// When no summary can be written and the request cannot be sent as it is,
// the older turns are set aside (kept whole by Archive) and the turn goes
// on: a failing summary never makes every later turn fail.
func TestFailedSummarySetsOlderTurnsAside(t *testing.T) {
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){
		fail(&llm.Error{Kind: llm.ErrServer, Provider: "fake", Status: 500, Message: "summaries are broken"}), text("answer"),
	}}
	var old []llm.Message
	for i := range 10 {
		old = append(old, llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("q%d %s", i, strings.Repeat("x", 8000))}, llm.Message{Role: llm.RoleAssistant, Text: "a"})
	}
	var kept []llm.Message
	ui := &recUI{}
	a := New(Options{Provider: p, UI: ui, Model: Model{Window: 16000},
		Archive: func(msgs []llm.Message) (string, error) { kept = msgs; return "/state/kept.json", nil }}, old)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "next"}); err != nil {
		t.Fatalf("turn: %v (notices %q)", err, ui.notices)
	}
	if len(kept) != len(old)+1 || !a.Messages[0].Summary || !strings.Contains(a.Messages[0].Text, "/state/kept.json") || !strings.Contains(a.Messages[0].Text, "summaries are broken") {
		t.Errorf("kept %d messages; first message %.300q", len(kept), a.Messages[0].Text)
	}
}

// TestCalibrationFromHistory: the estimate of a loaded conversation is
// calibrated by its last answer's usage against the messages before it,
// whether or not the request carries the conversation itself.
func TestCalibrationFromHistory(t *testing.T) {
	var old []llm.Message
	for i := range 20 {
		old = append(old,
			llm.Message{Role: llm.RoleUser, Text: strings.Repeat("question ", 10*i+1)},
			llm.Message{Role: llm.RoleAssistant, Text: strings.Repeat("answer \"x\"\n", i+1), Usage: &llm.Usage{InputTokens: 12000 + 40*i, OutputTokens: 5}})
	}
	last := len(old) - 1
	for _, own := range []bool{true, false} {
		a := New(Options{Model: Model{Window: 1 << 20}}, old)
		req := &llm.Request{System: "sys", Messages: a.Messages}
		if !own {
			req.Messages = append([]llm.Message(nil), a.Messages...)
		}
		before := compact.Fixed(req) + compact.Messages(old[:last])
		want := float64(old[last].Usage.InputTokens) / float64(before)
		if want != clampCalib(want) {
			t.Fatalf("the test's ratio %v is clamped", want)
		}
		if got := a.estimate(req); a.calib != want || got != int(float64(compact.Request(req))*want) {
			t.Errorf("own slice %v: calibration %v, estimate %d; want %v, %d", own, a.calib, got, want, int(float64(compact.Request(req))*want))
		}
	}
}
