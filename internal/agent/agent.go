// Package agent runs the conversation's turn loop: it sends the
// conversation to the model, streams the answer to the UI, reviews every
// tool call with the policy, asks the user about the ones that need it (all
// at once), runs the approved ones and feeds the results back until the
// model answers without tools or the per-message tool-call budget is spent.
//
// The calls of one model message are reviewed in order, each against the
// working directory the earlier ones leave behind. When an earlier call's
// effect on the directory cannot be known before it runs (cd "$X"), or it
// did not end where its review predicted, the later calls are reviewed
// (and asked about) only after it ran.
package agent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/compact"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/catalog"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/visible"
)

// Granter saves "always" and "this session" approvals.
type Granter interface {
	Grant(d *policy.Decision, scope policy.Scope) error
}

// Record is one audited tool call.
type Record struct {
	Call      *tool.Call
	Decision  *policy.Decision
	Outcome   Outcome
	DecidedBy policy.Decider
	// Cwd is the session working directory the call was reviewed at.
	Cwd    string
	Result *tool.Result
}

// Outcome is how an audited call ended.
type Outcome string

const (
	// Ran: the call ran.
	Ran Outcome = "ran"
	// Denied: the policy refused it, or it needed asking and nobody could
	// be asked.
	Denied Outcome = "denied"
	// Declined: the user said no.
	Declined Outcome = "declined"
	// Skipped: the user interrupted the turn before it ran.
	Skipped Outcome = "skipped"
)

// Options configures an Agent.
type Options struct {
	Provider llm.Provider
	// Tools may be nil (--no-tools).
	Tools *tool.Registry
	UI    UI
	// System builds the system prompt. It must be stable from request to
	// request: it starts the prefix providers cache.
	System func(ctx context.Context) string
	// Facts builds the per-request facts (the shell's working directory,
	// the date), sent after the cached prefix of every request.
	Facts func(ctx context.Context) string
	// Model is what is known of the provider's model: its context window,
	// prices and reasoning settings.
	Model Model
	// CompactAt is the share of the context window at which older turns
	// are compacted (0 means DefaultCompactAt).
	CompactAt float64
	// MaxMessageBytes caps one answer or tool result kept in the
	// conversation (0: no cap).
	MaxMessageBytes int
	// SaveOutput keeps full texts cut from the conversation by compaction
	// or the cap, and returns their path (nil: they are not shrunk).
	SaveOutput compact.Saver
	// Archive keeps the whole conversation before a summary replaces its
	// older turns and returns the path of the kept copy, which the summary
	// names (nil: it is not kept).
	Archive func(msgs []llm.Message) (path string, err error)
	// MaxToolCalls caps tool calls per user message.
	MaxToolCalls int
	MaxTokens    int
	// Interactive is false when there is no terminal to ask at: calls that
	// need approval are refused with a remedy instead.
	Interactive bool
	Grants      Granter
	// Cwd is the session working directory the first call of a message is
	// reviewed against (nil: none).
	Cwd func() string
	// Audit, when set, receives every tool call's outcome.
	Audit func(Record)
	// Remedy, when set, receives the human remedy line of a refused call
	// (printed to stderr in headless runs).
	Remedy func(line string)
	// Redact withholds secrets from everything sent to the model
	// (withhold.go); nil sends texts as they are.
	Redact Redactor
	// Release asks the user whether withheld secrets may be sent after
	// all (interactive runs only; nil: they never are).
	Release ReleaseFunc
	// Withheld, when set, is told what was withheld from which text
	// ("the result of run: cat .env", "your message").
	Withheld func(from string, counts []redact.Count)
	Now      func() time.Time
}

// Agent holds a conversation and runs turns on it.
type Agent struct {
	opts     Options
	Messages []llm.Message

	// turnStart is the index of the user message of the turn in flight (-1
	// outside a turn).
	turnStart int
	// compacted is set when compaction changed the conversation during
	// the current turn.
	compacted bool
	// floor is the size the last compaction reached.
	floor int
	// calib scales estimates to the provider's own counts (0: not yet
	// calibrated).
	calib float64

	session Stats
	turn    Stats

	// w is what secrets were screened and released (withhold.go).
	w withholder
}

