package policy

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// Options configures an Engine.
type Options struct {
	Approval config.Approval
	// WarnPatterns is terminalIntegration.warnPatterns.
	WarnPatterns []string
	// Approve holds --approve patterns for this run.
	Approve []string
	// Grants keeps the project's "always" grants; nil keeps them in
	// memory only.
	Grants GrantStore
	// Headless is set when no terminal can be asked: ask becomes deny with
	// a remedy.
	Headless bool
}

// OptionsFromConfig fills the configuration part of Options from cfg
// (after config.LoadProject, so project deny rules are included); nil
// means the defaults.
func OptionsFromConfig(cfg *config.Config) Options {
	if cfg == nil {
		cfg = config.Default()
	}
	return Options{Approval: cfg.Approval, WarnPatterns: cfg.TerminalIntegration.WarnPatterns}
}

// CommandContext is what the engine needs to know about where a command runs.
type CommandContext struct {
	Cwd string
	// CwdUnknown says where the command runs cannot be told (input to a
	// session whose shell directory cannot be read: ssh, a container, a
	// system without /proc). Cwd is then only a guess, and nothing that
	// depends on the directory is safe, as after cd "$d".
	CwdUnknown bool
	Home       string
	// Isolation is what the host running the command isolates. Only a
	// sandbox on this machine counts for autoApproveInSandbox: a container
	// may mount the project and an ssh host is another, real machine.
	Isolation Isolation
	// Facts tells what the engine cannot read itself (secret files in a
	// tree, programs a repository configures); nil: nothing is known, and
	// what needs a fact is asked.
	Facts Facts
	// interactive is set for text typed into an interactive shell.
	interactive bool
	// Shell is the language of the shell that will run the command:
	// commands for cmd.exe and PowerShell are parsed by package winshell
	// into the same leaves and judged by the same pipeline (pipeline.go),
	// their own commands by package cmdbase (judgewin.go).
	Shell sysinfo.ShellKind
}

// Isolation is the isolation a host provides; the values are those of
// host.Isolation.
type Isolation string

const (
	IsolationNone      Isolation = "none"
	IsolationSandbox   Isolation = "sandbox"
	IsolationContainer Isolation = "container"
	IsolationRemote    Isolation = "remote"
)

// Engine makes decisions. It is safe for concurrent use.
type Engine struct {
	opts Options

	approve []*Pattern
	allow   []*Pattern
	deny    []*Pattern

	sensitive    []string
	safeNames    map[string]bool
	safePatterns []*Pattern
	removedSafe  map[string]bool
	// removedSafeWin are removedSafe's names lower-cased (cmd.exe and
	// PowerShell ignore case), each with its first spelling in the
	// configuration.
	removedSafeWin map[string]string
	danger         []*feature
	removedDanger  map[string]bool
	warn           []*feature

	mu      sync.Mutex
	session []string
	project []string
	// grantRules are the grants compiled when they were added (nil for
	// a grant that is not a rule); compiled are the rules compiled for
	// each home and shell a decision was made for, until the grants
	// change (rules.go).
	grantRules map[string]*Pattern
	compiled   map[rulesKey]*compiledRules
	// editsIn is the directory whose files edit_file and write_file
	// change without asking ("" asks for every change).
	editsIn string
}

// Refusal is what the model is told about a call denied for want of a
// terminal to ask at. That refusal is a fact of the decision, not a
// reason: the engine sets DecidedBy to ByHeadless (Decision.Headless), and
// Refusal never appears among the Reasons.
const Refusal = "not run: this command needs approval and nb has no terminal to ask; do not retry it, explain to the user what you wanted to do"

