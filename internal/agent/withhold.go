package agent

import (
	"context"
	"fmt"
	"strings"
	"unsafe"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
)

// Secrets never reach the model unless the user says so. Every request
// passes guard right before it is sent: the system prompt (project
// instructions), the per-request facts and every message not written by
// the model (the user's, attachments, tool results and errors, MCP
// prompts) are screened by the detector, in the conversation itself, so
// that the history kept on disk holds markers, not secrets. Texts already
// screened are remembered by identity and not scanned again. A tool
// result is screened as soon as its call ends, so that its line shows
// what was withheld and the user can release it at once.

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
}

func (w *withholder) isReleased(v string) bool { return w.released[v] }

func (w *withholder) mark(s string) {
	if s != "" {
		w.screened[idOf(s)] = struct{}{}
	}
}

// trust marks the texts of msgs as screened: a conversation loaded from
// the history was screened when its messages were added.
func (a *Agent) trust(msgs []llm.Message) {
	a.w.released = map[string]bool{}
	a.w.screened = map[textID]struct{}{}
	for _, m := range msgs {
		a.w.mark(m.Text)
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
	a.screen(ctx, req.Messages)
}

// screen withholds secrets from the messages not written by the model,
// in place, and forgets the texts no longer in the conversation.
func (a *Agent) screen(ctx context.Context, msgs []llm.Message) {
	if a.opts.Redact == nil {
		return
	}
	for i := range msgs {
		m := &msgs[i]
		if m.Role == llm.RoleAssistant || m.Text == "" {
			continue
		}
		if _, ok := a.w.screened[idOf(m.Text)]; ok {
			continue
		}
		m.Text = a.screenText(ctx, fromOf(m), m.Text)
	}
	if len(a.w.screened) > 2*len(a.Messages)+64 {
		// keep what the conversation still holds, and only what was
		// screened: a text not screened yet stays so
		kept := map[textID]struct{}{}
		for _, m := range a.Messages {
			if _, ok := a.w.screened[idOf(m.Text)]; ok {
				kept[idOf(m.Text)] = struct{}{}
			}
		}
		a.w.screened = kept
	}
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
