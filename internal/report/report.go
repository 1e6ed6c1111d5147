// Package report is the machine-readable account of a single-shot run: the
// one object that --output-format json prints at the end, and the lines
// that --output-format stream-json prints as the run goes. The shapes are a
// contract, described in docs/output-format.md and checked against the JSON
// Schema docs/output-format.schema.json; Version changes when a field
// changes meaning or goes away (new fields may appear at any time).
package report

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/visible"
)

// Version is the schema version carried by the start event and the result.
const Version = 1

// Mode is what a Recorder writes.
type Mode int

const (
	// Quiet writes nothing (--output-format text); the recorder still
	// gathers what the exit code depends on.
	Quiet Mode = iota
	// Final writes the result object once, at the end (json).
	Final
	// Stream writes one event per line as it happens, the result last
	// (stream-json).
	Stream
)

// Status says how a run ended; each status has its own exit code.
type Status string

const (
	StatusAnswered    Status = "answered"
	StatusError       Status = "error"
	StatusApproval    Status = "approval_required"
	StatusToolLimit   Status = "tool_limit"
	StatusInterrupted Status = "interrupted"
)

// Tool-call outcomes beyond agent.Record's ("ran", "denied", "declined",
// "skipped"): a call that never reached approval (unknown tool, unusable
// arguments, maxToolCalls reached).
const OutcomeNotRun = "not_run"

// summaryMax bounds the summary of a tool result.
const summaryMax = 512

// A call's display longer than displayHead+displayTail bytes is reported
// as its head and tail around "… N bytes more …" (a model may send a 10 MB
// command; its arguments are capped as the history caps them).
const (
	displayHead = 3072
	displayTail = 1024
)

// shownDisplay is d's prompt line (approval.DisplayLine: the warning sign
// drawn as the prompt draws it), bounded.
func shownDisplay(d *policy.Decision) string {
	return visible.Bound(approval.DisplayLine(d), displayHead, displayTail)
}

// Usage is the token count of a run or of one model response.
type Usage struct {
	InputTokens       int `json:"inputTokens"`
	OutputTokens      int `json:"outputTokens"`
	CachedInputTokens int `json:"cachedInputTokens"`
	CacheWriteTokens  int `json:"cacheWriteTokens"`
	ReasoningTokens   int `json:"reasoningTokens"`
	// CostUSD is the estimated price, present only when nb knows the
	// model's prices (set with Recorder.SetCost).
	CostUSD *float64 `json:"costUSD,omitempty"`
}

func (u *Usage) add(v Usage) {
	u.InputTokens += v.InputTokens
	u.OutputTokens += v.OutputTokens
	u.CachedInputTokens += v.CachedInputTokens
	u.CacheWriteTokens += v.CacheWriteTokens
	u.ReasoningTokens += v.ReasoningTokens
}

// Error describes why a run did not simply answer.
type Error struct {
	// Kind: config, provider, history, approval_required,
	// tool_limit, interrupted or error.
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Reason classifies provider failures: auth, rate_limit, server,
	// network, bad_request, context_size, unknown.
	Reason string `json:"reason,omitempty"`
	// HTTPStatus is the provider's HTTP status, when there was one.
	HTTPStatus int `json:"httpStatus,omitempty"`
	// Remedies are the lines telling the human what to do, e.g.
	// "re-run with --approve 'make test'".
	Remedies []string `json:"remedies,omitempty"`
}

