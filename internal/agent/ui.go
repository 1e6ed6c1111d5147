package agent

import (
	"context"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// Pending is a tool call the model made, with the policy's decision.
type Pending struct {
	Call     *tool.Call
	Decision *policy.Decision
	// Description is the model's stated intent ("description" argument), if any.
	Description string
	// Cwd is the session working directory the call was reviewed at.
	Cwd string
	// Changes are the file changes the call will make (an edit, a write,
	// a previewed command), shown as a diff at the approval.
	Changes *changes.Set
}

// Answer is the user's reply to one pending call.
type Answer struct {
	Approved bool
	// Always asks to save Decision.Rule as a project grant; Session as a
	// grant for this run only.
	Always  bool
	Session bool
	// Reason is an optional explanation of a rejection, sent to the model.
	Reason string
}

// UI is everything the turn loop shows or asks. The terminal renderer
// implements it; tests use a recorder.
type UI interface {
	// Waiting is called when a model request starts (spinner until the
	// first token).
	Waiting()
	// Text streams answer text (markdown) as it arrives.
	Text(chunk string)
	// EndText ends the current answer text block.
	EndText()
	// Notice shows a one-line message: retries, limits, errors.
	Notice(kind NoticeKind, msg string)
	// Approve asks the user about every call whose decision is Ask, all at
	// once (batch approval). It returns one answer per pending call, in
	// order. Cancelling ctx (Ctrl+C) means No to all.
	Approve(ctx context.Context, batch []*Pending) ([]Answer, error)
	// ToolStart is called when an approved (or auto-approved) call starts
	// running; the returned view receives live output and the result.
	ToolStart(p *Pending) ToolView
	// Refused shows a call that did not run (denied by policy or the user).
	Refused(p *Pending, why string)
}

// ToolView is the transcript entry of one running call.
type ToolView interface {
	Output(stream string, chunk []byte)
	Done(res *tool.Result)
}

// NoticeKind styles a notice.
type NoticeKind int

const (
	NoticeInfo NoticeKind = iota
	NoticeWarn
	NoticeError
)
