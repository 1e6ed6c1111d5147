// Package policy decides, for every action the model wants to take, whether
// it is allowed, must be asked about, or is denied, how safe it is, and the
// one line the user sees. Decisions are pure functions of the parsed command
// and the rules; nothing here asks the user or runs anything.
package policy

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
	DefaultAnswer string   `json:"defaultAnswer"` // "yes" or "no"
	OfferAlways   bool     `json:"offerAlways"`
	Reasons       []string `json:"reasons"`

	// Full is the complete text behind Display, shown on `?` (the whole
	// command; for writes, the content written).
	Full string `json:"-"`
	// Rule is the narrowest rule "Always" would save; empty when Always is
	// not offered.
	Rule string `json:"-"`
	// DecidedBy says who decided: "rule", "flag", "grant", "safe-list",
	// "deny-rule", "sandbox", "user"... (audit log).
	DecidedBy string `json:"-"`
	// Remedy is a line for the human when a call is denied for want of a
	// terminal to ask at, e.g. "re-run with --approve 'git push *'".
	Remedy string `json:"-"`
	// Subject is what the decision is about, for grants and audit: the
	// command for run_cmd, "input → term-2" for session input, the tool name
	// for MCP tools.
	Subject string `json:"-"`
}

// Allowed returns a decision that needs no approval (e.g. set_cwd).
func Allowed(display string) *Decision {
	return &Decision{Decision: Allow, Safety: Safe, Display: display, DefaultAnswer: "yes", Reasons: []string{}, DecidedBy: "tool"}
}
