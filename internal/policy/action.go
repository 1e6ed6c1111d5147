package policy

import (
	"fmt"
	"path/filepath"

	"github.com/nb-cli/nb/internal/runlater"
)

// Kind is what a tool wants to do.
type Kind int

const (
	// RunCommand runs Action.Command (run_cmd, terminal_start); with
	// Action.Input, that text is typed into the new session too.
	RunCommand Kind = iota + 1
	// RerunOutside runs Action.Command again outside the sandbox that
	// refused part of it.
	RerunOutside
	// SessionInput types Action.Input into session Action.Session running
	// Action.Program (a shell when Action.Shell).
	SessionInput
	// ReadSession reads new output of a session without typing anything.
	ReadSession
	// ListSessions lists the persistent sessions.
	ListSessions
	// StopSession ends session Action.Session.
	StopSession
	// SetCwd moves the session working directory to Action.Path.
	SetCwd
	// ReadFile reads the file Action.Path (resolved, absolute).
	ReadFile
	// ListDir lists the directory Action.Path.
	ListDir
	// PathInfo describes Action.Path (existence, type, size).
	PathInfo
	// WriteFile writes Action.Content to Action.Path.
	WriteFile
	// Describe reports the environment (get_context).
	Describe
	// MCPTool calls external tool Action.Tool with Action.Args.
	MCPTool
	// MCPListResources lists the resources of MCP servers.
	MCPListResources
	// EditFile replaces text in the file Action.Path; Action.Content is
	// the change as a unified diff. It is judged as a write of that path.
	EditFile
)

