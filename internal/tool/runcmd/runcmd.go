// Package runcmd provides the model's shell tools: run_cmd, which runs a
// command on the active host and returns the JSON result of SPEC §5, and
// set_cwd, which moves the session working directory.
//
// run_cmd result (the tool result content, exactly):
//
//	{"stdout": "...", "stderr": "...", "exitCode": 0, "cwd": "/dir",
//	 "durationMs": 12, "timedOut": false}
//
// plus, only when they apply: "interrupted": true (the user pressed Ctrl+C;
// stderr ends with "[Interrupted by the user (Ctrl+C)]"), "outputFile" and
// "stderrFile" (the saved full stream when it was cut or binary), and "note"
// (background processes ended, timeout capped, saved file truncated). On a
// timeout stderr ends with "[Killed - exceeded Ns timeout]". Each stream is
// shaped by package sandwich: ANSI escapes removed, long output cut to head
// and tail, binary output replaced by one line.
//
// "cwd" is the session working directory after the call. It changes only
// when the command itself ended in another directory than it started in
// (cd, pushd), measured by the host; the cwd argument alone runs one command
// elsewhere without moving the session.
package runcmd

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fleet"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sandwich"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
)

//go:embed run_cmd.txt
var runCmdDescription string

//go:embed run_cmd_cmd.txt
var runCmdDescriptionCmd string

//go:embed run_cmd_powershell.txt
var runCmdDescriptionPowerShell string

//go:embed set_cwd.txt
var setCwdDescription string

// Options wires the tools to nb's state.
type Options struct {
	// Hosts is where commands run (the active terminal provider).
	Hosts *host.Active
	// Workdir holds the session working directory.
	Workdir *tool.Workdir
	// Policy decides every call (required).
	Policy tool.Policy
	// Confine picks, from the decision, the host a command runs on (the
	// read-only sandbox for what nb allowed by itself); nil runs every
	// command on the active host.
	Confine tool.Confiner
	// Config is the terminalIntegration block (timeouts, sandwich).
	Config config.TerminalIntegration
	// Outputs keeps full outputs of cut results; nil keeps none.
	Outputs *store.Outputs
	// Getenv supplies HOME for ~ in paths (os.Getenv when nil).
	Getenv func(string) string
	// Fleet, when set, offers the hosts argument: the same command on
	// many hosts (SPEC §14). It returns the session's fleet, or why there
	// is none (an inventory that cannot be read).
	Fleet func() (*fleet.Fleet, error)
	// Sudo, when set, passes the password requests of commands' sudo to
	// the user (package askpass); nil leaves sudo as it is.
	Sudo Sudo
	// Preview, when set, runs a command the policy judges to only write
	// files (Decision.OnlyWrites) first in a copy-on-write view, before
	// it is asked about: the user approves what it changed, and Run
	// applies exactly that (SPEC §16).
	Preview Previewer
	// Snapshots, when set, takes an undo snapshot of the git work tree
	// around every command that is not provably read-only and runs on a
	// host that sees this machine's files; what the command changed is
	// the result's Changes.
	Snapshots Snapshots
}

// Snapshots takes undo snapshots (gitsnap.Tracker): Before returns nil
// when dir is in no work tree, else the function that returns what
// changed since.
type Snapshots interface {
	Before(ctx context.Context, dir string) (after func(context.Context) (*changes.Set, error), err error)
}

