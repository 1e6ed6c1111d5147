package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
)

// Secrets never reach the model unless the user says so. Every request
// passes guard right before it is sent: the system prompt (project
// instructions), the per-request facts, the tools' descriptions and
// schemas (an MCP server's) and every text of the conversation that the
// model did not write in this session (the user's, attachments, tool
// results and errors, MCP prompts, summaries, and all of a conversation
// loaded from disk, the model's answers and calls included: a history
// saved by an earlier version of nb was never screened) are screened by
// the detector, in the conversation itself, so that the history kept on
// disk holds markers, not secrets. Texts already screened, and the
// model's own answers and calls of this session, are remembered by
// identity and not scanned again. A tool result is screened as soon as
// its call ends, so that its line shows what was withheld and the user
// can release it at once. Pictures cannot be screened: the user is told
// when one is sent.

// Redactor withholds secrets from a text; *redact.Detector is the one
// implementation.
type Redactor interface {
	Redact(text string, released func(value string) bool) redact.Result
}

// ReleaseFunc asks the user whether secrets withheld from a text may go
// to the model after all; from says where they were ("the result of run:
// cat .env", "your message"). It is never called without a terminal.
type ReleaseFunc func(ctx context.Context, from string, found []redact.Found) bool

// textID identifies a string by its bytes' address and length: strings
// are immutable, so while the string is held the same identity is the
// same text.
type textID struct {
	p *byte
	n int
}

func idOf(s string) textID { return textID{unsafe.StringData(s), len(s)} }

// withholder is the agent's screening state.
type withholder struct {
	// released holds the values the user chose to send.
	released map[string]bool
	// screened holds the texts already screened.
	screened map[textID]struct{}
	// system and systemOut are the last system prompt screened and what
	// it became; facts and factsOut the same of the facts.
	system, systemOut string
	facts, factsOut   string
	// tools and toolsOut are the last tool specs screened and what they
	// became.
	tools, toolsOut []llm.ToolSpec
	// pictures holds the pictures the user was told about.
	pictures map[*byte]bool
}

func (w *withholder) isReleased(v string) bool { return w.released[v] }

func (w *withholder) mark(s string) {
	if s != "" {
		w.screened[idOf(s)] = struct{}{}
	}
}

// reset forgets what was screened and released: a conversation loaded
// from disk is screened whole before it is sent.
func (a *Agent) reset() {
	a.w.released = map[string]bool{}
	a.w.screened = map[textID]struct{}{}
	a.w.pictures = map[*byte]bool{}
}

// written marks an answer the model wrote in this session: what it
// holds came from screened texts, and is sent back as it is.
func (a *Agent) written(m *llm.Message) {
	a.w.mark(m.Text)
	for _, c := range m.ToolCalls {
		a.w.mark(c.Arguments)
	}
	for _, th := range m.Thinking {
		a.w.mark(th.Text)
	}
}

// withheldResult screens a tool result as its call ends; the counts it
// sets are shown on the call's line.
func (a *Agent) withheldResult(p *Pending, res *tool.Result) (found []redact.Found, original string) {
	if a.opts.Redact == nil {
		return nil, ""
	}
	r := a.opts.Redact.Redact(res.Content, a.w.isReleased)
	if len(r.Found) > 0 {
		original = res.Content
		res.Content, res.Withheld = r.Text, r.Counts()
		a.told("the result of "+displayOf(p), res.Withheld)
	}
	a.w.mark(res.Content)
	return r.Found, original
}

// offerRelease asks the user, at a terminal, whether what was withheld
// from a tool result may go to the model; if so the result is restored.
func (a *Agent) offerRelease(ctx context.Context, p *Pending, res *tool.Result, found []redact.Found, original string) {
	if len(found) == 0 || !a.release(ctx, "the result of "+displayOf(p), found) {
		return
	}
	res.Content, res.Withheld = original, nil
	a.w.mark(res.Content)
}

// told passes what was withheld to Options.Withheld.
func (a *Agent) told(from string, counts []redact.Count) {
	if a.opts.Withheld != nil {
		a.opts.Withheld(from, counts)
	}
}

// release asks the user about found and remembers the values released.
func (a *Agent) release(ctx context.Context, from string, found []redact.Found) bool {
	if !a.opts.Interactive || a.opts.Release == nil || ctx.Err() != nil {
		return false
	}
	if !a.opts.Release(ctx, from, found) {
		return false
	}
	for _, f := range found {
		a.w.released[f.Value] = true
	}
	return true
}

// guard screens a request right before it is sent.
func (a *Agent) guard(ctx context.Context, req *llm.Request) {
	if a.opts.Redact == nil {
		return
	}
	if req.System != "" {
		if req.System != a.w.system {
			a.w.system, a.w.systemOut = req.System, a.screenText(ctx, "the system prompt (project instructions)", req.System)
		}
		req.System = a.w.systemOut
	}
	if req.Facts != "" {
		if req.Facts != a.w.facts {
			a.w.facts, a.w.factsOut = req.Facts, a.screenText(ctx, "the session facts", req.Facts)
		}
		req.Facts = a.w.factsOut
	}
	req.Tools = a.screenTools(ctx, req.Tools)
	a.screen(ctx, req.Messages)
}

