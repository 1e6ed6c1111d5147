// Package tool defines what a model-facing tool is, the registry the agent
// loop consults, and the working-directory state shared by the shell tools.
package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// Call is one invocation of a tool by the model (or by `nb tool`).
type Call struct {
	ID   string
	Name string
	// Args is the raw argument JSON from the model; it may be malformed.
	Args json.RawMessage
	// Live, when non-nil, receives output as it is produced so the user can
	// watch a running command. It is never what the model sees.
	Live func(stream string, chunk []byte)
}

// Result is what a tool returns.
type Result struct {
	// Content is exactly the text the model receives.
	Content string
	// IsError marks a failed call (bad arguments, refused, crashed).
	IsError bool
	// Fields for the one-line transcript summary.
	ExitCode *int
	Duration time.Duration
	Note     string // short human note: first stderr line, "timed out", ...
	// Details are a few lines shown under the summary line (a fleet's
	// grouped outputs); never what the model sees.
	Details string
	// Hosts are the per-host outcomes of a call run on many hosts (a
	// fleet), for --output-format json and the audit log.
	Hosts []HostOutcome
	// Retry, when set, offers to run the call again another way after the
	// user agrees (outside the sandbox that refused it).
	Retry *Retry
	// Changes are the files the call changed, as nb applied them (an
	// edit, a write, a previewed command, a command in a git work tree):
	// the conversation's journal keeps them for /undo, the JSON outputs
	// list them.
	Changes *changes.Set
	// Withheld counts, by kind, the secrets withheld from Content before
	// the model got it (shown on the call's line, reported in JSON).
	Withheld []redact.Count
}

