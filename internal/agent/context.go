package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/nb-cli/nb/internal/compact"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/catalog"
)

// DefaultCompactAt is the share of the context window at which older
// turns are compacted.
const DefaultCompactAt = 0.75

// defaultReserve is kept free for the answer when maxTokens is not set.
const defaultReserve = 4096

// summaryMaxTokens bounds the answer of a summary request.
const summaryMaxTokens = 4096

// summaryReasoningRoom is added to a summary request's output limit for a
// model that reasons first (its reasoning counts against the limit, and a
// few thousand tokens can be spent before any summary is written).
const summaryReasoningRoom = 16384

// Model is what nb knows of the model it talks to.
type Model struct {
	// Window is the context window in tokens (0: unknown; nothing is
	// compacted or refused).
	Window int
	Prices catalog.Prices
	// Reasoning is the reasoning effort sent to OpenAI reasoning models;
	// ThinkingBudget turns on Anthropic extended thinking.
	Reasoning      llm.Effort
	ThinkingBudget int
	// Reasons is set for a model that spends output tokens reasoning
	// before it answers: a summary request leaves room for them.
	Reasons bool
	// IgnoredReasoning is the reasoning effort asked for that is not sent
	// because the model does not take one ("" when none is ignored).
	IgnoredReasoning llm.Effort
	// CostEstimate is set when the prices are those of the model's family,
	// not its own.
	CostEstimate bool
}

// Stats are the token usage and estimated cost of a turn or a session.
type Stats struct {
	Usage llm.Usage
	// Cost is in US dollars; CostKnown is false when a model's prices are
	// unknown.
	Cost      float64
	CostKnown bool
	Requests  int
}

func (s *Stats) add(u llm.Usage, p catalog.Prices) {
	s.Usage = s.Usage.Add(u)
	s.Requests++
	if p.Known() {
		s.Cost += p.Cost(u)
		s.CostKnown = s.Requests == 1 || s.CostKnown
	} else {
		s.CostKnown = false
	}
}

// TurnStats is the usage of the last turn, compaction included.
func (a *Agent) TurnStats() Stats { return a.turn }

// SessionStats is the usage of this run of nb.
func (a *Agent) SessionStats() Stats { return a.session }

// ConversationUsage sums the usage recorded in the conversation's
// messages (turns compacted away are no longer counted).
func (a *Agent) ConversationUsage() llm.Usage {
	var u llm.Usage
	for _, m := range a.Messages {
		if m.Usage != nil {
			u = u.Add(*m.Usage)
		}
	}
	return u
}

// ContextTokens estimates the size of the next request, in tokens.
func (a *Agent) ContextTokens(ctx context.Context) int { return a.estimate(a.build(ctx)) }

// account records a response's usage and calibrates the estimates.
func (a *Agent) account(req *llm.Request, resp *llm.Response) {
	u := resp.Usage
	if u.IsZero() {
		return
	}
	resp.Message.Usage = &u
	resp.Message.Model = req.Model
	a.turn.add(u, a.opts.Model.Prices)
	a.session.add(u, a.opts.Model.Prices)
	if u.InputTokens > 0 {
		if est := compact.Request(req); est > 0 {
			a.calib = clampCalib(float64(u.InputTokens) / float64(est))
		}
	}
}

func clampCalib(r float64) float64 { return min(max(r, 0.8), maxCalib) }

// maxCalib bounds how much larger than estimated a provider may count a
// request (output full of escaped control characters counts several
// tokens a byte).
const maxCalib = 6.0

// estimate is the calibrated size of req.
func (a *Agent) estimate(req *llm.Request) int {
	total := compact.Request(req)
	if a.calib == 0 {
		a.calib = 1
		// Calibrate from the last answer in the history: its usage counted
		// the request that the messages before it formed.
		for i := len(a.Messages) - 1; i > 0; i-- {
			if u := a.Messages[i].Usage; u != nil && u.InputTokens > 0 && a.Messages[i].Role == llm.RoleAssistant {
				var est int
				if len(req.Messages) == len(a.Messages) && &req.Messages[0] == &a.Messages[0] {
					// The request's messages are the conversation: the
					// answer's part is the total less the messages from it
					// on (one pass over a long history, not two).
					est = total - compact.Messages(a.Messages[i:])
				} else {
					est = compact.Fixed(req) + compact.Messages(a.Messages[:i])
				}
				a.calib = clampCalib(float64(u.InputTokens) / float64(est))
				break
			}
		}
	}
	return int(float64(total) * a.calib)
}