// New returns an engine. It fails on a rule or pattern it cannot parse,
// on a safeCommands entry naming a network tool, shell or interpreter, and
// on an unreadable grants file.
func New(opts Options) (*Engine, error) {
	e := &Engine{opts: opts, safeNames: map[string]bool{}, removedSafe: map[string]bool{}, removedSafeWin: map[string]string{}, removedDanger: map[string]bool{}}
	parseAll := func(key string, srcs []string) ([]*Pattern, error) {
		var out []*Pattern
		for _, s := range srcs {
			p, err := ParsePattern(s)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
			out = append(out, p)
		}
		return out, nil
	}
	var err error
	if e.approve, err = parseAll("--approve", opts.Approve); err != nil {
		return nil, err
	}
	if e.allow, err = parseAll("approval.allow", opts.Approval.Allow); err != nil {
		return nil, err
	}
	if e.deny, err = parseAll("approval.deny", opts.Approval.Deny); err != nil {
		return nil, err
	}
	e.sensitive = opts.Approval.SensitivePaths
	for _, s := range opts.Approval.SafeCommands {
		s = strings.TrimSpace(s)
		if name, ok := strings.CutPrefix(s, "!"); ok {
			name = strings.TrimSpace(name)
			e.removedSafe[name] = true
			if _, ok := e.removedSafeWin[strings.ToLower(name)]; !ok {
				e.removedSafeWin[strings.ToLower(name)] = name
			}
			continue
		}
		p, err := ParsePattern(s)
		if err != nil {
			return nil, fmt.Errorf("approval.safeCommands: %w", err)
		}
		base := path.Base(p.Words[0].Text)
		if isNetworkTool(base) || isInterpreter(base) || cmdbase.Unix(base).NoAlways() || cmdbase.Unix(base).Has(cmdbase.ShowsVars) {
			return nil, fmt.Errorf("approval.safeCommands: %q can never be safe (network tool, shell, interpreter or wrapper)", s)
		}
		if len(p.Words) == 1 && !strings.Contains(s, " ") {
			e.safeNames[p.Words[0].Text] = true
			continue
		}
		e.safePatterns = append(e.safePatterns, p)
	}
	for _, s := range opts.Approval.DangerousCommands {
		f, err := parseFeature(s)
		if err != nil {
			return nil, fmt.Errorf("approval.dangerousCommands: %w", err)
		}
		if f.remove != "" {
			e.removedDanger[f.remove] = true
			continue
		}
		e.danger = append(e.danger, f)
	}
	for _, s := range opts.WarnPatterns {
		f, err := parseFeature(s)
		if err != nil {
			return nil, fmt.Errorf("terminalIntegration.warnPatterns: %w", err)
		}
		if f.remove == "" {
			e.warn = append(e.warn, f)
		}
	}
	if opts.Grants != nil {
		rules, err := opts.Grants.Load()
		if err != nil {
			return nil, err
		}
		e.project = rules
		e.grantsChanged()
	}
	return e, nil
}

// grantsChanged compiles the grants not compiled yet, drops those
// revoked and forgets the rules compiled per home; e.mu is held.
func (e *Engine) grantsChanged() {
	compiled := make(map[string]*Pattern, len(e.project)+len(e.session))
	for _, list := range [][]string{e.project, e.session} {
		for _, g := range list {
			p, ok := e.grantRules[g]
			if !ok {
				var err error
				if p, err = ParsePattern(g); err != nil {
					p = nil
				}
			}
			compiled[g] = p
		}
	}
	e.grantRules = compiled
	e.compiled = nil
}

// Headless reports whether ask decisions become deny.
func (e *Engine) Headless() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts.Headless
}

// SetHeadless switches headless mode (e.g. an MCP client without
// elicitation).
func (e *Engine) SetHeadless(h bool) {
	e.mu.Lock()
	e.opts.Headless = h
	e.mu.Unlock()
}

// SetEditsIn sets the approval mode of file edits (SPEC §16): with a
// directory (absolute, its links resolved), edit_file and write_file of
// files inside it are allowed without asking (DecidedBy ByEditMode) unless
// a deny rule matches or the path is protected (a secret, a system path,
// a file that runs later); "" asks for every change.
func (e *Engine) SetEditsIn(dir string) {
	e.mu.Lock()
	e.editsIn = dir
	e.mu.Unlock()
}