// New returns an agent continuing messages.
func New(opts Options, messages []llm.Message) *Agent {
	if opts.MaxToolCalls <= 0 {
		opts.MaxToolCalls = 25
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	a := &Agent{opts: opts, Messages: messages}
	a.reset()
	return a
}

// SetProvider switches the model backend (/provider, /model).
func (a *Agent) SetProvider(p llm.Provider, m Model) {
	a.opts.Provider = p
	a.opts.Model = m
	a.calib = 0
}

// Model returns what is known of the current model.
func (a *Agent) Model() Model { return a.opts.Model }

// Provider returns the current model backend.
func (a *Agent) Provider() llm.Provider { return a.opts.Provider }

// ErrToolLimit is reported when a message used up maxToolCalls.
var ErrToolLimit = errors.New("tool call limit reached")

// Turn sends the user message and runs the loop until the model answers
// without tool calls. Messages that completed are kept even when the turn
// fails, so a provider error or Ctrl+C never loses the conversation; a user
// message that got no answer at all is removed again (the caller keeps it in
// the input history for a retry). The returned bool reports whether the
// conversation changed.
func (a *Agent) Turn(ctx context.Context, user llm.Message) (changed bool, err error) {
	a.turnStart = len(a.Messages)
	a.compacted = false
	a.turn = Stats{}
	a.Messages = append(a.Messages, user)
	answered := func() bool { return a.turnStart < 0 || len(a.Messages) > a.turnStart+1 }
	defer func() {
		if !answered() {
			a.Messages = a.Messages[:a.turnStart]
			changed = a.compacted
		}
	}()
	used := 0
	for {
		resp, err := a.request(ctx)
		var calls []llm.ToolCall
		if resp != nil {
			// The calls run as the model made them; only the copy kept
			// in the conversation is capped.
			calls = resp.Message.ToolCalls
		}
		if resp != nil && (resp.Message.Text != "" || len(resp.Message.ToolCalls) > 0) {
			a.keep(&resp.Message)
			a.written(&resp.Message)
			a.Messages = append(a.Messages, resp.Message)
		}
		if err != nil {
			return answered() || a.compacted, err
		}
		if resp.StopReason == llm.StopMaxTokens {
			a.opts.UI.Notice(NoticeWarn, "the answer was cut: the model reached its output token limit (maxTokens)")
		}
		if len(calls) == 0 {
			if resp.Message.Text == "" {
				a.opts.UI.Notice(NoticeWarn, "the model returned an empty answer")
			}
			return true, nil
		}
		results, stop := a.runCalls(ctx, calls, &used)
		// what did not come through a call's run (refusals, errors) is
		// screened before the conversation keeps it
		a.screen(ctx, results)
		for i := range results {
			a.keep(&results[i])
		}
		a.Messages = append(a.Messages, results...)
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		if stop {
			a.opts.UI.Notice(NoticeWarn, fmt.Sprintf("stopped after %d tool calls (maxToolCalls); reply \"continue\" to let the model go on", a.opts.MaxToolCalls))
			return true, ErrToolLimit
		}
	}
}

// build assembles the next request from the conversation.
func (a *Agent) build(ctx context.Context) *llm.Request {
	req := &llm.Request{
		Model:          a.opts.Provider.Model(),
		Messages:       a.Messages,
		MaxTokens:      a.opts.MaxTokens,
		Reasoning:      a.opts.Model.Reasoning,
		ThinkingBudget: a.opts.Model.ThinkingBudget,
	}
	if a.opts.System != nil {
		req.System = a.opts.System(ctx)
	}
	if a.opts.Facts != nil {
		req.Facts = a.opts.Facts(ctx)
	}
	if a.opts.Tools != nil {
		req.Tools = a.opts.Tools.Specs()
	}
	return req
}

// request sends the conversation, compacting it first when it has grown
// past the compaction threshold, and once more (with one retry) when the
// provider says it is too long after all.
func (a *Agent) request(ctx context.Context) (*llm.Response, error) {
	if i, role := llm.BadRole(a.Messages); i >= 0 {
		return nil, fmt.Errorf("not sent: message %d of the conversation has %s (written by another version of nb?); /clear sets this conversation aside (/conversations keeps it) and starts a new one", i+1, role)
	}
	req := a.build(ctx)
	if err := a.fit(ctx, req); err != nil {
		return nil, err
	}
	resp, err := a.send(ctx, req)
	var le *llm.Error
	if err != nil && errors.As(err, &le) && le.Kind == llm.ErrContextSize && resp.Message.Text == "" && a.opts.Model.Window > 0 {
		// The model's window is smaller than nb assumed: learn it from
		// the provider's message, or assume it is well below this request.
		learned := windowFromError(le.Message)
		if learned == 0 {
			learned = a.estimate(req) * 3 / 4
		}
		a.recalibrate(req, le.Message)
		a.opts.Model.Window = min(a.opts.Model.Window, learned)
		a.opts.UI.Notice(NoticeWarn, fmt.Sprintf("the provider says the conversation is too long for the model; compacting it to fit a window of about %s tokens and retrying once (set \"contextWindow\" in the provider's config entry)", catalog.Tokens(a.opts.Model.Window)))
		if cerr := a.compact(ctx, req, true, RecentShare, true); cerr != nil {
			return resp, fmt.Errorf("%w; compaction failed: %v", err, cerr)
		}
		req = a.build(ctx)
		resp, err = a.send(ctx, req)
	}
	return resp, err
}

// send streams one request to the UI and accounts for its usage.
func (a *Agent) send(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	a.guard(ctx, req)
	a.opts.UI.Waiting()
	var shown llm.TextBuffer
	resp, err := a.opts.Provider.Stream(ctx, req, func(ev llm.Event) {
		switch ev.Type {
		case llm.EventText:
			shown.WriteString(ev.Text)
			a.opts.UI.Text(ev.Text)
		case llm.EventRetry:
			a.opts.UI.Notice(NoticeWarn, ev.Text)
		}
	})
	if shown.Len() > 0 {
		a.opts.UI.EndText()
	}
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		// Keep what the user already saw, marked as cut; drop
		// half-streamed tool calls.
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: shown.String(), Partial: true}}, err
	}
	resp.Message.Role = llm.RoleAssistant
	a.account(req, resp)
	return resp, nil
}

