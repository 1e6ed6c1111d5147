package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/compact"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/report"
	"github.com/nb-cli/nb/internal/store"
)

// The machine-readable side of a single-shot run (--output-format): the
// report recorder sees every model response, decision and tool result;
// runs end through failRun or finishTurn, which decide the exit code.

// newRecorder returns the report of a run in opts' output format.
func newRecorder(opts *Options, streams *iostreams.IO) *report.Recorder {
	mode := report.Quiet
	switch opts.OutputFormat {
	case FormatJSON:
		mode = report.Final
	case FormatStreamJSON:
		mode = report.Stream
	}
	return report.New(mode, streams.Out, streams.Now)
}

// errorKind says where a failure came from, for the report's error object.
type errorKind string

const (
	kindConfig  errorKind = "config"
	kindHistory errorKind = "history"
	kindRun     errorKind = "error"
)

// failRun ends the report with err and returns it (Main prints it). A
// usage error (exit 2) writes no report: whatever the output format, exit
// 2 leaves stdout empty (docs/output-format.md), so usage errors are found
// before the report starts.
func failRun(rec *report.Recorder, streams *iostreams.IO, kind errorKind, err error) error {
	if exitCode(err) != ExitUsage {
		finishReport(rec, streams, report.StatusError, err, errorObject(kind, err))
	}
	return err
}

// finishReport ends the report of a run that ends with err.
func finishReport(rec *report.Recorder, streams *iostreams.IO, status report.Status, err error, e *report.Error) {
	if rec == nil {
		return // interactive chat
	}
	if _, err := rec.Finish(status, exitCode(err), e); err != nil {
		fmt.Fprintf(streams.Err, "nb: write report: %v\n", err)
	}
}

// errorObject is the report's account of err.
func errorObject(kind errorKind, err error) *report.Error {
	e := &report.Error{Kind: string(kind), Message: err.Error()}
	var le *llm.Error
	switch {
	case errors.As(err, &le):
		e.Kind, e.Reason, e.HTTPStatus = "provider", providerReason(le.Kind), le.Status
	case errors.Is(err, store.ErrLocked):
		e.Kind = string(kindHistory)
	}
	return e
}

func providerReason(k llm.ErrorKind) string {
	switch k {
	case llm.ErrAuth:
		return "auth"
	case llm.ErrRateLimit:
		return "rate_limit"
	case llm.ErrServer:
		return "server"
	case llm.ErrNetwork:
		return "network"
	case llm.ErrBadRequest:
		return "bad_request"
	case llm.ErrContextSize:
		return "context_size"
	}
	return "unknown"
}

// finishTurn ends a single-shot run after its turn: interrupted, an
// error, a call needed approval nobody could give, maxToolCalls, else
// answered, in that order of precedence. The error it returns was shown.
func (c *chat) finishTurn(err error) error {
	c.rec.Settle(c.agent.Messages)
	if st := c.agent.SessionStats(); st.CostKnown && st.Requests > 0 {
		c.rec.SetCost(st.Cost)
	}
	needed, remedies := c.rec.NeedsApproval()
	password := c.passwordNeeded()
	var (
		status = report.StatusAnswered
		e      *report.Error
	)
	switch {
	case errors.Is(err, context.Canceled):
		status, err = report.StatusInterrupted, errInterrupted
		e = &report.Error{Kind: "interrupted", Message: "interrupted"}
	case errors.Is(err, agent.ErrToolLimit) && !needed && !password:
		status = report.StatusToolLimit
		e = &report.Error{Kind: "tool_limit", Message: fmt.Sprintf("stopped after %d tool calls (maxToolCalls)", c.cfg.MaxToolCalls)}
	case err != nil && !errors.Is(err, agent.ErrToolLimit):
		status = report.StatusError
		e = errorObject(kindRun, err)
	case needed || password:
		status, err = report.StatusApproval, errApproval
		msg := errApproval.Error()
		if password {
			remedies = append(remedies, askpass.NoTerminalAdvice)
			if !needed {
				msg = "sudo needed a password and there was no terminal to ask at"
			}
		}
		e = &report.Error{Kind: "approval_required", Message: msg, Remedies: remedies}
	}
	finishReport(c.rec, c.io, status, err, e)
	return shown(err)
}

// startReport writes the report's start event once the provider is known.
func (c *chat) startReport(p llm.Provider) {
	if c.rec == nil {
		return
	}
	var names []string
	if c.tools != nil && !c.opts.NoTools {
		for _, s := range c.tools.Specs() {
			names = append(names, s.Name)
		}
	}
	c.rec.Start(report.Start{Provider: p.Name(), Model: p.Model(), Cwd: c.launch, History: c.history.Path(), Tools: names})
}

// historyFile is the conversation file of this run: --history FILE
// (relative to the launch directory), or the launch directory's.
func (c *chat) historyFile() string {
	if c.opts.History == "" {
		return filepath.Join(c.launch, store.HistoryFile)
	}
	if filepath.IsAbs(c.opts.History) {
		return c.opts.History
	}
	return filepath.Join(c.launch, c.opts.History)
}

