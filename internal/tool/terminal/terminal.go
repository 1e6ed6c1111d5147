// Package terminal provides the model-facing persistent session tools of
// SPEC §7: terminal_start, terminal_continue, terminal_stop and
// terminal_list, over a ptysession.Manager, with every command and every
// input decided by the policy.
package terminal

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
)

//go:embed descriptions/*.txt
var descriptions embed.FS

var description = tool.Descriptions(descriptions, "descriptions")

// Options configures the tools.
type Options struct {
	Manager *ptysession.Manager
	// Policy decides every call (required).
	Policy tool.Policy
	// Host returns the active host, where new sessions start (required).
	Host func() host.Host
	// Confine picks, from the decision, the host a session starts on (the
	// read-only sandbox for what nb allowed by itself); nil starts every
	// session on the active host.
	Confine tool.Confiner
	// Home is the user's home directory on the active host.
	Home string
}

// New returns the four session tools.
func New(opts Options) []tool.Tool {
	if opts.Manager == nil || opts.Policy == nil || opts.Host == nil {
		panic("terminal.New: Manager, Policy and Host are required")
	}
	b := &base{opts: opts}
	return []tool.Tool{&start{b}, &cont{b}, &stop{b}, &list{b}}
}

type base struct{ opts Options }

// where is the context of a call starting in dir on h.
func (b *base) where(dir string, h host.Host) policy.CommandContext {
	return tool.Where(dir, b.opts.Home, h)
}

func spec(name, schema string) llm.ToolSpec {
	return llm.ToolSpec{Name: name, Description: description(name), Schema: json.RawMessage(schema)}
}

// --- terminal_start

type start struct{ *base }

type startArgs struct {
	Command string `json:"command"`
	Stdin   string `json:"stdin"`
}

func (t *start) Spec() llm.ToolSpec {
	// the interactive shell named is the one of the host's language
	sh := sysinfo.ShellPOSIX.Hints().Shell
	if k, ok := t.opts.Host().(interface{ ShellKind() sysinfo.ShellKind }); ok {
		sh = k.ShellKind().Hints().Shell
	}
	s := spec("terminal_start", `{"type":"object","properties":{"command":{"type":"string","description":"The shell command to run in the session, e.g. \"npm run dev\", \"python3\", \"`+sh+`\"."},"stdin":{"type":"string","description":"Input to type into the program once it has started; end lines with \\n."}},"required":["command"],"additionalProperties":false}`)
	s.Description = strings.ReplaceAll(s.Description, "interactive shells (bash)", "interactive shells ("+sh+")")
	return s
}

func (t *start) args(call *tool.Call) (*startArgs, error) {
	var a startArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return nil, fmt.Errorf("command is required")
	}
	return &a, nil
}

// Review implements tool.Tool: the session starts in at.Cwd on the host
// active now, as decided.
func (t *start) Review(ctx context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	a, err := t.args(call)
	if err != nil {
		return nil, err
	}
	h := t.opts.Host()
	program, shell := ptysession.ProgramOf(a.Command)
	d := t.opts.Policy.Decide(policy.Action{
		Kind: policy.RunCommand, Command: a.Command, Input: a.Stdin,
		Program: program, Shell: shell, Session: "new session",
		Where: t.where(at.Cwd, h),
	})
	h = tool.Confine(t.opts.Confine, d, h)
	return tool.Stays(at, d, func(ctx context.Context) (*tool.Result, error) {
		began := time.Now()
		out, err := t.opts.Manager.StartOn(ctx, h, at.Cwd, a.Command, a.Stdin, watcher(call))
		if err != nil {
			return tool.Errorf("%v", err), nil
		}
		var b strings.Builder
		b.WriteString("Terminal Session Started\n")
		fmt.Fprintf(&b, "ID: %s\nCommand: %s\n", out.ID, a.Command)
		if o, ok := h.(interface{ Origin() host.Host }); ok && o.Origin() != nil {
			b.WriteString("Sandbox: read-only, network off (nb judged the command read-only)\n")
		}
		writeOutput(&b, out)
		return result(b.String(), out, time.Since(began), out.ID+" started"), nil
	}), nil
}