// runCalls reviews, approves and runs one assistant message's tool calls and
// returns one tool message per call, in order.
func (a *Agent) runCalls(ctx context.Context, calls []llm.ToolCall, used *int) ([]llm.Message, bool) {
	results := make([]*tool.Result, len(calls))
	limit := false
	counted := make([]bool, len(calls))
	for next := 0; next < len(calls); {
		next = a.runSegment(ctx, calls, next, results, counted, used, &limit)
	}
	msgs := make([]llm.Message, len(calls))
	for i, c := range calls {
		msgs[i] = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Text: results[i].Content, IsError: results[i].IsError}
	}
	return msgs, limit
}

// reviewed is one call of a segment: its pending view, the invocation,
// and the working directory its review predicted it leaves behind.
type reviewed struct {
	index int
	p     *Pending
	inv   *tool.Invocation
}

// runSegment reviews calls from first on, in order, each against the
// directory the earlier ones leave behind, up to and including the first
// call whose effect on the directory is unknown before it runs. It asks
// about the segment's calls together, runs them in order, and returns the
// index of the first call it did not settle: the one after the segment, or
// the one after a call that did not leave the directory its review
// predicted (those are reviewed again against the real directory).
func (a *Agent) runSegment(ctx context.Context, calls []llm.ToolCall, first int, results []*tool.Result, counted []bool, used *int, limit *bool) int {
	cwd := a.cwd()
	var seg []reviewed
	end := len(calls)
	for i := first; i < len(calls); i++ {
		c := calls[i]
		call := &tool.Call{ID: c.ID, Name: c.Name, Args: []byte(c.Arguments)}
		if !counted[i] {
			if *used >= a.opts.MaxToolCalls {
				*limit = true
				results[i] = tool.Errorf("not run: the limit of %d tool calls for this message was reached; summarise what you found and tell the user how to continue", a.opts.MaxToolCalls)
				continue
			}
			*used++
			counted[i] = true
		}
		t, ok := a.lookup(c.Name)
		if !ok {
			results[i] = a.rejected(call, fmt.Sprintf("unknown tool %q; available tools: %s", c.Name, a.toolNames()))
			continue
		}
		inv, err := t.Review(ctx, call, tool.At{Cwd: cwd})
		if err != nil {
			results[i] = a.rejected(call, err.Error())
			continue
		}
		if inv.KeptArgs != nil {
			// A secret in the arguments is not kept in the conversation
			// (calls shares its array with the saved message).
			calls[i].Arguments, call.Args = string(inv.KeptArgs), inv.KeptArgs
		}
		seg = append(seg, reviewed{index: i, p: &Pending{Call: call, Decision: inv.Decision, Description: description(call.Args), Cwd: cwd, Changes: inv.Changes}, inv: inv})
		if inv.CwdAfter == "" {
			end = i + 1
			break
		}
		cwd = inv.CwdAfter
	}

	// Ask about every call of the segment that needs it, together.
	var ask []*Pending
	for _, r := range seg {
		if r.p.Decision.Decision == policy.Ask {
			ask = append(ask, r.p)
		}
	}
	answers := map[*Pending]Answer{}
	if len(ask) > 0 && a.opts.Interactive {
		a.preview(ctx, seg)
		got, err := a.opts.UI.Approve(ctx, ask)
		if err != nil && ctx.Err() == nil {
			a.opts.UI.Notice(NoticeError, "approval failed: "+err.Error())
		}
		for i, p := range ask {
			var ans Answer // not approved unless the user said so
			if err == nil && i < len(got) {
				ans = got[i]
			}
			answers[p] = ans
		}
	}

	for k, r := range seg {
		i, p := r.index, r.p
		results[i] = a.settle(ctx, p, r.inv, answers)
		if r.inv.CwdAfter != "" && a.cwd() != r.inv.CwdAfter && k+1 < len(seg) {
			// The directory is not where the later calls were reviewed
			// for: review them again.
			return i + 1
		}
	}
	return end
}