// New returns the run_cmd and set_cwd tools. Hosts, Workdir and Policy
// are required.
func New(opts Options) (runCmd, setCwd tool.Tool) {
	if opts.Hosts == nil || opts.Workdir == nil || opts.Policy == nil {
		panic("runcmd.New: Hosts, Workdir and Policy are required")
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	return &RunCmd{opts: opts}, &SetCwd{opts: opts}
}

// RunCmd is the run_cmd tool.
type RunCmd struct {
	opts Options

	// dirs is the shell's OLDPWD and pushd stack after the last command,
	// restored before the next one so `cd -` and popd work across calls.
	mu   sync.Mutex
	dirs *host.DirState
}

type runArgs struct {
	Command        string           `json:"command"`
	Description    string           `json:"description"`
	Cwd            string           `json:"cwd"`
	TimeoutSeconds *json.RawMessage `json:"timeoutSeconds"`
	Hosts          hostsArg         `json:"hosts"`
}

// Spec implements tool.Tool.
func (t *RunCmd) Spec() llm.ToolSpec {
	def, maxT := t.timeouts()
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"command": map[string]any{"type": "string",
				"description": "The shell command or multi-line script, passed to the shell unchanged."},
			"description": map[string]any{"type": "string",
				"description": "One short line shown to the user: what this command is for."},
			"cwd": map[string]any{"type": "string",
				"description": "Directory to run this one command in (absolute, relative to the working directory, or ~/...). Defaults to the session working directory."},
			"timeoutSeconds": map[string]any{"type": "integer", "minimum": 1, "maximum": maxT,
				"description": fmt.Sprintf("Seconds before the command is killed. Default %d, at most %d.", def, maxT)},
		},
		"required":             []string{"command"},
		"additionalProperties": false,
	}
	if t.opts.Fleet != nil {
		schema["properties"].(map[string]any)["hosts"] = map[string]any{"type": "string", "description": hostsDescription}
	}
	raw, _ := json.Marshal(schema)
	desc := runCmdDescription
	switch t.shellKind() {
	case sysinfo.ShellCmd:
		desc = runCmdDescriptionCmd
	case sysinfo.ShellPowerShell:
		desc = runCmdDescriptionPowerShell
	}
	return llm.ToolSpec{Name: "run_cmd", Description: strings.TrimSpace(desc), Schema: raw}
}

// shellKind is the language of the active host's shell (POSIX when the
// host does not say).
func (t *RunCmd) shellKind() sysinfo.ShellKind {
	if k, ok := t.opts.Hosts.Get().(interface{ ShellKind() sysinfo.ShellKind }); ok {
		return k.ShellKind()
	}
	return sysinfo.ShellPOSIX
}

func (t *RunCmd) timeouts() (def, maxT int) {
	def, maxT = t.opts.Config.DefaultTimeout, t.opts.Config.MaxTimeout
	if def <= 0 {
		def = 30
	}
	if maxT <= 0 {
		maxT = 600
	}
	if maxT < def {
		maxT = def
	}
	return def, maxT
}

// prepared is a reviewed run_cmd call: exactly what runs.
type prepared struct {
	runArgs
	// dir is the resolved directory the command runs in.
	dir     string
	timeout time.Duration
	note    string
	// host is the host it runs on.
	host host.Host
	// snapshot asks for an undo snapshot around the run: the command is
	// not provably read-only.
	snapshot bool
}

func (t *RunCmd) parse(call *tool.Call, cwd string) (*prepared, error) {
	var a runArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return nil, fmt.Errorf("command is required and must be a non-empty string")
	}
	p := &prepared{runArgs: a}
	def, maxT := t.timeouts()
	secs := float64(def)
	if a.TimeoutSeconds != nil && string(*a.TimeoutSeconds) != "null" {
		if err := json.Unmarshal(*a.TimeoutSeconds, &secs); err != nil {
			return nil, fmt.Errorf("timeoutSeconds must be a number of seconds")
		}
		if secs <= 0 {
			return nil, fmt.Errorf("timeoutSeconds must be greater than 0")
		}
		if secs > float64(maxT) {
			p.note = fmt.Sprintf("timeoutSeconds capped at %d", maxT)
			secs = float64(maxT)
		}
	}
	p.timeout = time.Duration(secs * float64(time.Second))
	p.dir = cwd
	if a.Cwd != "" {
		p.dir = resolve(p.dir, a.Cwd, t.opts.Getenv("HOME"))
	}
	return p, nil
}

// resolve turns a model-given path into an absolute one: ~ and ~/x use
// home, relative paths are relative to base.
func resolve(base, path, home string) string {
	switch {
	case path == "~":
		path = home
	case strings.HasPrefix(path, "~/"):
		path = filepath.Join(home, path[2:])
	case !filepath.IsAbs(path):
		path = filepath.Join(base, path)
	}
	return filepath.Clean(path)
}