// openHistory opens the run's conversation; nil with --no-history.
func (c *chat) openHistory() (*store.History, error) {
	if c.opts.NoHistory {
		return nil, nil
	}
	if c.state == "" {
		// No state directory for the lock: keep nothing rather than
		// lock inside the project (newApp said why).
		return nil, nil
	}
	h, err := store.OpenHistoryFile(c.historyFile(), c.state, c.io.Now)
	if err != nil && stateRefused(err, c.state) {
		return nil, fmt.Errorf("%w (nb keeps its state in %s: set XDG_STATE_HOME to a directory you can write, or use --no-history)", err, c.state)
	}
	if !errors.Is(err, store.ErrLocked) {
		return h, err
	}
	// Another nb holds the conversation: this one gets its own, kept
	// beside the directory's earlier ones. Never refused.
	apart, aerr := c.archive().Open()
	if aerr != nil {
		return nil, fmt.Errorf("%w; nor could a conversation of its own be kept: %v", err, aerr)
	}
	who := "another nb"
	var le *store.LockedError
	if errors.As(err, &le) {
		who = le.Who()
	}
	c.apartNote = who + " is using this directory's conversation: this one is kept apart, saved beside it (/conversations lists it, nb --resume reopens it)"
	return apart, nil
}

// stateRefused says that err is the state directory (state), or a
// directory above it, refusing to be made or written: a HOME nb may not
// write, a read-only file system.
func stateRefused(err error, state string) bool {
	var pe *fs.PathError
	if !errors.As(err, &pe) || !(errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) {
		return false
	}
	p := filepath.Clean(pe.Path)
	return p == state || strings.HasPrefix(state, p+string(filepath.Separator)) || strings.HasPrefix(p, state+string(filepath.Separator))
}

// observe sends a tool call's outcome to the audit log and the report.
func (a *app) observe(r agent.Record) {
	a.audit(r)
	a.recordChange(r)
	if a.rec != nil {
		a.rec.Call(r)
	}
}

// remedy prints the human remedy line of a refused call on stderr (never
// stdout, which carries only the output format) and notes it in the report.
func (a *app) remedy(line string) {
	line = strings.TrimPrefix(line, "nb: ")
	fmt.Fprintln(a.io.Err, "nb: "+line)
	if a.rec != nil {
		a.rec.Remedy(remedyLine(line))
	}
}

// remedyLine is the line of a remedy that says what to do ("re-run with
// --approve '…'"), or the whole remedy when none does.
func remedyLine(remedy string) string {
	for _, l := range strings.Split(remedy, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "re-run with") {
			return l
		}
	}
	return remedy
}

// reportProvider counts a run's model requests and passes its responses,
// text and usage to the report.
type reportProvider struct {
	llm.Provider
	rec *report.Recorder
	// maxArgs and save cap the arguments the report shows as the history
	// caps them (conversation.maxMessageBytes, the full text saved).
	maxArgs int
	save    compact.Saver
}

// Unwrap returns the provider the report watches.
func (p *reportProvider) Unwrap() llm.Provider { return p.Provider }

func (p *reportProvider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	if req.Internal {
		resp, err := p.Provider.Stream(ctx, req, onEvent)
		if err == nil {
			p.rec.Internal(reportUsage(resp.Usage))
		}
		return resp, err
	}
	if req.Internal {
		return p.Provider.Stream(ctx, req, onEvent)
	}
	p.rec.Settle(req.Messages)
	p.rec.Request()
	var text llm.TextBuffer // bounded while a huge answer streams
	resp, err := p.Provider.Stream(ctx, req, func(ev llm.Event) {
		if ev.Type == llm.EventText {
			text.WriteString(ev.Text)
			p.rec.Text(ev.Text)
		}
		onEvent(ev)
	})
	if err != nil {
		p.rec.Failed(text.String())
		return resp, err
	}
	shown := resp
	msg := resp.Message
	if compact.CapArguments(&msg, p.maxArgs, p.save) > 0 {
		cp := *resp // the calls that run keep their whole arguments
		cp.Message = msg
		shown = &cp
	}
	p.rec.Response(shown, reportUsage(resp.Usage))
	return resp, nil
}

// reportUsage converts a response's token counts.
func reportUsage(u llm.Usage) report.Usage {
	return report.Usage{
		InputTokens:       u.InputTokens,
		OutputTokens:      u.OutputTokens,
		CachedInputTokens: u.CachedInputTokens,
		CacheWriteTokens:  u.CacheWriteTokens,
		ReasoningTokens:   u.ReasoningTokens,
	}
}

// reportUI shows the run as the terminal renderer does and tells the report
// about decisions and notices.
type reportUI struct {
	chatUI
	rec *report.Recorder
}

func (u *reportUI) Notice(kind agent.NoticeKind, msg string) {
	u.rec.Notice(kind, msg)
	u.chatUI.Notice(kind, msg)
}

func (u *reportUI) ToolStart(p *agent.Pending) agent.ToolView {
	u.rec.Decision(p, true)
	return u.chatUI.ToolStart(p)
}

func (u *reportUI) Refused(p *agent.Pending, why string) {
	u.rec.Decision(p, false)
	u.chatUI.Refused(p, why)
}

// quietOut returns streams whose stdout is discarded: with a JSON output
// format the answer reaches stdout only inside the report, while progress
// still goes to stderr.
func quietOut(streams *iostreams.IO) *iostreams.IO {
	q := *streams
	q.Out, q.OutTTY = io.Discard, false
	return &q
}
