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
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sandwich"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/tool"
)

//go:embed run_cmd.txt
var runCmdDescription string

//go:embed set_cwd.txt
var setCwdDescription string

// Options wires the tools to nb's state.
type Options struct {
	// Hosts is where commands run (the active terminal provider).
	Hosts *host.Active
	// Workdir holds the session working directory.
	Workdir *tool.Workdir
	// Policy decides approval for run_cmd; nil asks for every command.
	Policy *policy.Engine
	// Config is the terminalIntegration block (timeouts, sandwich).
	Config config.TerminalIntegration
	// Outputs keeps full outputs of cut results; nil keeps none.
	Outputs *store.Outputs
	// Getenv supplies HOME for ~ in paths (os.Getenv when nil).
	Getenv func(string) string
}

// New returns the run_cmd and set_cwd tools.
func New(opts Options) (runCmd, setCwd tool.Tool) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	return &RunCmd{opts: opts}, &SetCwd{opts: opts}
}

// RunCmd is the run_cmd tool.
type RunCmd struct{ opts Options }

type runArgs struct {
	Command        string           `json:"command"`
	Description    string           `json:"description"`
	Cwd            string           `json:"cwd"`
	TimeoutSeconds *json.RawMessage `json:"timeoutSeconds"`
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
	raw, _ := json.Marshal(schema)
	return llm.ToolSpec{Name: "run_cmd", Description: strings.TrimSpace(runCmdDescription), Schema: raw}
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

// parsed is a validated run_cmd call.
type parsed struct {
	runArgs
	dir     string
	timeout time.Duration
	note    string
}

func (t *RunCmd) parse(call *tool.Call) (*parsed, error) {
	var a runArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return nil, fmt.Errorf("command is required and must be a non-empty string")
	}
	p := &parsed{runArgs: a}
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
	p.dir = t.opts.Workdir.Cwd()
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

// Review implements tool.Tool.
func (t *RunCmd) Review(ctx context.Context, call *tool.Call) (*policy.Decision, error) {
	p, err := t.parse(call)
	if err != nil {
		return nil, err
	}
	h := t.opts.Hosts.Get()
	cc := policy.CommandContext{Cwd: p.dir, Home: t.opts.Getenv("HOME"), Sandboxed: h.Isolation() == host.IsolationSandbox}
	if h.Isolation() == host.IsolationNone || h.Isolation() == host.IsolationSandbox {
		// the command sees this machine's files
		cc.Facts = fsfacts.Disk{Home: cc.Home}
	}
	if t.opts.Policy == nil {
		return &policy.Decision{Decision: policy.Ask, Safety: policy.Unknown, Display: "run: " + p.Command, DefaultAnswer: "yes",
			Reasons: []string{"no policy"}, Full: p.Command, Subject: p.Command}, nil
	}
	return t.opts.Policy.Command(p.Command, cc), nil
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
	sandboxNote       = "the sandbox refused part of this command (the system is read-only outside the workspace and /tmp, secrets are hidden, and the network may be off); the user may allow a re-run outside the sandbox"
	orphanNote        = "background processes still running when the shell exited were ended; use terminal_start for servers and long-running programs"
)

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

// Run implements tool.Tool.
func (t *RunCmd) Run(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	h := t.opts.Hosts.Get()
	res, sandboxed, err := t.run(ctx, call, h)
	if err != nil || !sandboxed {
		return res, err
	}
	us, ok := h.(interface{ Unsandboxed() host.Host })
	if !ok {
		return res, nil
	}
	var a runArgs
	tool.DecodeArgs(call.Args, &a)
	res.Retry = &tool.Retry{
		Decision: &policy.Decision{
			Decision: policy.Ask, Safety: policy.Unknown, Display: "run outside the sandbox: " + a.Command,
			Warn: true, DefaultAnswer: "no", Full: a.Command, Subject: a.Command,
			Reasons: []string{"the sandbox refused it: " + res.Note},
		},
		Run: func(ctx context.Context) (*tool.Result, error) {
			outside := us.Unsandboxed()
			defer outside.Close()
			res, _, err := t.run(ctx, call, outside)
			return res, err
		},
	}
	return res, nil
}

// run runs the call on h and reports whether the sandbox refused part of it.
func (t *RunCmd) run(ctx context.Context, call *tool.Call, h host.Host) (*tool.Result, bool, error) {
	p, err := t.parse(call)
	if err != nil {
		return tool.Errorf("%v", err), false, nil
	}
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
	ex, runErr := h.Run(ctx, &host.Command{
		Script:  p.Command,
		Dir:     p.dir,
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
	r := result{
		Stdout: outRes.Text, Stderr: errRes.Text, ExitCode: ex.Code,
		Cwd: t.opts.Workdir.Cwd(), DurationMs: ex.Duration.Milliseconds(),
		TimedOut: ex.TimedOut, Interrupted: ex.Interrupted,
		OutputFile: outRes.SpillPath, StderrFile: errRes.SpillPath,
	}
	var notes []string
	if p.note != "" {
		notes = append(notes, p.note)
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
		notes = append(notes, sandboxNote)
	}
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
	}, ex.Sandboxed, nil
}

func (t *RunCmd) capture(l sandwich.Limits, kind string) *sandwich.Capture {
	o := sandwich.Options{Limits: l}
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
	if ex.Orphans {
		parts = append(parts, "background processes ended")
	}
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