// rejected shows a call that was refused before it could run (an unknown
// tool, bad arguments: an empty command, a host group that does not
// exist) as a failed tool line with the error the model gets, and returns
// that result.
func (a *Agent) rejected(call *tool.Call, msg string) *tool.Result {
	res := tool.Errorf("%s", msg)
	shown := *res
	shown.Note = msg
	a.opts.UI.ToolStart(&Pending{Call: call, Description: description(call.Args), Cwd: a.cwd()}).Done(&shown)
	return res
}

// preview runs the previews of the calls about to be asked (a command
// that only writes files, run first in a copy-on-write view), so the
// question shows what they change.
func (a *Agent) preview(ctx context.Context, seg []reviewed) {
	for _, r := range seg {
		if r.inv.Preview == nil || r.p.Decision.Decision != policy.Ask || ctx.Err() != nil {
			continue
		}
		r.inv.Preview(ctx)
		r.p.Changes = r.inv.Changes
	}
}

// settle runs one reviewed call as its decision and the user's answer
// say, and returns its result.
func (a *Agent) settle(ctx context.Context, p *Pending, inv *tool.Invocation, answers map[*Pending]Answer) *tool.Result {
	if ctx.Err() != nil {
		res := tool.Errorf("not run: the user interrupted (Ctrl+C) before this call ran")
		a.audit(p, Skipped, policy.ByUser, res)
		return res
	}
	d := p.Decision
	switch d.Decision {
	case policy.Deny:
		return a.refuse(p, d.DecidedBy)
	case policy.Ask:
		ans, asked := answers[p]
		if !asked {
			return a.refuseHeadless(p)
		}
		if !ans.Approved {
			msg := "the user declined to run this call"
			if ans.Reason != "" {
				msg += "; their reason: " + ans.Reason
			}
			res := &tool.Result{Content: msg, IsError: true}
			why := "declined"
			if ans.Reason != "" {
				why += ": " + ans.Reason
			}
			a.opts.UI.Refused(p, why)
			a.audit(p, Declined, policy.ByUser, res)
			return res
		}
		if a.opts.Grants != nil && (ans.Always || ans.Session) {
			scope := policy.ScopeSession
			if ans.Always {
				scope = policy.ScopeProject
			}
			if err := a.opts.Grants.Grant(d, scope); err != nil {
				a.opts.UI.Notice(NoticeError, "could not save approval: "+err.Error())
			}
		}
		d.DecidedBy = policy.ByUser
	}
	res := a.run(ctx, inv, p)
	a.audit(p, Ran, d.DecidedBy, res)
	return res
}

func (a *Agent) cwd() string {
	if a.opts.Cwd == nil {
		return ""
	}
	return a.opts.Cwd()
}