// --- terminal_continue

type cont struct{ *base }

type continueArgs struct {
	SessionID string `json:"sessionId"`
	Stdin     string `json:"stdin"`
}

func (t *cont) Spec() llm.ToolSpec {
	return spec("terminal_continue", `{"type":"object","properties":{"sessionId":{"type":"string","description":"The session ID returned by terminal_start, e.g. \"term-1\"."},"stdin":{"type":"string","description":"Input to type into the program; end lines with \\n. Omit to only read new output."}},"required":["sessionId"],"additionalProperties":false}`)
}

func (t *cont) args(call *tool.Call) (*continueArgs, ptysession.Info, error) {
	var a continueArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, ptysession.Info{}, err
	}
	if a.SessionID == "" {
		return nil, ptysession.Info{}, fmt.Errorf("sessionId is required")
	}
	info, err := t.opts.Manager.Get(a.SessionID)
	if err != nil {
		return nil, info, fmt.Errorf("no open session %q; terminal_list shows the open sessions", a.SessionID)
	}
	return &a, info, nil
}

// Review implements tool.Tool.
func (t *cont) Review(ctx context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	a, info, err := t.args(call)
	if err != nil {
		return nil, err
	}
	// Input is decided where the session's shell is now (a typed cd
	// moved it), when that can be told; else the directory is unknown and
	// nothing that depends on it is safe.
	dir, unknown := at.Cwd, info.Dir == ""
	if !unknown {
		dir = info.Dir
	}
	// ...on the host the session runs on, whichever is active now; a
	// session nb sandboxed by itself is judged as on the host it was
	// decided for (the sandbox under it is not the user's choice).
	h := info.Host
	if h == nil {
		h = t.opts.Host()
	}
	if o, ok := h.(interface{ Origin() host.Host }); ok && o.Origin() != nil {
		h = o.Origin()
	}
	act := policy.Action{Kind: policy.ReadSession, Session: a.SessionID, Program: info.Program, Shell: info.Shell,
		InShell: info.LaunchedShell, SessionProgram: info.Launched, Pending: info.Pending,
		PromptText: info.QuestionText, SecretRead: info.SecretRead, Where: t.where(dir, h)}
	act.Where.CwdUnknown = unknown
	switch info.Question {
	case ptysession.YesNo:
		act.Prompt = policy.Question
	case ptysession.Secret:
		act.Prompt = policy.Secret
	}
	if a.Stdin != "" {
		act.Kind, act.Input = policy.SessionInput, a.Stdin
	}
	d := t.opts.Policy.Decide(act)
	inv := tool.Stays(at, d, func(ctx context.Context) (*tool.Result, error) {
		began := time.Now()
		out, err := t.opts.Manager.ContinueWatch(ctx, a.SessionID, a.Stdin, watcher(call))
		if err != nil {
			return tool.Errorf("%v", err), nil
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Terminal Session: %s\n", out.ID)
		writeOutput(&b, out)
		return result(b.String(), out, time.Since(began), ""), nil
	})
	if d.Secret {
		// The conversation keeps that a secret was typed, not the secret.
		kept, _ := json.Marshal(continueArgs{SessionID: a.SessionID, Stdin: "[a secret typed at a password prompt: not kept]"})
		inv.KeptArgs = kept
	}
	return inv, nil
}

// --- terminal_stop

type stop struct{ *base }

type stopArgs struct {
	SessionID string `json:"sessionId"`
}

func (t *stop) Spec() llm.ToolSpec {
	return spec("terminal_stop", `{"type":"object","properties":{"sessionId":{"type":"string","description":"The session ID to terminate, e.g. \"term-1\"."}},"required":["sessionId"],"additionalProperties":false}`)
}

func (t *stop) args(call *tool.Call) (*stopArgs, error) {
	var a stopArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if a.SessionID == "" {
		return nil, fmt.Errorf("sessionId is required")
	}
	return &a, nil
}

// Review implements tool.Tool.
func (t *stop) Review(ctx context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	a, err := t.args(call)
	if err != nil {
		return nil, err
	}
	d := t.opts.Policy.Decide(policy.Action{Kind: policy.StopSession, Session: a.SessionID})
	return tool.Stays(at, d, func(context.Context) (*tool.Result, error) {
		if err := t.opts.Manager.Stop(a.SessionID); err != nil {
			return tool.Errorf("no open session %q; terminal_list shows the open sessions", a.SessionID), nil
		}
		return &tool.Result{Content: fmt.Sprintf("Terminal session %s terminated.", a.SessionID), Note: a.SessionID + " terminated"}, nil
	}), nil
}

// --- terminal_list

type list struct{ *base }

func (t *list) Spec() llm.ToolSpec {
	return spec("terminal_list", `{"type":"object","properties":{},"additionalProperties":false}`)
}

// Review implements tool.Tool.
func (t *list) Review(ctx context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a struct{}
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	d := t.opts.Policy.Decide(policy.Action{Kind: policy.ListSessions})
	return tool.Stays(at, d, func(context.Context) (*tool.Result, error) {
		infos := t.opts.Manager.List()
		return &tool.Result{Content: Table(infos), Note: strconv.Itoa(len(infos)) + " sessions"}, nil
	}), nil
}

// Table formats sessions as seed 002's listing; the /sessions command can
// show it too.
func Table(infos []ptysession.Info) string {
	if len(infos) == 0 {
		return "No active terminal sessions."
	}
	var b strings.Builder
	b.WriteString("Active Terminal Sessions:\n")
	b.WriteString("ID           | Command                        | Position | Running | Uptime\n")
	b.WriteString("-------------|--------------------------------|----------|---------|--------\n")
	for _, in := range infos {
		running := "Yes"
		if !in.Running {
			running = "No (exit " + strconv.Itoa(in.ExitCode) + ")"
		}
		fmt.Fprintf(&b, "%-12s | %-30s | %-8d | %-7s | %ds\n", in.ID, clip(oneLine(in.Command), 30), in.Position, running, int(in.Uptime.Seconds()))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// writeOutput appends the position, state and output of a read.
func writeOutput(b *strings.Builder, out *ptysession.Output) {
	fmt.Fprintf(b, "Position: %d\nComplete: %t\n", out.Position, out.Complete)
	if out.Complete {
		fmt.Fprintf(b, "Exit Code: %d\n", out.ExitCode)
	}
	fmt.Fprintf(b, "Wait Ended: %s\n", waitEnded(out))
	b.WriteString("\nOutput:\n")
	if out.Lost > 0 {
		fmt.Fprintf(b, "[... %d bytes of earlier output were dropped from the session buffer before this read ...]\n", out.Lost)
	}
	text := out.Text
	if out.Screen {
		b.WriteString("[full-screen program: its current screen follows]\n")
	}
	if strings.TrimSpace(text) == "" {
		text = "(no new output)"
	}
	b.WriteString(text)
}

// waitEnded says what ended the read, for the model.
func waitEnded(out *ptysession.Output) string {
	switch out.Ended {
	case ptysession.EndSettled:
		return "new output, then quiet"
	case ptysession.EndPrompt:
		return "the program waits for input"
	case ptysession.EndExit:
		return "the program exited"
	case ptysession.EndMaxInterval:
		return "the longest wait passed; the program is still running"
	case ptysession.EndQuiet:
		return "no output yet; the program is still running"
	case ptysession.EndCancelled:
		return "cancelled"
	case ptysession.EndReading:
		return "the program waits for input (it is reading the terminal)"
	}
	return out.Ended.String()
}

// watcher passes a session's raw terminal output to the call's live view.
func watcher(call *tool.Call) func([]byte) {
	if call.Live == nil {
		return nil
	}
	return func(raw []byte) { call.Live("stdout", raw) }
}

func result(content string, out *ptysession.Output, d time.Duration, note string) *tool.Result {
	r := &tool.Result{Content: content, Duration: d, Note: note}
	if out.Complete {
		code := out.ExitCode
		r.ExitCode = &code
		if note == "" {
			r.Note = out.ID + " exited"
		}
	}
	return r
}
