package cli

import (
	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/wiring"
)

// hostNamed returns terminal provider name, built on first use by the
// composition root; hosts stay open until nb exits so that sessions on
// them keep running.
func (a *app) hostNamed(name string) (host.Host, error) { return a.w.Host(name) }

// endSessions ends every terminal session (/clear).
func (a *app) endSessions() {
	if a.sessions != nil {
		a.sessions.CloseAll()
	}
}

// audit appends a chat tool call's outcome to the audit log.
func (a *app) audit(r agent.Record) {
	a.w.Audit.Write(wiring.Call{
		Kind:      wiring.KindChat,
		Cwd:       r.Cwd,
		Tool:      r.Call.Name,
		Decision:  r.Decision,
		Outcome:   string(r.Outcome),
		DecidedBy: r.DecidedBy,
		Result:    r.Result,
	})
}
