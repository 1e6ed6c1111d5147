package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/host/hosts"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/providers"
	"github.com/nb-cli/nb/internal/render"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/tool/terminal"
)

// newProvider builds model provider name ("" = the configured or
// environment default) with model ("" = its default), and describes the
// model: its context window (a one-line hint is shown when it is a guess),
// prices and reasoning settings.
func (a *app) newProvider(name, model string) (llm.Provider, agent.Model, error) {
	spec, err := providers.Resolve(a.cfg, name, model, a.io.Getenv)
	if err != nil {
		return nil, agent.Model{}, err
	}
	p, err := providers.Build(spec)
	if err != nil {
		return nil, agent.Model{}, err
	}
	m, err := a.describeModel(spec)
	if err != nil || a.rec == nil {
		return p, m, err
	}
	return &reportProvider{Provider: p, rec: a.rec, maxArgs: a.cfg.Conversation.MaxMessageBytes, save: a.saveOutput}, m, nil
}

func (c *chat) slashProviders(context.Context, []string) error {
	entries := providers.Available(c.cfg, c.io.Getenv)
	if len(entries) == 0 {
		return providers.ErrNoProvider
	}
	cur := c.agent.Provider()
	var b strings.Builder
	for _, e := range entries {
		mark := "  "
		model := e.Model
		if e.Name == cur.Name() {
			mark, model = "* ", cur.Model()
		}
		fmt.Fprintf(&b, "%s%-14s %-18s %-28s %s", mark, e.Name, e.Type, model, e.Source)
		if e.BaseURL != "" {
			b.WriteString(" " + e.BaseURL)
		}
		b.WriteString("\n")
	}
	b.WriteString("switch with /provider NAME, change the model with /model NAME")
	c.println("%s", b.String())
	return nil
}

func (c *chat) slashApprovals(_ context.Context, args []string) error {
	grants := c.engine.Grants()
	if len(args) == 2 && args[0] == "revoke" {
		i, err := render.GrantIndex(args[1], len(grants))
		if err != nil {
			return err
		}
		if err := c.engine.Revoke(grants[i]); err != nil {
			return err
		}
		c.ui.Notice(agent.NoticeInfo, "revoked: "+grants[i].Rule)
		return nil
	}
	if len(args) != 0 {
		return fmt.Errorf("usage: /approvals [revoke N]")
	}
	fmt.Fprint(c.io.Err, render.FormatGrants(style.Palette{Color: c.io.Color}, grants))
	return nil
}

func (c *chat) slashSessions(_ context.Context, args []string) error {
	if c.sessions == nil {
		return fmt.Errorf("terminal sessions are off (terminalIntegration.enabled is false)")
	}
	if len(args) == 1 {
		screen, err := c.sessions.Peek(args[0])
		if err != nil {
			return err
		}
		c.println("── %s ──\n%s", args[0], strings.TrimRight(screen, "\n"))
		return nil
	}
	infos := c.sessions.List()
	if len(infos) == 0 {
		c.println("no terminal sessions")
		return nil
	}
	c.println("%s\nshow one's screen with /sessions ID", strings.TrimRight(terminal.Table(infos), "\n"))
	return nil
}

func (c *chat) slashTerminal(_ context.Context, args []string) error {
	cur := c.hosts.Get()
	switch len(args) {
	case 0:
		var b strings.Builder
		for _, in := range hosts.List(c.cfg.Terminal, cur.Name()) {
			mark := "  "
			if in.Active {
				mark = "* "
			}
			fmt.Fprintf(&b, "%s%-12s %-10s %-10s %s\n", mark, in.Name, in.Type, in.Isolation, in.Detail)
		}
		if c.w != nil && c.w.Guard != nil {
			_, line := c.w.Guard.Status()
			b.WriteString(line + "\n")
		}
		b.WriteString("switch with /terminal NAME")
		c.println("%s", b.String())
		return nil
	case 1:
		if args[0] == cur.Name() {
			c.ui.Notice(agent.NoticeInfo, "already on "+cur.Name())
			return nil
		}
		h, err := c.hostNamed(args[0])
		if err != nil {
			return err
		}
		c.hosts.Set(h)
		c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("commands now run on %s: %s", h.Name(), hosts.Describe(h)))
		return nil
	}
	return fmt.Errorf("usage: /terminal [NAME]")
}
