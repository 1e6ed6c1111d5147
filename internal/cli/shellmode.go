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

// shellLine reports whether a typed line is shell mode: "!command".
func shellLine(line string) (command string, ok bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "!") {
		return "", false
	}
	return strings.TrimSpace(t[1:]), true
}

// shellCommand runs a command the user typed after "!": their own command,
// so not asked about, run as run_cmd runs (the session directory, the
// active terminal provider, the same output shaping), shown like a call,
// and put with its output before the next message.
func (c *chat) shellCommand(ctx context.Context, command string) {
	if command == "" {
		c.ui.Notice(agent.NoticeInfo, "!COMMAND runs COMMAND in the session's shell and puts its output in the next message")
		return
	}
	t, ok := c.tools.Get("run_cmd")
	if !ok {
		c.ui.Notice(agent.NoticeError, "!: there is no run_cmd tool to run commands with")
		return
	}
	args, _ := json.Marshal(map[string]string{"command": command})
	call := &tool.Call{ID: "user-shell", Name: "run_cmd", Args: args}
	cwd := c.workdir.Cwd()
	inv, err := t.Review(ctx, call, tool.At{Cwd: cwd})
	if err != nil {
		c.ui.Notice(agent.NoticeError, "!: "+err.Error())
		return
	}
	// Typed by the user: theirs to run, whatever the policy would ask.
	d := *inv.Decision
	d.Decision, d.DecidedBy, d.Warn = policy.Allow, policy.ByUser, false
	p := &agent.Pending{Call: call, Decision: &d, Cwd: cwd}

	tctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.cancel = cancel // Ctrl+C stops the command
	c.mu.Unlock()
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
	if text := shown.text(); text != "" {
		fmt.Fprint(terminalOut(c.io), text)
	}
	cancel()
	c.mu.Lock()
	c.cancel = nil
	c.mu.Unlock()
	if c.w != nil && c.w.Audit != nil {
		c.w.Audit.Write(wiring.Call{Kind: wiring.KindTool, Cwd: cwd, Tool: "run_cmd", Decision: &d, Outcome: "ran", DecidedBy: policy.ByUser, Result: res})
	}
	c.pendingText = append(c.pendingText, fmt.Sprintf("I ran this command myself in %s:\n%s\nIts result:\n%s", cwd, fence("$ "+command), fence(res.Content)))
	c.ui.Notice(agent.NoticeInfo, "the command and its output go with your next message")
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