// HostOutcome is how a call ended on one host of a fleet.
type HostOutcome struct {
	Host string `json:"host"`
	// Status is ok, failed, unreachable, refused, timedOut or interrupted.
	Status   string `json:"status"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Error    string `json:"error,omitempty"`
}

// Retry is a second attempt that needs the user's approval.
type Retry struct {
	Decision *policy.Decision
	Run      func(ctx context.Context) (*Result, error)
}

// Tool is one capability offered to the model.
type Tool interface {
	Spec() llm.ToolSpec
	// Review validates the arguments, resolves everything the call depends
	// on (directory, host, paths, timeout) against at, asks the policy
	// engine for the decision, and returns the invocation bound to exactly
	// that. An error means the arguments are unusable; it is sent to the
	// model.
	Review(ctx context.Context, call *Call, at At) (*Invocation, error)
}

// Policy decides what tools want to do; *policy.Engine is the one
// implementation. Tools describe an action and never decide themselves.
type Policy interface {
	Decide(a policy.Action) *policy.Decision
}

var _ Policy = (*policy.Engine)(nil)

// Confiner picks, from a call's decision alone, the host its command runs
// on: the host it was decided for, or a sandbox over it (sandbox.Guard
// puts what nb allowed on its own judgement into a read-only sandbox).
// Tools ask it at review, so the invocation runs exactly there.
type Confiner interface {
	Confine(d *policy.Decision, h host.Host) host.Host
}

// Confine is c.Confine, or h when c is nil.
func Confine(c Confiner, d *policy.Decision, h host.Host) host.Host {
	if c == nil {
		return h
	}
	return c.Confine(d, h)
}

// At is the state a call is reviewed against.
type At struct {
	// Cwd is the session working directory the call starts from: the
	// directory the earlier calls of the same model message leave behind.
	Cwd string
}

// Invocation is a reviewed call: the policy's decision and the prepared
// run. Run executes exactly what was decided: the resolved directory,
// script, host and timeout, whatever the shared state does meanwhile.
type Invocation struct {
	Decision *policy.Decision
	// CwdAfter is the session working directory once the call has run.
	// Calls that leave it alone return At.Cwd. Empty means it cannot be
	// known before the call runs (cd "$X"); later calls of the same message
	// are then reviewed only after this one ran.
	CwdAfter string
	// Run performs the call once it is approved. It runs at most once.
	Run func(ctx context.Context) (*Result, error)
	// KeptArgs, when set, replace the call's arguments in the
	// conversation: the arguments without the secret they carry.
	KeptArgs []byte
	// Changes, when set, are the file changes the call will make, shown
	// as a diff at the approval; Run applies exactly them.
	Changes *changes.Set
	// Preview, when set, runs the call first in a copy-on-write view,
	// once it is known to be asked about at a terminal (the agent calls
	// it; nothing else does): it sets Changes and Run to apply what the
	// view changed, or adds to the decision's reasons why there is no
	// preview.
	Preview func(ctx context.Context)
}

// Stays returns an invocation that does not move the working directory.
func Stays(at At, d *policy.Decision, run func(ctx context.Context) (*Result, error)) *Invocation {
	return &Invocation{Decision: d, CwdAfter: at.Cwd, Run: run}
}

// Descriptions returns a lookup of the tool descriptions the model reads,
// kept as dir/NAME.txt files embedded in fsys next to their tools. A missing
// file is a programming error and panics (golden tests pin the texts).
func Descriptions(fsys fs.ReadFileFS, dir string) func(name string) string {
	return func(name string) string {
		b, err := fsys.ReadFile(dir + "/" + name + ".txt")
		if err != nil {
			panic(err)
		}
		return strings.TrimSpace(string(b))
	}
}

// Errorf builds an error result the model can act on.
func Errorf(format string, args ...any) *Result {
	return &Result{Content: "error: " + fmt.Sprintf(format, args...), IsError: true}
}

// DecodeArgs unmarshals model-provided arguments strictly, with an error
// message written for the model: an argument the tool does not take is
// refused and named with the ones it takes (a misspelt "contents" must
// not write an empty file), as the tools' schemas say
// (additionalProperties: false).
func DecodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one value")
	}
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("unexpected text after the arguments object")
		}
	}
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// named as the model named it, not as Go's decoder does
		// ("cannot unmarshal number into Go struct field editArgs.path")
		if te.Field == "" {
			return fmt.Errorf("invalid arguments JSON: the arguments must be an object, not %s", te.Value)
		}
		return fmt.Errorf("invalid arguments JSON: %s must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("invalid arguments: unknown argument %s (the arguments are %s)", name, strings.Join(argNames(v), ", "))
	}
	return fmt.Errorf("invalid arguments JSON: %w", err)
}

// argNames are the JSON names of the fields of the struct v points to.
func argNames(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case name == "":
			out = append(out, f.Name)
		default:
			out = append(out, name)
		}
	}
	return out
}

// jsonKind names the JSON value a Go type is decoded from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "an object"
}

// Registry holds the tools offered to the model, by name.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]Tool
}

// NewRegistry returns a registry holding tools.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: map[string]Tool{}}
	for _, t := range tools {
		r.Add(t)
	}
	return r
}

// Add registers t, replacing any tool of the same name.
func (r *Registry) Add(t Tool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tools[t.Spec().Name] = t
}

// Remove drops the named tool.
func (r *Registry) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.tools, name)
}

// Get returns the named tool.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// Specs lists the tool specs sorted by name, for a model request.
func (r *Registry) Specs() []llm.ToolSpec {
	r.mu.RLock()
	defer r.mu.RUnlock()
	specs := make([]llm.ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		specs = append(specs, t.Spec())
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// Workdir holds the two directories of seed 000: the launch directory, where
// history and project config live and which never changes, and the shell
// working directory, where commands run and which the model may change.
type Workdir struct {
	launch string
	mu     sync.Mutex
	cwd    string
}

// NewWorkdir starts with the shell in the launch directory.
func NewWorkdir(launch string) *Workdir { return &Workdir{launch: launch, cwd: launch} }

// Launch is the launch directory.
func (w *Workdir) Launch() string { return w.launch }

// Cwd is the current shell working directory.
func (w *Workdir) Cwd() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cwd
}

// SetCwd changes the shell working directory.
func (w *Workdir) SetCwd(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cwd = dir
}

// Where is the context a command on h starting in dir is decided in: the
// host's isolation, and the facts of this machine's disk when the command
// sees it (a local or sandboxed host). A remote host's files are its
// own, which nb cannot read: its reads are judged as reads of unknown
// files (policy.UnknownFacts); a container's, with no facts, ask what
// needs one.
func Where(dir, home string, h host.Host) policy.CommandContext {
	iso := h.Isolation()
	cc := policy.CommandContext{Cwd: dir, Home: home, Isolation: policy.Isolation(iso)}
	if k, ok := h.(interface{ ShellKind() sysinfo.ShellKind }); ok {
		cc.Shell = k.ShellKind()
	}
	switch iso {
	case host.IsolationNone, host.IsolationSandbox:
		cc.Facts = fsfacts.Disk{Home: home}
	case host.IsolationRemote:
		// another machine's disk: what a command reads there is judged
		// as an unknown file, never by this disk's facts
		cc.Facts = policy.UnknownFacts{}
	}
	return cc
}