// ToolCall is everything known about one tool call of the run.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments are the call's arguments: the JSON value the model sent,
	// or its raw text as a string when it was not valid JSON.
	Arguments json.RawMessage `json:"arguments"`
	// Decision is the policy's verdict: allow, ask or deny; empty when
	// the call never reached the policy.
	Decision policy.Verdict `json:"decision,omitempty"`
	// Outcome: ran, denied (policy, or no terminal to ask), declined (by
	// the user), skipped (interrupted) or not_run.
	Outcome string `json:"outcome"`
	// DecidedBy says who decided: a policy.Decider (flag, rule, grant,
	// safe-list, sandbox, action, sensitive-path, deny-rule, user,
	// headless, no-terminal); docs/output-format.md lists them all.
	DecidedBy string   `json:"decidedBy,omitempty"`
	Safety    string   `json:"safety,omitempty"`
	Display   string   `json:"display,omitempty"`
	Reasons   []string `json:"reasons,omitempty"`
	Remedy    string   `json:"remedy,omitempty"`
	// NeedsApproval is set on a call refused because approval was needed
	// and there was no terminal to ask at (exit code 3).
	NeedsApproval bool  `json:"needsApproval,omitempty"`
	ExitCode      *int  `json:"exitCode,omitempty"`
	DurationMs    int64 `json:"durationMs"`
	IsError       bool  `json:"isError"`
	// Summary is the head of what the model received; Bytes its length.
	Summary string `json:"summary"`
	Bytes   int    `json:"bytes"`
	// Hosts are the per-host outcomes of a call run on a fleet.
	Hosts []tool.HostOutcome `json:"hosts,omitempty"`
	// Changes are the files the call changed (an edit, a write, a
	// previewed command, an approved command in a git work tree).
	Changes []Change `json:"changes,omitempty"`
	// Withheld counts, by kind, the secrets withheld from the result
	// before the model got it.
	Withheld []redact.Count `json:"withheld,omitempty"`

	resulted bool
}

// Change is one file a call changed.
type Change struct {
	Path string `json:"path"`
	// Kind: created, modified, deleted or renamed (From is then the old
	// path).
	Kind string `json:"kind"`
	// Bytes is the file's size after the change (before it, for a
	// deletion).
	Bytes int64  `json:"bytes"`
	From  string `json:"from,omitempty"`
}

// changeList is the report's view of a change set.
func changeList(s *changes.Set) []Change {
	if s == nil {
		return nil
	}
	var out []Change
	for _, f := range s.Visible() {
		out = append(out, Change{Path: f.Path, Kind: string(f.Kind()), Bytes: f.Bytes(), From: f.RenamedFrom})
	}
	return out
}

// Result is the final object: --output-format json prints it alone, and
// stream-json prints it as its last line.
type Result struct {
	Type      string `json:"type"` // "result"
	Timestamp string `json:"timestamp"`
	Version   int    `json:"version"`
	// SessionID identifies the run; the start event carries the same.
	SessionID  string     `json:"sessionId"`
	Status     Status     `json:"status"`
	ExitCode   int        `json:"exitCode"`
	Answer     string     `json:"answer"`
	Provider   string     `json:"provider,omitempty"`
	Model      string     `json:"model,omitempty"`
	DurationMs int64      `json:"durationMs"`
	Turns      int        `json:"turns"`
	ToolCalls  []ToolCall `json:"toolCalls"`
	// Changes are every file change of the run, in order (each call's
	// changes, together).
	Changes []Change `json:"changes"`
	Usage   Usage    `json:"usage"`
	// Withheld counts, by kind, every secret withheld from what the model
	// was sent in the run: tool results, attachments, instructions, errors.
	Withheld []redact.Count `json:"withheld,omitempty"`
	Error    *Error         `json:"error,omitempty"`
}

// Start is the first stream-json event.
type Start struct {
	Provider string
	Model    string
	Cwd      string
	// History is the conversation file; empty with --no-history.
	History string
	Tools   []string
}

// head begins every event: its type and when it was written.
type head struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
}

// TimeFormat is the format of every event's timestamp: RFC 3339 in UTC
// with milliseconds.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// Recorder gathers a run and writes it in its Mode. It is safe for use
// from several goroutines.
type Recorder struct {
	mode    Mode
	w       io.Writer
	now     func() time.Time
	started time.Time
	session string

	mu       sync.Mutex
	provider string
	model    string
	turns    int
	answer   string
	calls    []*ToolCall
	usage    Usage
	cost     *float64
	withheld []redact.Count
	finished bool
	writeErr error
}

