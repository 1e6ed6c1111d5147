package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/audit"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosts"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/runcmd"
	"github.com/nb-cli/nb/internal/tool/terminal"
)

// wire assembles hosts, sessions and native tools. Nothing here dials,
// spawns or talks to the network: hosts connect on first use.
func (a *app) wire() error {
	name := a.cfg.Terminal.Provider
	if name == "" {
		name = "local"
	}
	a.built = map[string]host.Host{}
	h, err := a.hostNamed(name)
	if err != nil {
		return err
	}
	a.hosts = host.NewActive(h)

	a.tools = tool.NewRegistry()
	if !a.cfg.TerminalIntegration.Enabled {
		return nil
	}
	ti := a.cfg.TerminalIntegration
	run, cd := runcmd.New(runcmd.Options{
		Hosts:   a.hosts,
		Workdir: a.workdir,
		Policy:  a.engine,
		Config:  ti,
		Outputs: store.NewOutputs(a.state, ti.SavedOutputsMax, ti.SavedOutputsMaxBytes),
		Getenv:  a.io.Getenv,
	})
	a.tools.Add(run)
	a.tools.Add(cd)

	a.sessions = ptysession.New(ptysession.Options{
		Host:        a.hosts.Get,
		Dir:         a.workdir.Cwd,
		Persistent:  a.cfg.Terminal.Persistent,
		MaxSessions: a.cfg.Terminal.MaxSessions,
		Now:         a.io.Now,
	})
	a.closers = append(a.closers, func() { a.sessions.CloseAll() })
	for _, t := range terminal.New(terminal.Options{
		Manager: a.sessions,
		Policy:  a.engine,
		Host:    a.hosts.Get,
		Home:    a.io.Getenv("HOME"),
	}) {
		a.tools.Add(t)
	}
	return nil
}

// hostNamed returns terminal provider name, building it on first use; hosts
// stay open until nb exits so that sessions on them keep running.
func (a *app) hostNamed(name string) (host.Host, error) {
	if h, ok := a.built[name]; ok {
		return h, nil
	}
	h, err := a.newHost(name)
	if err != nil {
		return nil, err
	}
	a.built[name] = h
	a.closers = append(a.closers, func() { h.Close() })
	return h, nil
}

// newHost builds terminal provider name.
func (a *app) newHost(name string) (host.Host, error) {
	spec, err := hosts.Resolve(a.cfg.Terminal, name)
	if err != nil {
		return nil, err
	}
	return hosts.New(name, spec, hosts.Env{
		LaunchDir:  a.launch,
		Home:       a.io.Getenv("HOME"),
		ConfigDir:  filepath.Dir(config.DefaultPath(a.io.Getenv)),
		StateDir:   a.state,
		Shell:      a.cfg.TerminalIntegration.Shell,
		Environ:    os.Environ(),
		Getenv:     a.io.Getenv,
		AskHostKey: a.askHostKey,
	})
}

// endSessions ends every terminal session (/clear).
func (a *app) endSessions() {
	if a.sessions != nil {
		a.sessions.CloseAll()
	}
}

// audit appends a tool call's outcome to the audit log, opened on first use.
func (a *app) audit(r agent.Record) {
	a.auditOnce.Do(func() {
		l, err := audit.Open(audit.DefaultPath(a.state))
		if err != nil {
			fmt.Fprintf(a.io.Err, "nb: %v\n", err)
			return
		}
		a.auditLog = l
		a.closers = append(a.closers, func() { l.Close() })
	})
	if a.auditLog == nil {
		return
	}
	e := audit.Entry{
		Time:      a.io.Now(),
		Kind:      "call",
		Cwd:       a.workdir.Cwd(),
		Tool:      r.Call.Name,
		Decision:  string(r.Decision.Decision) + "/" + string(r.Outcome),
		DecidedBy: string(r.DecidedBy),
		Safety:    string(r.Decision.Safety),
		Reasons:   r.Decision.Reasons,
	}
	if r.Call.Name == "run_cmd" || r.Call.Name == "terminal_start" {
		e.Command = r.Decision.Subject
	} else {
		e.Subject = r.Decision.Subject
	}
	if r.Result != nil {
		e.ExitCode = r.Result.ExitCode
		e.DurationMs = r.Result.Duration.Milliseconds()
		if r.Result.IsError && r.Outcome == "ran" && r.Result.ExitCode == nil {
			e.Error = r.Result.Note
		}
	}
	a.auditLog.Write(e)
}