// Review implements tool.Tool: the command is decided for the directory
// it will run in (the cwd argument resolved against at.Cwd) on the active
// host, and the invocation runs it exactly there.
func (t *RunCmd) Review(ctx context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	p, err := t.parse(call, at.Cwd)
	if err != nil {
		return nil, err
	}
	if p.Hosts != "" {
		return t.reviewFleet(call, at, p)
	}
	p.host = t.opts.Hosts.Get()
	d := t.opts.Policy.Decide(policy.Action{Kind: policy.RunCommand, Command: p.Command, Where: tool.Where(p.dir, t.home(), p.host)})
	p.snapshot = d.Safety != policy.Safe
	p.host = tool.Confine(t.opts.Confine, d, p.host)
	// The session moves only when the command ends elsewhere than it
	// started; a command that changes no directory leaves it where it
	// was. The decision's analysis says which.
	after := ""
	switch da := d.DirAfter; {
	case !da.Known:
	case da.Moved:
		after = da.Dir
	default:
		after = at.Cwd
	}
	inv := &tool.Invocation{Decision: d, CwdAfter: after, Run: func(ctx context.Context) (*tool.Result, error) {
		return t.runPrepared(ctx, call, p)
	}}
	if t.previewable(d, p) {
		inv.Preview = func(ctx context.Context) { t.withPreview(ctx, inv, p, at.Cwd) }
	}
	return inv, nil
}

// home is the home directory the policy reads ~ with.
func (t *RunCmd) home() string {
	if home := t.opts.Getenv("HOME"); home != "" {
		return home
	}
	return t.opts.Getenv("USERPROFILE") // Windows
}

// result is the JSON the model receives.
type result struct {
	Stdout      string `json:"stdout"`
	Stderr      string `json:"stderr"`
	ExitCode    int    `json:"exitCode"`
	Cwd         string `json:"cwd"`
	DurationMs  int64  `json:"durationMs"`
	TimedOut    bool   `json:"timedOut"`
	Interrupted bool   `json:"interrupted,omitempty"`
	// SandboxDenied says the sandbox refused an operation of the command.
	SandboxDenied bool   `json:"sandboxDenied,omitempty"`
	OutputFile    string `json:"outputFile,omitempty"`
	StderrFile    string `json:"stderrFile,omitempty"`
	Note          string `json:"note,omitempty"`
}

// Marker texts appended to stderr.
const (
	InterruptedMarker = "[Interrupted by the user (Ctrl+C)]"
	orphanNote        = "background processes still running when the shell exited were ended; use terminal_start for servers and long-running programs"
)

// sandboxNote tells the model what the sandbox refused (why, a phrase
// from the host) and what may follow.
func sandboxNote(why string) string {
	if why == "" {
		why = "part of this command"
	}
	return "the sandbox refused " + why + "; the user may allow a re-run outside the sandbox, or the command may do without it"
}

// TimeoutMarker is appended to stderr when the timeout killed the command.
func TimeoutMarker(d time.Duration) string {
	return fmt.Sprintf("[Killed - exceeded %s timeout]", formatSeconds(d))
}

func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

// runPrepared runs p and, when the sandbox refused part of it, offers a
// re-run of the same invocation outside the sandbox.
func (t *RunCmd) runPrepared(ctx context.Context, call *tool.Call, p *prepared) (*tool.Result, error) {
	res, sandboxed, err := t.run(ctx, call, p, p.host)
	if err != nil || !sandboxed {
		return res, err
	}
	us, ok := p.host.(interface{ Unsandboxed() host.Host })
	if !ok {
		return res, nil
	}
	d := t.opts.Policy.Decide(policy.Action{
		Kind:    policy.RerunOutside,
		Command: p.Command,
		Where:   tool.Where(p.dir, t.opts.Getenv("HOME"), &host.Local{}),
	})
	d.Reasons = append(d.Reasons, "the sandbox refused it: "+res.Note)
	res.Retry = &tool.Retry{
		Decision: d,
		Run: func(ctx context.Context) (*tool.Result, error) {
			outside := us.Unsandboxed()
			defer outside.Close()
			res, _, err := t.run(ctx, call, p, outside)
			return res, err
		},
	}
	return res, nil
}