func (a *Agent) compactAt() float64 {
	if a.opts.CompactAt > 0 && a.opts.CompactAt < 1 {
		return a.opts.CompactAt
	}
	return DefaultCompactAt
}

// hardLimit is the largest request that may be sent: the window less the
// room kept for the answer.
func (a *Agent) hardLimit() int {
	w := a.opts.Model.Window
	reserve := a.opts.MaxTokens
	if reserve <= 0 {
		reserve = min(defaultReserve, w/4)
	}
	reserve += a.opts.Model.ThinkingBudget
	return max(w-reserve, w/2)
}

// limitText names the limit a request must stay under: "the limit is
// 12 k: the 16 k window less 4 k kept for the answer".
func (a *Agent) limitText() string {
	w, limit := a.opts.Model.Window, a.hardLimit()
	if limit >= w {
		return "the window is " + catalog.Tokens(w)
	}
	return fmt.Sprintf("the limit is %s: the %s window less %s kept for the answer", catalog.Tokens(limit), catalog.Tokens(w), catalog.Tokens(w-limit))
}

// ErrTooLong is returned when a request would not fit the context window.
var ErrTooLong = errors.New("the conversation does not fit the model's context window")

// fit compacts the conversation when req has grown past the threshold and
// refuses to send a request known to be over the window.
func (a *Agent) fit(ctx context.Context, req *llm.Request) error {
	w := a.opts.Model.Window
	if w <= 0 {
		return nil
	}
	est := a.estimate(req)
	if float64(est) <= float64(w)*a.compactAt() {
		return nil
	}
	if est <= a.hardLimit() && est <= a.floor+w/8 {
		// Compaction could not get below the threshold (a large system
		// prompt, say): wait until the conversation has grown again.
		return nil
	}
	if err := a.compact(ctx, req, false, RecentShare, est > a.hardLimit()); err != nil {
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return err
		}
		if est > a.hardLimit() {
			return fmt.Errorf("not sent: %w (about %s tokens; %s) and compacting it failed: %v", ErrTooLong, catalog.Tokens(est), a.limitText(), err)
		}
		a.opts.UI.Notice(NoticeError, "compaction failed, the conversation is unchanged: "+err.Error())
		return nil
	}
	req.Messages = a.Messages
	if est := a.estimate(req); est > a.hardLimit() {
		return fmt.Errorf("not sent: %w even after compaction (about %s tokens; %s); the latest message or tool result is too large", ErrTooLong, catalog.Tokens(est), a.limitText())
	}
	return nil
}

// Compact compacts the conversation now (/compact). On failure the
// conversation is left exactly as it was.
func (a *Agent) Compact(ctx context.Context) error {
	if a.opts.Model.Window <= 0 {
		return errors.New("compact: the model's context window is unknown")
	}
	a.turnStart = -1
	return a.compact(ctx, a.build(ctx), true, RecentShare/2, false)
}

// ErrNothingToCompact is returned by Compact for a short conversation.
var ErrNothingToCompact = errors.New("nothing to compact: the conversation is all recent turns")

// RecentShare is the share of the context window that the most recent
// turns, kept whole (question, tool calls, results, answer), may fill
// after a compaction; /compact keeps half as much. Older turns are
// summarised.
const RecentShare = 0.4