// New returns a recorder writing to w in mode; now is the clock. Each
// recorder has a session id of its own (a random UUID).
func New(mode Mode, w io.Writer, now func() time.Time) *Recorder {
	return &Recorder{mode: mode, w: w, now: now, started: now(), session: newSessionID()}
}

// SessionID is the run's id, carried by the start event and the result.
func (r *Recorder) SessionID() string { return r.session }

// newSessionID returns a random (version 4) UUID.
func newSessionID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// head returns the beginning of an event of type typ, stamped now.
func (r *Recorder) head(typ string) head {
	return head{Type: typ, Timestamp: r.now().UTC().Format(TimeFormat)}
}

// emit writes one stream-json line.
func (r *Recorder) emit(v any) {
	if r.mode != Stream || r.writeErr != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		r.writeErr = err
		return
	}
	_, r.writeErr = r.w.Write(append(b, '\n'))
}

// Start records the provider and model and writes the start event.
func (r *Recorder) Start(s Start) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.provider, r.model = s.Provider, s.Model
	tools := s.Tools
	if tools == nil {
		tools = []string{}
	}
	var history *string
	if s.History != "" {
		history = &s.History
	}
	r.emit(struct {
		head
		Version   int      `json:"version"`
		SessionID string   `json:"sessionId"`
		Provider  string   `json:"provider"`
		Model     string   `json:"model"`
		Cwd       string   `json:"cwd"`
		History   *string  `json:"history"`
		Tools     []string `json:"tools"`
	}{r.head("start"), Version, r.session, s.Provider, s.Model, s.Cwd, history, tools})
}

// Request counts a model request (a turn of the run).
func (r *Recorder) Request() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.turns++
}

// Text records a chunk of streamed answer text.
func (r *Recorder) Text(chunk string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emit(struct {
		head
		Text string `json:"text"`
	}{r.head("text"), chunk})
}