// run runs p on h and reports whether the sandbox refused part of it.
func (t *RunCmd) run(ctx context.Context, call *tool.Call, p *prepared, h host.Host) (*tool.Result, bool, error) {
	if h.Isolation() == host.IsolationNone || h.Isolation() == host.IsolationSandbox {
		if fi, err := os.Stat(p.dir); err != nil || !fi.IsDir() {
			if p.Cwd != "" {
				return tool.Errorf("cwd %s is not an existing directory", p.dir), false, nil
			}
			return tool.Errorf("the working directory %s no longer exists; change it with set_cwd", p.dir), false, nil
		}
	}
	limits := sandwich.Limits{
		ThresholdBytes: t.opts.Config.OutputThresholdBytes,
		ThresholdLines: t.opts.Config.OutputThresholdLines,
		HeadLines:      t.opts.Config.SandwichHeadLines,
		TailLines:      t.opts.Config.SandwichTailLines,
		MaxLineBytes:   t.opts.Config.MaxLineBytes,
	}
	out := t.capture(limits, "stdout")
	errc := t.capture(limits, "stderr")
	t.mu.Lock()
	dirs := t.dirs
	t.mu.Unlock()
	var notes []string
	after := t.snapshotBefore(ctx, p, h, &notes)
	ex, sudoNote, runErr := t.runOn(ctx, h, p.Command, &host.Command{
		Script:  p.Command,
		Dir:     p.dir,
		Dirs:    dirs,
		Stdout:  live(out, "stdout", call.Live),
		Stderr:  live(errc, "stderr", call.Live),
		Timeout: p.timeout,
	})
	outRes, outErr := out.Close()
	errRes, errErr := errc.Close()
	if runErr != nil {
		for _, f := range []string{outRes.SpillPath, errRes.SpillPath} {
			if f != "" {
				os.Remove(f)
			}
		}
		if p.Cwd != "" {
			return tool.Errorf("cannot run the command in %s: %v", p.dir, runErr), false, nil
		}
		return tool.Errorf("cannot run the command: %v", runErr), false, nil
	}
	if ex.Cwd != "" && ex.Cwd != p.dir {
		t.opts.Workdir.SetCwd(ex.Cwd)
	}
	if ex.Dirs != nil {
		t.mu.Lock()
		t.dirs = ex.Dirs
		t.mu.Unlock()
	}
	r := result{
		Stdout: outRes.Text, Stderr: errRes.Text, ExitCode: ex.Code,
		Cwd: t.opts.Workdir.Cwd(), DurationMs: ex.Duration.Milliseconds(),
		TimedOut: ex.TimedOut, Interrupted: ex.Interrupted,
		OutputFile: outRes.SpillPath, StderrFile: errRes.SpillPath,
	}
	changed := t.snapshotAfter(ctx, after, &notes)
	if p.note != "" {
		notes = append(notes, p.note)
	}
	if sudoNote != "" {
		notes = append(notes, sudoNote)
	}
	switch {
	case ex.TimedOut:
		r.Stderr = appendLine(r.Stderr, TimeoutMarker(p.timeout))
	case ex.Interrupted:
		r.Stderr = appendLine(r.Stderr, InterruptedMarker)
	case ex.Orphans:
		notes = append(notes, orphanNote)
	}
	if ex.Sandboxed {
		r.SandboxDenied = true
		notes = append(notes, sandboxNote(ex.SandboxReason))
	}
	notes = append(notes, ex.Notes...)
	for _, res := range []sandwich.Result{outRes, errRes} {
		if res.SpillTruncated {
			notes = append(notes, fmt.Sprintf("%s holds only the first %s of the output", filepath.Base(res.SpillPath), sandwich.HumanSize(t.opts.Outputs.MaxFileBytes())))
		}
	}
	for _, err := range []error{outErr, errErr} {
		if err != nil {
			notes = append(notes, "the full output could not be saved: "+err.Error())
		}
	}
	r.Note = strings.Join(notes, "; ")

	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, false, fmt.Errorf("run_cmd: %w", err)
	}
	code := ex.Code
	return &tool.Result{
		Content:  strings.TrimSuffix(b.String(), "\n"),
		ExitCode: &code,
		Duration: ex.Duration,
		Note:     summary(ex, p.timeout, errRes.Text, outRes),
		Changes:  changed,
	}, ex.Sandboxed, nil
}