// compact replaces older turns: first old tool results shrink to their
// head and the path of the saved full output; if that is not enough (or
// summarise is set) the older turns are replaced by a summary the model
// writes. share is the part of the window the recent turns kept whole may
// fill. The conversation changes only when everything succeeded, except
// with force (the request cannot be sent as it is): then older turns that
// no summary could be written for are set aside without one (kept whole
// by Archive), so that no conversation makes every later turn fail.
func (a *Agent) compact(ctx context.Context, req *llm.Request, summarise bool, share float64, force bool) error {
	w := a.opts.Model.Window
	size := func(msgs []llm.Message) int {
		r := *req
		r.Messages = msgs
		return a.estimate(&r)
	}
	before := size(a.Messages)
	target := int(float64(w) * a.compactAt() * 2 / 3)
	answer := min(summaryMaxTokens, w/8)
	for round := 1; ; round++ {
		calib := a.calib
		// The recent turns get their share of the window, within what the
		// system prompt, the tools, the facts and the summary leave.
		room := max(a.hardLimit()-size(nil)-answer, a.hardLimit()/8)
		recent := int(float64(min(int(share*float64(w)), room)) / a.calib)
		keep := compact.TurnBoundary(a.Messages, recent)
		msgs, shrunk := a.Messages, 0
		if a.opts.SaveOutput != nil {
			msgs, shrunk = compact.ShrinkToolResults(a.Messages, keep, a.opts.SaveOutput)
		}
		if keep == 0 || (!summarise && shrunk > 0 && size(msgs) <= target) {
			if shrunk == 0 && keep == 0 && a.opts.SaveOutput != nil {
				// Everything is recent: shrink all but the latest results.
				msgs, shrunk = compact.ShrinkToolResults(a.Messages, lastAssistant(a.Messages), a.opts.SaveOutput)
			}
			if shrunk == 0 {
				return ErrNothingToCompact
			}
			a.commit(msgs, before, size(msgs))
			return nil
		}
		if round == 1 {
			a.opts.UI.Notice(NoticeInfo, fmt.Sprintf("compacting the conversation (about %s tokens): asking the model for a summary of the older turns…", catalog.Tokens(before)))
		}
		limit := answer
		if a.opts.Model.Reasons {
			limit += min(summaryReasoningRoom, w/4)
		}
		input := min(a.hardLimit()-answer, w-limit)
		summary, err := a.summarise(ctx, msgs[:keep], input, limit)
		if err != nil {
			if !force || ctx.Err() != nil {
				return err
			}
			a.opts.UI.Notice(NoticeWarn, fmt.Sprintf("%v; the older turns are set aside without a summary so that the conversation can go on", err))
			summary = fmt.Sprintf("(No summary: %d older messages were set aside because the request for a summary failed: %v.)", keep, err)
		}
		if round == 1 && a.calib > calib && size(compact.Replace(msgs, keep, summary, a.turnStart, "")) > a.hardLimit() {
			// The provider counts this conversation larger than
			// estimated: fewer recent turns can stay whole.
			continue
		}
		kept := ""
		if a.opts.Archive != nil {
			// The turns the summary replaces stay on disk, whole.
			path, err := a.opts.Archive(a.Messages)
			if err != nil {
				a.opts.UI.Notice(NoticeWarn, "the conversation before this compaction could not be kept: "+err.Error())
			}
			kept = path
		}
		out := compact.Replace(msgs, keep, summary, a.turnStart, kept)
		switch {
		case a.turnStart < 0:
		case a.turnStart < keep:
			a.turnStart = 1 // right after the summary
		default:
			a.turnStart = a.turnStart - keep + 1
		}
		a.commit(out, before, size(out))
		return nil
	}
}

// summaryAttempts bounds the summary requests of one compaction that the
// provider refuses as too long.
const summaryAttempts = 4