// Notice records a notice shown to the human (retries, limits, errors).
func (r *Recorder) Notice(kind agent.NoticeKind, msg string) {
	level := "info"
	switch kind {
	case agent.NoticeWarn:
		level = "warning"
	case agent.NoticeError:
		level = "error"
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.emit(struct {
		head
		Level   string `json:"level"`
		Message string `json:"message"`
	}{r.head("notice"), level, msg})
}

// Response records a completed model response: its text, usage and the
// tool calls it proposes. usage is the response's count in report terms.
func (r *Recorder) Response(resp *llm.Response, usage Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answer = resp.Message.Text
	r.usage.add(usage)
	r.emit(struct {
		head
		Turn       int    `json:"turn"`
		Text       string `json:"text"`
		StopReason string `json:"stopReason"`
		ToolCalls  int    `json:"toolCalls"`
	}{r.head("message"), r.turns, resp.Message.Text, resp.StopReason, len(resp.Message.ToolCalls)})
	r.emit(struct {
		head
		Turn int `json:"turn"`
		Usage
	}{r.head("usage"), r.turns, usage})
	for _, c := range resp.Message.ToolCalls {
		tc := &ToolCall{ID: c.ID, Name: c.Name, Arguments: arguments(c.Arguments), Outcome: OutcomeNotRun}
		r.calls = append(r.calls, tc)
		r.emit(struct {
			head
			Turn      int             `json:"turn"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}{r.head("tool_call"), r.turns, tc.ID, tc.Name, tc.Arguments})
	}
}

// Internal records the usage of a request nb made for itself (a
// conversation summary): counted in the totals, not a turn of the run.
func (r *Recorder) Internal(usage Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.usage.add(usage)
}

// Failed records a model request that ended in an error, keeping the text
// that had streamed.
func (r *Recorder) Failed(partial string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if partial != "" {
		r.answer = partial
	}
}

// arguments returns raw as JSON when it is, else as a JSON string.
func arguments(raw string) json.RawMessage {
	if raw == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(raw)) {
		return json.RawMessage(raw)
	}
	b, _ := json.Marshal(raw)
	return b
}

// call finds the recorded call id, adding one for calls that were not
// proposed through Response (a sandbox re-run keeps its call's id).
func (r *Recorder) call(id, name string) *ToolCall {
	for i := len(r.calls) - 1; i >= 0; i-- {
		if r.calls[i].ID == id {
			return r.calls[i]
		}
	}
	tc := &ToolCall{ID: id, Name: name, Arguments: json.RawMessage("{}"), Outcome: OutcomeNotRun}
	r.calls = append(r.calls, tc)
	return tc
}

// Decision records the approval decision of a call about to run (run) or
// refused (!run).
func (r *Recorder) Decision(p *agent.Pending, run bool) {
	if p == nil || p.Call == nil || p.Decision == nil {
		return
	}
	d := p.Decision
	r.mu.Lock()
	defer r.mu.Unlock()
	tc := r.call(p.Call.ID, p.Call.Name)
	tc.Decision, tc.DecidedBy, tc.Safety, tc.Display = d.Decision, string(d.DecidedBy), string(d.Safety), shownDisplay(d)
	tc.Reasons, tc.Remedy = d.Reasons, d.Remedy
	if d.Secret {
		// The arguments without the secret they carried (the call's
		// review replaced them).
		tc.Arguments = arguments(string(p.Call.Args))
	}
	r.emit(struct {
		head
		ID        string         `json:"id"`
		Name      string         `json:"name"`
		Decision  policy.Verdict `json:"decision"`
		Run       bool           `json:"run"`
		DecidedBy string         `json:"decidedBy"`
		Safety    string         `json:"safety"`
		Display   string         `json:"display"`
		Reasons   []string       `json:"reasons"`
		Remedy    string         `json:"remedy,omitempty"`
	}{r.head("decision"), tc.ID, tc.Name, d.Decision, run, string(d.DecidedBy), string(d.Safety), tc.Display, nonNil(d.Reasons), d.Remedy})
}

// Remedy records the human remedy line printed for a refused call; it
// belongs to the most recent call refused without one of its own.
func (r *Recorder) Remedy(line string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.calls) - 1; i >= 0; i-- {
		if tc := r.calls[i]; tc.Decision != "" && !tc.resulted {
			if tc.Remedy == "" {
				tc.Remedy = line
			}
			return
		}
	}
}

// headlessRefusal reports whether rec was refused because it needed an
// approval that nobody could give.
func headlessRefusal(rec agent.Record) bool {
	if rec.Outcome != agent.Denied {
		return false
	}
	return rec.DecidedBy == policy.ByHeadless || rec.DecidedBy == policy.ByNoTerminal ||
		rec.Decision != nil && rec.Decision.Headless()
}

// Call records a call's final outcome (the audit record) and writes its
// tool_result event.
func (r *Recorder) Call(rec agent.Record) {
	if rec.Call == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	tc := r.call(rec.Call.ID, rec.Call.Name)
	tc.Outcome, tc.DecidedBy = string(rec.Outcome), string(rec.DecidedBy)
	if d := rec.Decision; d != nil {
		tc.Decision, tc.Safety, tc.Display, tc.Reasons = d.Decision, string(d.Safety), shownDisplay(d), d.Reasons
		if d.Remedy != "" {
			tc.Remedy = d.Remedy
		}
	}
	tc.NeedsApproval = headlessRefusal(rec)
	if res := rec.Result; res != nil {
		tc.ExitCode, tc.DurationMs, tc.IsError = res.ExitCode, res.Duration.Milliseconds(), res.IsError
		tc.Summary, tc.Bytes = summarize(res.Content), len(res.Content)
		tc.Hosts = res.Hosts
		tc.Changes = changeList(res.Changes)
		tc.Withheld = res.Withheld
	}
	r.result(tc)
}

// Withheld records secrets withheld from a text bound for the model
// (from says which) and writes a withheld event.
func (r *Recorder) Withheld(from string, counts []redact.Count) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.withheld = redact.Merge(r.withheld, counts)
	r.emit(struct {
		head
		From   string         `json:"from"`
		Counts []redact.Count `json:"counts"`
	}{r.head("withheld"), from, counts})
}

func (r *Recorder) result(tc *ToolCall) {
	tc.resulted = true
	r.emit(struct {
		head
		ID            string         `json:"id"`
		Name          string         `json:"name"`
		Outcome       string         `json:"outcome"`
		DecidedBy     string         `json:"decidedBy,omitempty"`
		NeedsApproval bool           `json:"needsApproval"`
		ExitCode      *int           `json:"exitCode,omitempty"`
		DurationMs    int64          `json:"durationMs"`
		IsError       bool           `json:"isError"`
		Summary       string         `json:"summary"`
		Bytes         int            `json:"bytes"`
		Changes       []Change       `json:"changes,omitempty"`
		Withheld      []redact.Count `json:"withheld,omitempty"`
	}{r.head("tool_result"), tc.ID, tc.Name, tc.Outcome, tc.DecidedBy, tc.NeedsApproval, tc.ExitCode, tc.DurationMs, tc.IsError, tc.Summary, tc.Bytes, tc.Changes, tc.Withheld})
}

// Settle gives the calls that never reached approval (unknown tool,
// unusable arguments, maxToolCalls) their results from the tool messages
// of the conversation, and writes their tool_result events.
func (r *Recorder) Settle(msgs []llm.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range msgs {
		if m.Role != llm.RoleTool {
			continue
		}
		for _, tc := range r.calls {
			if tc.ID == m.ToolCallID && !tc.resulted {
				tc.IsError, tc.Summary, tc.Bytes = m.IsError, summarize(m.Text), len(m.Text)
				r.result(tc)
			}
		}
	}
}

// NeedsApproval reports whether some call was refused for want of an
// approval, and the remedy lines printed for them.
func (r *Recorder) NeedsApproval() (bool, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	needed := false
	var remedies []string
	for _, tc := range r.calls {
		if tc.NeedsApproval {
			needed = true
			if tc.Remedy != "" && !slices.Contains(remedies, tc.Remedy) {
				remedies = append(remedies, tc.Remedy)
			}
		}
	}
	return needed, remedies
}

// SetCost sets the run's estimated cost in US dollars.
func (r *Recorder) SetCost(usd float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cost = &usd
}

// Finish writes the result (json, stream-json) and returns it. Only the
// first call writes.
func (r *Recorder) Finish(status Status, exitCode int, e *Error) (*Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := &Result{
		Type: "result", Timestamp: r.head("result").Timestamp, Version: Version, SessionID: r.session,
		Status: status, ExitCode: exitCode,
		Answer: r.answer, Provider: r.provider, Model: r.model,
		DurationMs: r.now().Sub(r.started).Milliseconds(),
		Turns:      r.turns, ToolCalls: []ToolCall{}, Changes: []Change{}, Usage: r.usage, Error: e,
	}
	res.Usage.CostUSD = r.cost
	res.Withheld = slices.Clone(r.withheld)
	for _, tc := range r.calls {
		res.ToolCalls = append(res.ToolCalls, *tc)
		res.Changes = append(res.Changes, tc.Changes...)
	}
	if r.finished {
		return res, r.writeErr
	}
	r.finished = true
	switch r.mode {
	case Stream:
		r.emit(res)
	case Final:
		b, err := json.Marshal(res)
		if err != nil {
			return res, err
		}
		_, r.writeErr = r.w.Write(append(b, '\n'))
	}
	return res, r.writeErr
}

// summarize returns the head of s, cut on a rune boundary.
func summarize(s string) string {
	if len(s) <= summaryMax {
		return s
	}
	cut := summaryMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