func (a *Agent) run(ctx context.Context, inv *tool.Invocation, p *Pending) *tool.Result {
	res := a.runView(ctx, p, func() (*tool.Result, error) { return inv.Run(ctx) })
	if res.Retry == nil || !a.opts.Interactive || ctx.Err() != nil {
		return res
	}
	// The sandbox refused the call: offer the user a re-run outside it.
	retry := &Pending{Call: p.Call, Decision: res.Retry.Decision, Description: "The sandbox refused this command; run it again outside the sandbox?", Cwd: p.Cwd}
	answers, err := a.opts.UI.Approve(ctx, []*Pending{retry})
	if err != nil || len(answers) != 1 || !answers[0].Approved {
		return res
	}
	retry.Decision.DecidedBy = policy.ByUser
	again := a.runView(ctx, retry, func() (*tool.Result, error) { return res.Retry.Run(ctx) })
	a.audit(retry, Ran, policy.ByUser, again)
	again.Content = "[first run refused by the sandbox; run again outside it with the user's approval]\n" + again.Content
	a.w.mark(again.Content)
	return again
}

// runView runs one call under a transcript view. Its result is screened
// before the view shows it, and the user may release what was withheld.
func (a *Agent) runView(ctx context.Context, p *Pending, run func() (*tool.Result, error)) *tool.Result {
	view := a.opts.UI.ToolStart(p)
	p.Call.Live = view.Output
	started := a.opts.Now()
	res, err := run()
	if err != nil {
		res = tool.Errorf("%v", err)
	}
	if res.Duration == 0 {
		res.Duration = a.opts.Now().Sub(started)
	}
	found, original := a.withheldResult(p, res)
	view.Done(res)
	a.offerRelease(ctx, p, res, found, original)
	return res
}

func (a *Agent) refuse(p *Pending, by policy.Decider) *tool.Result {
	headless := p.Decision.Headless()
	why := strings.Join(p.Decision.Reasons, "; ")
	var content, shown string
	switch {
	case headless:
		content, shown = policy.Refusal, "needs approval (no terminal to ask)"
		if why != "" {
			content += " (" + why + ")"
		}
	case why == "":
		content, shown = "not run: denied by policy", "denied by policy"
	default:
		content, shown = "not run: denied by policy: "+why, "denied: "+why
	}
	res := &tool.Result{Content: content, IsError: true}
	a.opts.UI.Refused(p, shown)
	if p.Decision.Remedy != "" && a.opts.Remedy != nil {
		a.opts.Remedy(p.Decision.Remedy)
	}
	a.audit(p, Denied, by, res)
	return res
}

func (a *Agent) refuseHeadless(p *Pending) *tool.Result {
	res := &tool.Result{
		Content: "not run: this call needs the user's approval and nb has no terminal to ask at. " +
			"Do not retry it; tell the user what you wanted to run and why, so they can approve it (for example with --approve).",
		IsError: true,
	}
	a.opts.UI.Refused(p, "needs approval (no terminal)")
	if a.opts.Remedy != nil {
		rule := p.Decision.Rule
		if rule == "" {
			rule = p.Decision.Subject
		}
		if p.Decision.Remedy != "" {
			a.opts.Remedy(p.Decision.Remedy)
		} else if rule != "" {
			// A huge call (a model may send a 10 MB command) is named by
			// its head and tail only.
			disp := visible.Bound(p.Decision.Display, 3072, 1024)
			if r := firstLine(rule); len(r) <= maxRemedyRule {
				a.opts.Remedy(fmt.Sprintf("nb: not run (needs approval): %s\n  re-run with --approve %s", disp, shellQuote(r)))
			} else {
				a.opts.Remedy(fmt.Sprintf("nb: not run (needs approval): %s\n  (its approval rule, %s bytes, is too long to repeat here)", disp, visible.Count(len(r))))
			}
		}
	}
	a.audit(p, Denied, policy.ByNoTerminal, res)
	return res
}

// maxRemedyRule is the longest rule the remedy line repeats.
const maxRemedyRule = 4096

func (a *Agent) audit(p *Pending, outcome Outcome, by policy.Decider, res *tool.Result) {
	if a.opts.Audit != nil {
		a.opts.Audit(Record{Call: p.Call, Decision: p.Decision, Outcome: outcome, DecidedBy: by, Result: res, Cwd: p.Cwd})
	}
}

func (a *Agent) lookup(name string) (tool.Tool, bool) {
	if a.opts.Tools == nil {
		return nil, false
	}
	return a.opts.Tools.Get(name)
}

func (a *Agent) toolNames() string {
	if a.opts.Tools == nil {
		return "(none: tools are disabled)"
	}
	var names []string
	for _, s := range a.opts.Tools.Specs() {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// shellQuote quotes s for a POSIX shell command line.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
