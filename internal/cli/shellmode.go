package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/wiring"
)

// shellLine reports whether a typed line is shell mode: "!command", or
// "!@group command" (any host selection starting with @: "!@web,!web-03
// uptime") to run it on those hosts of the fleet.
func shellLine(line string) (command, hosts string, ok bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "!") {
		return "", "", false
	}
	t = strings.TrimSpace(t[1:])
	if strings.HasPrefix(t, "@") {
		hosts, command, _ = strings.Cut(t, " ")
		return strings.TrimSpace(command), hosts, true
	}
	return t, "", true
}

// slashRun runs /run SELECTION COMMAND: the user's command on the hosts
// of the fleet the selection picks.
func (c *chat) slashRun(ctx context.Context, args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: /run SELECTION COMMAND (a host, web-0*, @group, a list; /hosts SELECTION shows what it picks)")
	}
	c.shellCommand(ctx, strings.Join(args[1:], " "), args[0])
	return nil
}

// shellCommand runs a command the user typed after "!" (or with /run): run
// as run_cmd runs (the session directory, the active terminal provider,
// the same output shaping), shown like a call, and put with its output
// before the next message. On this machine it is their own command, so
// not asked about; on hosts of the fleet it goes through the same approval
// as the model's fan-out (the prompt names the hosts), since it reaches
// machines at once.
func (c *chat) shellCommand(ctx context.Context, command, hosts string) {
	if command == "" {
		c.ui.Notice(agent.NoticeInfo, "!COMMAND runs COMMAND in the session's shell, !@GROUP COMMAND on hosts of the fleet; it and its output go with your next message")
		return
	}
	t, ok := c.tools.Get("run_cmd")
	if !ok {
		c.ui.Notice(agent.NoticeError, "!: there is no run_cmd tool to run commands with")
		return
	}
	params := map[string]string{"command": command}
	if hosts != "" {
		params["hosts"] = hosts
	}
	args, _ := json.Marshal(params)
	call := &tool.Call{ID: "user-shell", Name: "run_cmd", Args: args}
	cwd := c.workdir.Cwd()
	inv, err := t.Review(ctx, call, tool.At{Cwd: cwd})
	if err != nil {
		c.ui.Notice(agent.NoticeError, "!: "+err.Error())
		return
	}
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.cancel = cancel // Ctrl+C stops the command (and the prompt)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.cancel = nil
		c.mu.Unlock()
	}()
	d := *inv.Decision
	p := &agent.Pending{Call: call, Decision: &d, Cwd: cwd}
	if hosts == "" {
		// Typed by the user for this machine: theirs to run, whatever
		// the policy would ask.
		d.Decision, d.DecidedBy, d.Warn = policy.Allow, policy.ByUser, false
	} else if !c.approveFleet(tctx, p) {
		return
	}
	view := c.ui.ToolStart(p)
	var shown shownOutput
	call.Live = func(stream string, chunk []byte) {
		shown.add(chunk)
		view.Output(stream, chunk)
	}
	res, err := inv.Run(tctx)
	if err != nil {
		res = tool.Errorf("%v", err)
	}
	view.Done(res)
	// The user asked for this output: it stays on screen (its tail).
	if text := shown.text(); text != "" && hosts == "" {
		fmt.Fprint(terminalOut(c.io), text)
	}
	if c.w != nil && c.w.Audit != nil {
		c.w.Audit.Write(wiring.Call{Kind: wiring.KindTool, Cwd: cwd, Tool: "run_cmd", Decision: &d, Outcome: "ran", DecidedBy: d.DecidedBy, Result: res})
	}
	where := "in " + cwd
	if hosts != "" {
		where = "on the hosts " + hosts
	}
	c.pendingText = append(c.pendingText, fmt.Sprintf("I ran this command myself %s:\n%s\nIts result:\n%s", where, fence("$ "+command), fence(res.Content)))
	c.ui.Notice(agent.NoticeInfo, "the command and its output go with your next message")
}

// approveFleet puts the user's fan-out to the policy and, when it asks,
// to the user at the approval prompt (an Always or session answer saves
// its grant as for the model's calls); it reports whether to run.
func (c *chat) approveFleet(ctx context.Context, p *agent.Pending) bool {
	d := p.Decision
	switch d.Decision {
	case policy.Deny:
		c.ui.Refused(p, "denied: "+strings.Join(d.Reasons, "; "))
		return false
	case policy.Allow:
		return true
	}
	answers, err := c.ui.Approve(ctx, []*agent.Pending{p})
	if err != nil || len(answers) != 1 || !answers[0].Approved {
		c.ui.Refused(p, "declined")
		return false
	}
	if a := answers[0]; a.Always || a.Session {
		scope := policy.ScopeSession
		if a.Always {
			scope = policy.ScopeProject
		}
		if err := c.engine.Grant(d, scope); err != nil {
			c.ui.Notice(agent.NoticeError, "could not save approval: "+err.Error())
		}
	}
	d.DecidedBy = policy.ByUser
	return true
}

// maxShown bounds the output of a "!" command kept on screen: its last
// lines.
const maxShown = 200

// shownOutput collects a command's output for the screen, keeping the tail.
type shownOutput struct {
	buf []byte
}

func (o *shownOutput) add(chunk []byte) {
	o.buf = append(o.buf, chunk...)
	if len(o.buf) > 256<<10 {
		o.buf = append([]byte(nil), o.buf[len(o.buf)-128<<10:]...)
	}
}

// text is the output's last lines, made safe to draw, one per row.
func (o *shownOutput) text() string {
	s := strings.TrimRight(strings.ReplaceAll(string(o.buf), "\r\n", "\n"), "\n")
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > maxShown {
		lines = lines[len(lines)-maxShown:]
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("  " + style.Sanitize(l) + "\n")
	}
	return b.String()
}
