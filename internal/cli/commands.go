package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host/hosts"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/providers"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/render"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/store"
)

// discoverTimeout bounds asking a server for its models.
const discoverTimeout = 15 * time.Second

// newProvider builds model provider name ("" = the configured or
// environment default) with model ("" = the one chosen with /model in the
// launch directory, else the provider's default, else the only one its
// server offers), and describes the model: its context window, prices and
// reasoning settings.
func (a *app) newProvider(name, model string) (llm.Provider, agent.Model, error) {
	spec, err := providers.Resolve(a.cfg, name, model, a.io.Getenv)
	if err != nil {
		return nil, agent.Model{}, a.noProvider(err)
	}
	if c, ok := store.LoadChoice(a.state, a.launch); ok && model == "" && c.Provider == spec.Name {
		spec.Model = c.Model
	}
	ctx, cancel := context.WithTimeout(context.Background(), discoverTimeout)
	defer cancel()
	if spec, err = providers.Discover(ctx, spec); err != nil {
		return nil, agent.Model{}, err
	}
	p, err := providers.Build(spec)
	if err != nil {
		return nil, agent.Model{}, err
	}
	m, err := a.describeModel(spec)
	if err != nil {
		return nil, m, err
	}
	a.spec = spec
	if a.rec == nil {
		return p, m, nil
	}
	return &reportProvider{Provider: p, rec: a.rec, maxArgs: a.cfg.Conversation.MaxMessageBytes, save: a.saveOutput}, m, nil
}

// noProvider is err, when it says no provider is configured, naming the
// configuration file this nb reads.
func (a *app) noProvider(err error) error {
	var np *providers.NoProviderError
	if !errors.As(err, &np) {
		return err
	}
	e := *np
	e.ConfigFile = a.opts.Config
	if e.ConfigFile == "" {
		e.ConfigFile = config.DefaultPath(a.io.Getenv)
	}
	e.NoConfigFile = e.ConfigFile == ""
	return &e
}

func (c *chat) slashProviders(context.Context, []string) error {
	entries := providers.Available(c.cfg, c.io.Getenv)
	if len(entries) == 0 {
		return c.noProvider(providers.ErrNoProvider)
	}
	cur := c.agent.Provider()
	var b strings.Builder
	for _, e := range entries {
		mark := "  "
		model := e.Model
		if e.Name == cur.Name() {
			mark, model = "* ", cur.Model()
		}
		if model == "" {
			model = "(the server's)"
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
	c.println("%s\nshow one's screen with /sessions ID", sessionsTable(infos, c.io.Getenv("HOME")))
	return nil
}

// sessionsTable lists terminal sessions for the user: what each started,
// what runs in it now and what it waits for, where, and for how long (the
// model's read position, in terminal_list, means nothing here).
func sessionsTable(infos []ptysession.Info, home string) string {
	rows := [][]string{{"ID", "STARTED", "NOW", "IN", "UP"}}
	for _, in := range infos {
		now := in.Program
		switch {
		case !in.Running:
			now = fmt.Sprintf("exited %d", in.ExitCode)
		case in.SecretRead:
			now += ", reads a password"
		case in.QuestionText != "":
			now += ", asks " + strconv.Quote(in.QuestionText)
		}
		dir := in.Dir
		if home != "" && (dir == home || strings.HasPrefix(dir, home+"/")) {
			dir = "~" + dir[len(home):]
		}
		rows = append(rows, []string{in.ID, clipText(in.Command, 32), clipText(now, 40), clipText(dir, 32), in.Uptime.Round(time.Second).String()})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], style.Width(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, cell := range r {
			if i == len(r)-1 {
				b.WriteString(cell)
				break
			}
			b.WriteString(cell + strings.Repeat(" ", widths[i]-style.Width(cell)+2))
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// clipText is s on one line, safe to show, cut to n columns.
func clipText(s string, n int) string {
	return style.Truncate(style.Sanitize(strings.Join(strings.Fields(s), " ")), n)
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