// screenTools withholds secrets from the tools' descriptions and schemas
// (an MCP server's own words), once while they stay the same.
func (a *Agent) screenTools(ctx context.Context, specs []llm.ToolSpec) []llm.ToolSpec {
	if slices.EqualFunc(specs, a.w.tools, sameSpec) {
		return a.w.toolsOut
	}
	out := slices.Clone(specs)
	for i := range out {
		from := "the description of the tool " + out[i].Name
		out[i].Description = a.screenText(ctx, from, out[i].Description)
		if len(out[i].Schema) > 0 {
			out[i].Schema = json.RawMessage(a.screenText(ctx, from, string(out[i].Schema)))
		}
	}
	a.w.tools, a.w.toolsOut = specs, out
	return out
}

func sameSpec(x, y llm.ToolSpec) bool {
	return x.Name == y.Name && x.Description == y.Description && bytes.Equal(x.Schema, y.Schema)
}

// screen withholds secrets from the texts of msgs that the model did not
// write in this session, in place, and forgets the texts no longer in the
// conversation.
func (a *Agent) screen(ctx context.Context, msgs []llm.Message) {
	if a.opts.Redact == nil {
		return
	}
	for i := range msgs {
		m := &msgs[i]
		a.screenMessage(ctx, m)
		a.tellPictures(m)
	}
	if len(a.w.screened) > 2*len(a.Messages)+64 {
		// keep what the conversation still holds, and only what was
		// screened: a text not screened yet stays so
		kept := map[textID]struct{}{}
		keep := func(s string) {
			if _, ok := a.w.screened[idOf(s)]; ok {
				kept[idOf(s)] = struct{}{}
			}
		}
		for _, m := range a.Messages {
			keep(m.Text)
			for _, c := range m.ToolCalls {
				keep(c.Arguments)
			}
			for _, th := range m.Thinking {
				keep(th.Text)
			}
		}
		a.w.screened = kept
	}
}

// screenMessage screens one message's texts not screened yet: its text,
// and of an answer loaded from disk, its calls' arguments and its
// reasoning (whose blocks are dropped when they hold a secret: their
// signature would not match a changed text).
func (a *Agent) screenMessage(ctx context.Context, m *llm.Message) {
	if m.Text != "" && !a.w.seen(m.Text) {
		m.Text = a.screenText(ctx, fromOf(m), m.Text)
	}
	for j, c := range m.ToolCalls {
		if c.Arguments != "" && !a.w.seen(c.Arguments) {
			m.ToolCalls[j].Arguments = a.screenText(ctx, "the arguments of an earlier call of "+c.Name, c.Arguments)
		}
	}
	for _, th := range m.Thinking {
		if th.Text == "" || a.w.seen(th.Text) {
			continue
		}
		if out := a.screenText(ctx, "the model's earlier reasoning", th.Text); out != th.Text {
			m.Thinking = nil
			break
		}
	}
}

// tellPictures says, once a picture, that the pictures of a message go
// as they are.
func (a *Agent) tellPictures(m *llm.Message) {
	n := 0
	for _, im := range m.Images {
		if p := unsafe.SliceData(im.Data); p != nil && !a.w.pictures[p] {
			a.w.pictures[p] = true
			n++
		}
	}
	switch {
	case n == 1:
		a.opts.UI.Notice(NoticeInfo, "1 picture is sent as it is: nb cannot look for secrets in pictures")
	case n > 1:
		a.opts.UI.Notice(NoticeInfo, fmt.Sprintf("%d pictures are sent as they are: nb cannot look for secrets in pictures", n))
	}
}

func (w *withholder) seen(s string) bool {
	_, ok := w.screened[idOf(s)]
	return ok
}

// screenText withholds the secrets of one text, says so, and lets the
// user release them.
func (a *Agent) screenText(ctx context.Context, from, text string) string {
	r := a.opts.Redact.Redact(text, a.w.isReleased)
	if len(r.Found) == 0 {
		a.w.mark(text)
		return text
	}
	a.opts.UI.Notice(NoticeWarn, fmt.Sprintf("withheld %s from %s", Describe(r.Counts()), from))
	a.told(from, r.Counts())
	if a.release(ctx, from, r.Found) {
		a.w.mark(text)
		return text
	}
	a.w.mark(r.Text)
	return r.Text
}

// Describe says what was withheld: "1 secret (github-pat)", "3 secrets
// (private-key, 2 × $GITHUB_TOKEN)".
func Describe(counts []redact.Count) string {
	n := 0
	var kinds []string
	for _, c := range counts {
		n += c.Count
		if c.Count > 1 {
			kinds = append(kinds, fmt.Sprintf("%d × %s", c.Count, c.Kind))
		} else {
			kinds = append(kinds, c.Kind)
		}
	}
	noun := "secrets"
	if n == 1 {
		noun = "secret"
	}
	return fmt.Sprintf("%d %s (%s)", n, noun, strings.Join(kinds, ", "))
}

// fromOf names where a message's text came from.
func fromOf(m *llm.Message) string {
	switch {
	case m.Role == llm.RoleTool && m.ToolName != "":
		return "the result of " + m.ToolName
	case m.Role == llm.RoleTool:
		return "a tool result"
	case m.Summary:
		return "the summary of earlier turns"
	case m.Role == llm.RoleAssistant:
		return "an earlier answer of the model"
	}
	return "your message"
}

// displayOf is the call's display line, or its tool's name.
func displayOf(p *Pending) string {
	if p.Decision != nil && p.Decision.Display != "" {
		return strings.SplitN(p.Decision.Display, "\n", 2)[0]
	}
	return p.Call.Name
}