// snapshotBefore takes the undo snapshot of a command that may write, on
// a host that sees this machine's files; a failure is a note.
func (t *RunCmd) snapshotBefore(ctx context.Context, p *prepared, h host.Host, notes *[]string) func(context.Context) (*changes.Set, error) {
	if t.opts.Snapshots == nil || !p.snapshot || h.Isolation() != host.IsolationNone && h.Isolation() != host.IsolationSandbox {
		return nil
	}
	after, err := t.opts.Snapshots.Before(ctx, p.dir)
	if err != nil {
		*notes = append(*notes, "no undo snapshot: "+err.Error())
	}
	return after
}

// snapshotAfter is what the command changed since the snapshot, taken
// even when the command was interrupted.
func (t *RunCmd) snapshotAfter(ctx context.Context, after func(context.Context) (*changes.Set, error), notes *[]string) *changes.Set {
	if after == nil {
		return nil
	}
	set, err := after(context.WithoutCancel(ctx))
	if err != nil {
		*notes = append(*notes, "no undo snapshot: "+err.Error())
		return nil
	}
	if set != nil && len(set.Unkept) > 0 {
		*notes = append(*notes, "the change cannot be undone: nb did not keep "+strings.Join(set.Unkept, ", "))
	}
	if set != nil && len(set.Files) == 0 && len(set.Unkept) == 0 {
		return nil
	}
	return set
}

func (t *RunCmd) capture(l sandwich.Limits, kind string) *sandwich.Capture {
	o := sandwich.Options{Limits: l, BinaryHint: t.shellKind().Hints().Binary}
	if t.opts.Outputs != nil {
		outs := t.opts.Outputs
		o.Spill = func() (sandwich.SpillFile, error) { return outs.Create(kind) }
		o.SpillMax = outs.MaxFileBytes()
	}
	return sandwich.New(o)
}

func appendLine(s, line string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + line
}

// summary is the short transcript note.
func summary(ex *host.Exit, timeout time.Duration, stderr string, out sandwich.Result) string {
	switch {
	case ex.TimedOut:
		return "timed out after " + formatSeconds(timeout)
	case ex.Interrupted:
		return "interrupted"
	}
	var parts []string
	if ex.Code != 0 {
		for _, line := range strings.Split(stderr, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				if len(line) > 120 {
					line = line[:117] + "..."
				}
				parts = append(parts, line)
				break
			}
		}
	}
	if ex.Sandboxed {
		parts = append(parts, "the sandbox refused "+ex.SandboxReason)
	}
	if ex.Orphans {
		parts = append(parts, "background processes ended")
	}
	parts = append(parts, ex.Notes...)
	if out.Cut {
		parts = append(parts, fmt.Sprintf("%d lines, %s", out.Lines, sandwich.HumanSize(out.Bytes)))
	}
	return strings.Join(parts, "; ")
}

// liveWriter feeds a capture and the live view.
type liveWriter struct {
	c      *sandwich.Capture
	stream string
	fn     func(string, []byte)
}

func (w *liveWriter) Write(p []byte) (int, error) {
	w.c.Write(p)
	w.fn(w.stream, bytes.Clone(p))
	return len(p), nil
}

func live(c *sandwich.Capture, stream string, fn func(string, []byte)) interface {
	Write([]byte) (int, error)
} {
	if fn == nil {
		return c
	}
	return &liveWriter{c: c, stream: stream, fn: fn}
}