// String names the kind for messages and the audit log.
func (k Kind) String() string {
	switch k {
	case RunCommand:
		return "run"
	case RerunOutside:
		return "rerun-outside-sandbox"
	case SessionInput:
		return "session-input"
	case ReadSession:
		return "session-read"
	case ListSessions:
		return "session-list"
	case StopSession:
		return "session-stop"
	case SetCwd:
		return "set-cwd"
	case ReadFile:
		return "read-file"
	case ListDir:
		return "list-dir"
	case PathInfo:
		return "path-info"
	case WriteFile:
		return "write-file"
	case Describe:
		return "describe"
	case MCPTool:
		return "mcp-tool"
	case MCPListResources:
		return "mcp-list-resources"
	case EditFile:
		return "edit-file"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Action describes one thing a tool wants to do; Engine.Decide turns it
// into a Decision. Tools describe, the engine decides: no tool returns a
// verdict of its own.
type Action struct {
	Kind Kind
	// Where is where the action happens: the directory it runs in (the
	// resolved cwd of the call), home, and the isolation of the host.
	Where CommandContext

	// Command is the shell text of RunCommand and RerunOutside.
	Command string
	// Hosts are the hosts a RunCommand runs on at once (a fleet, SPEC
	// §14) and Selection how the call named them ("@web"); empty for the
	// one active host. The command is decided once for all of them.
	Hosts     []string
	Selection string
	// Input is text typed into a session (SessionInput, or RunCommand for
	// terminal_start with stdin).
	Input string
	// Session is the session id ("term-2"); Program the program it runs
	// and Shell whether that program is a shell, whose input is analysed as
	// commands.
	Session string
	Program string
	Shell   bool
	// InShell says the session itself runs a shell (SessionProgram), which
	// gets the input whenever the foreground program does not read it.
	InShell        bool
	SessionProgram string
	// Pending is text typed into the session earlier without Enter: it is
	// part of the line the input completes.
	Pending string
	// Prompt is the question the program waits at (PromptText its line).
	Prompt     PromptKind
	PromptText string
	// SecretRead says the terminal showed that the foreground program
	// (the session's shell too, in `read -s`) is blocked reading a line
	// with echo off: the first line typed is a secret read as data.
	SecretRead bool

	// Path is the resolved absolute path of file actions and SetCwd;
	// Shown is the path as the model wrote it.
	Path  string
	Shown string
	// Content is what WriteFile writes; for EditFile, the change as a
	// unified diff.
	Content string

	// Tool is the external tool's name ("{server}_{tool}"), Args its
	// arguments and Hint the server's approvalHints (MCPTool).
	Tool string
	Args map[string]any
	Hint ToolHint
}

// Decide is the one producer of verdicts: every tool call nb makes, from
// the chat, `nb tool` or `nb mcp serve`, is decided here.
func (e *Engine) Decide(a Action) *Decision {
	switch a.Kind {
	case RunCommand:
		d := e.command(a.Command, a.Where, false)
		if len(a.Hosts) > 0 {
			onHosts(d, a)
		}
		if a.Input == "" {
			return d
		}
		return stricter(d, e.sessionInput(Action{Kind: SessionInput, Session: "new session",
			Program: a.Program, Shell: a.Shell, InShell: a.Shell, SessionProgram: a.Program,
			Input: a.Input, Where: a.Where}))
	case RerunOutside:
		d := &Decision{
			Decision: Ask, Safety: Unknown, Display: "run outside the sandbox: " + sanitize(a.Command, false),
			Warn: true, DefaultAnswer: No, Full: a.Command, Subject: a.Command,
			Reasons: []string{"the sandbox refused part of it; outside, nothing isolates it"},
		}
		return e.ask(d, nil)
	case SessionInput:
		return e.sessionInput(a)
	case ReadSession:
		return e.allowed("read: "+sanitize(a.Session+" ("+a.Program+")", false), a.Session)
	case ListSessions:
		return e.allowed("list terminal sessions", "sessions")
	case StopSession:
		return e.allowed("stop: "+sanitize(a.Session, false), a.Session)
	case SetCwd:
		return e.allowed("cd: "+sanitize(a.Path, false), a.Path)
	case Describe:
		return e.allowed("get_context", "get_context")
	case MCPListResources:
		return e.allowed("mcp_list_resources", "mcp_list_resources")
	case PathInfo:
		d := e.allowed("info: "+sanitize(a.Shown, false), "info "+a.Path)
		d.Full = a.Path
		return d
	case ReadFile, ListDir:
		return e.readPath(a)
	case WriteFile, EditFile:
		return e.writeFile(a)
	case MCPTool:
		return e.mcpTool(a.Tool, a.Args, a.Hint)
	}
	d := &Decision{Decision: Ask, Safety: Unknown, Display: a.Kind.String(), DefaultAnswer: No,
		Reasons: []string{"unknown action"}, Subject: a.Kind.String()}
	return e.ask(d, nil)
}

// allowed is the decision for an action that only reads nb's own state
// or moves nb's own working directory.
func (e *Engine) allowed(display, subject string) *Decision {
	return &Decision{Decision: Allow, Safety: Safe, Display: display, DefaultAnswer: Yes,
		Reasons: []string{}, DecidedBy: ByAction, Subject: subject}
}

// readPath decides read_file and list_dir as the equivalent command on
// the resolved path (cat PATH, ls -la PATH), so sensitive paths, deny
// rules and grants apply to the file tools as they do to run_cmd.
func (e *Engine) readPath(a Action) *Decision {
	verb, cmd := "read", "cat "+shellQuote(a.Path)
	if a.Kind == ListDir {
		verb, cmd = "list", "ls -la "+shellQuote(a.Path)
	}
	d := e.command(cmd, a.Where, false)
	d.Display, d.WarnAt = verb+": "+sanitize(a.Shown, false), nil
	d.Category = ""
	if a.Kind == ReadFile {
		d.Category = CatRead
	}
	d.Full = a.Path
	d.Subject = verb + " " + a.Path
	d.OfferAlways, d.Rule = false, ""
	if e.sensitivePath(a.Path, "", false) {
		d.Warn, d.DefaultAnswer = true, No
		if d.Decision == Allow {
			d.Decision, d.DecidedBy = Ask, BySensitive
			d.Reasons = append(d.Reasons, "sensitive path")
			d = e.ask(d, nil)
		}
	}
	d.WarnAt = markAt(d.Warn, len(verb))
	if d.Decision != Allow && d.Remedy != "" {
		d.Remedy = "read it with run_cmd where the user can approve it, or ask the user"
	}
	return d
}

// writeFile decides write_file and edit_file: always asked (a deny rule
// "write", "write_file", "edit" or "edit_file" refuses it outright), and
// the path judged as a write: a secret, a system path or startup file,
// an entry programs run later (writeRisk).
func (e *Engine) writeFile(a Action) *Decision {
	verb, full := "write", fmt.Sprintf("write %s (%d bytes):\n%s", a.Path, len(a.Content), a.Content)
	if a.Kind == EditFile {
		verb, full = "edit", fmt.Sprintf("edit %s:\n%s", a.Path, a.Content)
	}
	d := &Decision{
		Decision: Ask, Safety: Unknown, Display: verb + ": " + sanitize(a.Shown, false), WarnAt: markAt(true, len(verb)), Category: CatWrite, Warn: true,
		DefaultAnswer: No, Reasons: []string{"writes a file"},
		Full:    full,
		Subject: verb + " " + a.Path,
	}
	risk, danger := e.writeRisk(a.Path, a.Where)
	if risk != "" {
		d.Reasons = append(d.Reasons, risk)
		d.Protected = true
	}
	if danger {
		d.Safety = Dangerous
	}
	for _, p := range e.deny {
		if len(p.Words) == 1 && (p.Words[0].Text == verb+"_file" || p.Words[0].Text == verb) {
			d.Decision, d.DecidedBy = Deny, ByDenyRule
			d.Reasons = append(d.Reasons, fmt.Sprintf("denied by rule %q", p.Src))
			return d
		}
	}
	if dir := e.EditsIn(); dir != "" && !d.Protected && within(a.Path, dir) {
		d.Decision, d.DecidedBy = Allow, ByEditMode
		return d
	}
	d = e.ask(d, nil)
	if d.Decision == Deny {
		d.Remedy = "approve the write in a client that supports elicitation, or set approval.trustClientApproval"
	}
	return d
}

// within reports whether the clean absolute path p lies below dir.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// writeRisk is why writing the file p needs the user whatever the
// approval mode: a system path or startup file (dangerous), a secret, or
// an entry of the workspace that programs run later.
func (e *Engine) writeRisk(p string, cc CommandContext) (reason string, dangerous bool) {
	switch {
	case systemPath(p, cc.Home) || systemTarget(cc, p):
		return "dangerous: writes into a system path or startup file", true
	case e.sensitivePath(p, "", false):
		return "sensitive path", false
	case runlater.Entry(p) != "":
		return "programs run " + runlater.Entry(p) + " later (settings or code run outside nb)", false
	}
	return "", false
}

// stricter combines the decisions for a command and the input sent with
// it: deny beats ask beats allow; unless both are allowed, both lines are
// shown (the user sees what the input goes to) and "Always" is not offered
// for the pair.
func stricter(cmd, in *Decision) *Decision {
	rank := map[Verdict]int{Allow: 0, Ask: 1, Deny: 2}
	first := cmd
	if rank[in.Decision] > rank[cmd.Decision] {
		first = in
	}
	if first.Decision == Allow {
		return first
	}
	d := *first
	d.Display = cmd.Display + "\n" + in.Display
	d.WarnAt = append(append([]int(nil), cmd.WarnAt...), shiftMarks(in.WarnAt, 0, len(cmd.Display)+1)...)
	d.Full = cmd.Full + "\n" + in.Full
	d.Warn = cmd.Warn || in.Warn
	if d.Warn {
		d.DefaultAnswer = No
	}
	d.OfferAlways = false
	d.Rule = ""
	d.Reasons = append(append([]string{}, cmd.Reasons...), in.Reasons...)
	d.Safety = worse(worse(d.Safety, in.Safety), cmd.Safety)
	d.DirAfter = cmd.DirAfter
	return &d
}

func worse(a, b Safety) Safety {
	rank := map[Safety]int{Safe: 0, Unknown: 1, Dangerous: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
