// The Decision an Engine returns, and the small types it is made of.

package policy

import "github.com/nb-cli/nb/internal/shellparse"

// Verdict is the outcome of a decision.
type Verdict string

const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// Safety is the risk level of a command (seed 002).
type Safety string

const (
	Safe      Safety = "safe"
	Unknown   Safety = "unknown"
	Dangerous Safety = "dangerous"
)

// Decision is the verdict for one action. Its JSON form is the contract of
// `nb policy check --json` (SPEC §6.4); fields after Reasons are omitted there.
type Decision struct {
	Decision      Verdict  `json:"decision"`
	Safety        Safety   `json:"safety"`
	Display       string   `json:"display"`
	Warn          bool     `json:"warn"`
	DefaultAnswer Answer   `json:"defaultAnswer"`
	OfferAlways   bool     `json:"offerAlways"`
	Reasons       []string `json:"reasons"`

	// WarnAt are the byte offsets in Display after which the warning sign
	// belongs when the decision warns (Warn, or Safety Dangerous): after
	// the verb of each warned part ("delete", "run", "answer", "input", an
	// MCP tool's name), ascending. Display itself is plain text: no
	// glyph leaves this package, the prompt draws it
	// (approval.DisplayLine), in front of the line when WarnAt is empty.
	WarnAt []int `json:"-"`

	// Full is the complete text behind Display, shown on `?` (the whole
	// command; for writes, the content written).
	Full string `json:"-"`
	// Rule is the narrowest rule "Always" would save; empty when Always is
	// not offered.
	Rule string `json:"-"`
	// DecidedBy says who decided (audit log).
	DecidedBy Decider `json:"-"`
	// Remedy is a line for the human when a call is denied for want of a
	// terminal to ask at, e.g. "re-run with --approve 'git push *'".
	Remedy string `json:"-"`
	// Category is what the display line shows the action as (read, write,
	// append, copy, move, delete, mkdir); empty for "run: COMMAND" and for
	// actions that are not commands.
	Category Category `json:"-"`
	// Subject is what the decision is about, for grants and audit: the
	// command for run_cmd, "input → term-2" for session input, the tool name
	// for MCP tools.
	Subject string `json:"-"`
	// Secret is set when the action carries a secret (a password typed
	// at a prompt): it is never shown, saved or logged in clear.
	Secret bool `json:"-"`
	// OnlyWrites is set on a command whose only effects nb knows of are
	// writes to files: no network, nothing unknown or dynamic, no program
	// but read-only ones and those that only read and write the files
	// they name (cp, mv, rm, sed, tee…). Such a command may be previewed
	// in a copy-on-write view (SPEC §16). Bash commands only.
	OnlyWrites bool `json:"-"`
	// Paths are, for a command that OnlyWrites, the absolute paths its
	// writing commands' words and its redirections name: where it may
	// write, which a preview overlays.
	Paths []string `json:"-"`
	// Protected is set on a file write whose path needs the user whatever
	// the approval mode: a secret, a system path or startup file, an
	// entry programs run later.
	Protected bool `json:"-"`
	// DirAfter is where the shell is once a RunCommand's command has run,
	// when that is certain before it runs (from the same analysis the
	// verdict comes from).
	DirAfter shellparse.DirAfter `json:"-"`
}

// Headless reports whether d is a refusal for want of a terminal to ask
// at: the call needed approval and the engine was headless. Only the
// engine decides it (DecidedBy ByHeadless); the model is told Refusal.
func (d *Decision) Headless() bool {
	return d.Decision == Deny && d.DecidedBy == ByHeadless
}

// markAt is WarnAt for a display whose warned verb ends at byte n; none
// when the part does not warn.
func markAt(warn bool, n int) []int {
	if !warn {
		return nil
	}
	return []int{n}
}

// shiftMarks moves the marks at or after byte from by n bytes, for text
// of n bytes inserted at from; it returns a new slice.
func shiftMarks(marks []int, from, n int) []int {
	if len(marks) == 0 {
		return nil
	}
	out := make([]int, len(marks))
	for i, m := range marks {
		if m >= from {
			m += n
		}
		out[i] = m
	}
	return out
}

// Category classifies a single simple command for the display line.
type Category string

const (
	CatRead   Category = "read"
	CatWrite  Category = "write"
	CatAppend Category = "append"
	CatCopy   Category = "copy"
	CatMove   Category = "move"
	CatDelete Category = "delete"
	CatMkdir  Category = "mkdir"
)

// Writes reports whether the action writes content the user may want to
// see before approving it (`?` shows it).
func (c Category) Writes() bool { return c == CatWrite || c == CatAppend }

// Answer is the answer the approval prompt selects by default.
type Answer string

const (
	Yes Answer = "yes"
	No  Answer = "no"
)

// Decider says who decided a call.
type Decider string

const (
	// ByFlag: a --approve rule of this run.
	ByFlag Decider = "flag"
	// ByRule: approval.allow (or an MCP server's alwaysAllow).
	ByRule Decider = "rule"
	// ByGrant: an "always" or "this session" grant.
	ByGrant Decider = "grant"
	// BySafeList: every part of the command is provably read-only.
	BySafeList Decider = "safe-list"
	// BySandbox: autoApproveInSandbox on a sandboxed host.
	BySandbox Decider = "sandbox"
	// ByDenyRule: a deny rule matched.
	ByDenyRule Decider = "deny-rule"
	// ByAction: the kind of action needs no approval (set_cwd, listing
	// sessions, get_context).
	ByAction Decider = "action"
	// BySensitive: a read that would be allowed touches a sensitive path.
	BySensitive Decider = "sensitive-path"
	// ByUser: the user is asked (or answered).
	ByUser Decider = "user"
	// ByHeadless: it needed asking and there was no terminal to ask at.
	ByHeadless Decider = "headless"
	// ByClient: an MCP client approved it (approval.trustClientApproval).
	ByClient Decider = "client"
	// ByNoTerminal: the agent had no terminal to ask at.
	ByNoTerminal Decider = "no-terminal"
	// ByEditMode: an edit of a file inside the workspace, in the approval
	// mode that applies such edits without asking (SPEC §16).
	ByEditMode Decider = "edit-mode"
)
