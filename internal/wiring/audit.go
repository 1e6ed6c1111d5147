package wiring

import (
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/audit"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// Kinds of audited calls: by the model in a chat, by an MCP client, typed
// by the user with `nb tool`.
const (
	KindChat = "call"
	KindMCP  = "mcp"
	KindTool = "tool"
)

// Call is one audited tool call.
type Call struct {
	Kind string
	// Cwd is the session directory the call was reviewed at.
	Cwd  string
	Tool string
	// Decision is the engine's; nil when the arguments were unusable.
	Decision *policy.Decision
	// Outcome says how the call ended: ran, denied, declined, skipped,
	// or a free-form line (an MCP client's "refused by the user").
	Outcome string
	// DecidedBy overrides Decision.DecidedBy (the user who answered).
	DecidedBy policy.Decider
	// Result is set once the call ran.
	Result *tool.Result
}

// Audit appends calls to nb's audit log in the state directory, opened on
// first use. A log that cannot be opened is reported once and skipped (the
// calls still run); with no state directory it stays off.
type Audit struct {
	path string
	off  error
	now  func() time.Time
	warn func(string)

	mu    sync.Mutex
	tried bool
	log   *audit.Log
}

// Write appends c.
func (a *Audit) Write(c Call) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.off != nil {
		return
	}
	if !a.tried {
		a.tried = true
		l, err := audit.Open(a.path)
		if err != nil {
			a.warn(err.Error())
			return
		}
		a.log = l
	}
	if a.log == nil {
		return
	}
	e := audit.Entry{Time: a.now(), Kind: c.Kind, Cwd: c.Cwd, Tool: c.Tool, Decision: c.Outcome}
	if d := c.Decision; d != nil {
		e.Decision = string(d.Decision) + "/" + c.Outcome
		by := c.DecidedBy
		if by == "" {
			by = d.DecidedBy
		}
		e.DecidedBy, e.Safety, e.Reasons = string(by), string(d.Safety), d.Reasons
		if c.Tool == "run_cmd" || c.Tool == "terminal_start" {
			e.Command = d.Subject
		} else {
			e.Subject = d.Subject
		}
	}
	if r := c.Result; r != nil {
		e.ExitCode, e.DurationMs = r.ExitCode, r.Duration.Milliseconds()
		if len(r.Hosts) > 0 {
			e.Hosts = map[string]string{}
			for _, h := range r.Hosts {
				e.Hosts[h.Host] = h.Status
			}
		}
		if r.IsError && r.ExitCode == nil {
			e.Error = r.Note
			if e.Error == "" {
				e.Error = firstLine(r.Content)
			}
		}
	}
	a.log.Write(e)
}

// Close closes the log.
func (a *Audit) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.off = errClosed
	if a.log == nil {
		return nil
	}
	err := a.log.Close()
	a.log = nil
	return err
}

type closedError struct{}

func (closedError) Error() string { return "audit log closed" }

var errClosed error = closedError{}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