// EditsIn is the directory set by SetEditsIn.
func (e *Engine) EditsIn() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.editsIn
}

// command decides a run_cmd (or terminal_start) command; interactive says
// it was typed into an interactive shell.
func (e *Engine) command(command string, cc CommandContext, interactive bool) *Decision {
	return e.decide(command, cc, interactive)
}

// ToolHint shapes the decision for an MCP tool call (seed 001 approvalHints).
type ToolHint struct {
	DisplayArgs  []string
	Truncate     int
	WarnPatterns []string
	AlwaysWarn   bool
	// AlwaysAllow is set when the server's alwaysAllow lists the tool.
	AlwaysAllow bool
}

// mcpTool decides a call of an external (MCP) tool named name ("{server}_{tool}").
func (e *Engine) mcpTool(name string, args map[string]any, hint ToolHint) *Decision {
	shown := toolArgs(args, hint.DisplayArgs)
	full := name
	if shown != "" {
		full = name + ": " + shown
	}
	warn := hint.AlwaysWarn
	var reasons []string
	for _, p := range hint.WarnPatterns {
		if p != "" && strings.Contains(shown, p) {
			warn = true
			reasons = append(reasons, fmt.Sprintf("arguments contain %q", p))
			break
		}
	}
	if hint.AlwaysWarn {
		reasons = append(reasons, "this tool always warns")
	}
	display := sanitize(shown, false)
	if hint.Truncate > 0 && len([]rune(display)) > hint.Truncate {
		display = string([]rune(display)[:hint.Truncate]) + "…"
	}
	shownName := sanitize(name, false)
	if display != "" {
		display = shownName + ": " + display
	} else {
		display = shownName
	}
	d := &Decision{Safety: Unknown, Display: display, WarnAt: markAt(warn, len(shownName)), Warn: warn, DefaultAnswer: "yes", OfferAlways: !warn, Reasons: reasons, Full: full, Subject: name, Rule: name}
	if warn {
		d.DefaultAnswer = "no"
		d.Rule = ""
	}
	if d.Reasons == nil {
		d.Reasons = []string{}
	}
	leaf := &shellparse.Leaf{Words: []shellparse.Word{{Text: name, Raw: name}}}
	for _, p := range e.deny {
		if len(p.Words) == 1 && p.denies(leaf) {
			d.Decision, d.DecidedBy, d.OfferAlways = Deny, "deny-rule", false
			d.Reasons = append(d.Reasons, fmt.Sprintf("denied by rule %q", p.Src))
			return d
		}
	}
	if hint.AlwaysAllow {
		d.Decision, d.DecidedBy = Allow, "rule"
		return d
	}
	for _, r := range e.compile("", shellparse.Bash).allow {
		if len(r.p.Words) == 1 && r.p.Match(leaf, matchAllow) && (!warn || r.p.Exact()) {
			d.Decision, d.DecidedBy = Allow, r.source
			return d
		}
	}
	d.Decision, d.DecidedBy = Ask, "user"
	if e.Headless() {
		d.Decision, d.DecidedBy = Deny, ByHeadless
		d.Remedy, _ = approveRemedy([]string{name}, shellparse.Bash)
	}
	return d
}

func toolArgs(args map[string]any, keys []string) string {
	var parts []string
	if len(keys) == 0 {
		if len(args) == 0 {
			return ""
		}
		return compactJSON(args)
	}
	for _, k := range keys {
		v, ok := args[k]
		if !ok || v == nil {
			continue
		}
		switch x := v.(type) {
		case string:
			parts = append(parts, x)
		default:
			parts = append(parts, compactJSON(x))
		}
	}
	return strings.Join(parts, " ")
}