// summarise asks the model for a summary of older, in a request of at most
// input tokens (as estimated) answered in at most limit tokens. A request
// the provider refuses as too long (the estimates undercount this
// conversation) is shrunk and sent again: to the size the provider's count
// says fits, or to half.
func (a *Agent) summarise(ctx context.Context, older []llm.Message, input, limit int) (string, error) {
	for attempt := 1; ; attempt++ {
		sreq := compact.SummaryRequest(older, int(float64(input)/a.calib), limit)
		sreq.Model = a.opts.Provider.Model()
		sreq.Internal = true
		a.guard(ctx, sreq)
		a.opts.UI.Waiting()
		resp, err := a.opts.Provider.Stream(ctx, sreq, func(llm.Event) {})
		a.opts.UI.EndText()
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			var le *llm.Error
			if errors.As(err, &le) && le.Kind == llm.ErrContextSize && attempt < summaryAttempts {
				a.recalibrate(sreq, le.Message)
				input /= 2
				continue
			}
			return "", fmt.Errorf("summary request: %w", err)
		}
		if !resp.Usage.IsZero() {
			a.turn.add(resp.Usage, a.opts.Model.Prices)
			a.session.add(resp.Usage, a.opts.Model.Prices)
			if resp.Usage.InputTokens > 0 {
				if est := compact.Request(sreq); est > 0 {
					a.calib = clampCalib(float64(resp.Usage.InputTokens) / float64(est))
				}
			}
		}
		if resp.Message.Text == "" {
			return "", errors.New("summary request: the model returned an empty summary")
		}
		return resp.Message.Text, nil
	}
}

// recalibrate learns from a provider's overflow error that req was larger
// than estimated: from the count the error names, or by a quarter more.
func (a *Agent) recalibrate(req *llm.Request, msg string) {
	est := compact.Request(req)
	if n := tokensFromError(msg); n > 0 && est > 0 {
		a.calib = clampCalib(max(float64(n)/float64(est), a.calib))
		return
	}
	a.calib = clampCalib(a.calib * 1.25)
}

func (a *Agent) commit(msgs []llm.Message, before, after int) {
	a.Messages = msgs
	a.floor = after
	a.compacted = true
	a.opts.UI.Notice(NoticeInfo, fmt.Sprintf("compacted %s → %s tokens", catalog.Tokens(before), catalog.Tokens(after)))
}

// lastAssistant is the index of the last assistant message (0 if none).
func lastAssistant(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleAssistant {
			return i
		}
	}
	return 0
}

// keep bounds a message before it joins the conversation.
func (a *Agent) keep(m *llm.Message) {
	if compact.Cap(m, a.opts.MaxMessageBytes, a.opts.SaveOutput) {
		article := "a"
		if m.Role == llm.RoleAssistant {
			article = "an"
		}
		a.opts.UI.Notice(NoticeWarn, fmt.Sprintf("%s %s message was cut to %d bytes in the saved conversation (conversation.maxMessageBytes)", article, m.Role, a.opts.MaxMessageBytes))
	}
	if n := compact.CapArguments(m, a.opts.MaxMessageBytes, a.opts.SaveOutput); n > 0 {
		a.opts.UI.Notice(NoticeWarn, fmt.Sprintf("the arguments of %d tool call(s) were cut to %d bytes in the saved conversation (conversation.maxMessageBytes)", n, a.opts.MaxMessageBytes))
	}
}

// windowPatterns find the limit in the providers' overflow messages:
// OpenAI's "maximum context length is 8192 tokens", Anthropic's "210000
// tokens > 200000 maximum", Gemini's "maximum number of tokens allowed
// (1048576)".
var windowPatterns = []*regexp.Regexp{
	regexp.MustCompile(`maximum context length is (\d+)`),
	regexp.MustCompile(`> (\d+) maximum`),
	regexp.MustCompile(`tokens allowed \((\d+)\)`),
}

// countPatterns find the request's size in the providers' overflow
// messages: OpenAI's "your messages resulted in 149000 tokens",
// Anthropic's "prompt is too long: 210000 tokens", Gemini's "input token
// count (1234567)".
var countPatterns = []*regexp.Regexp{
	regexp.MustCompile(`resulted in (\d+) tokens`),
	regexp.MustCompile(`too long: (\d+) tokens`),
	regexp.MustCompile(`input token count \((\d+)\)`),
}

// tokensFromError returns the request size an overflow message names, 0
// when it names none.
func tokensFromError(msg string) int {
	for _, re := range countPatterns {
		if m := re.FindStringSubmatch(msg); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// windowFromError returns the context window an overflow message names, 0
// when it names none.
func windowFromError(msg string) int {
	for _, re := range windowPatterns {
		if m := re.FindStringSubmatch(msg); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}
