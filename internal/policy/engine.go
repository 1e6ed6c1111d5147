package policy

import (
	"github.com/nb-cli/nb/internal/config"
)

// Options configures an Engine.
type Options struct {
	Approval config.Approval
	// WarnPatterns is terminalIntegration.warnPatterns.
	WarnPatterns []string
	// Approve holds --approve patterns for this run.
	Approve []string
	// StateDir and LaunchDir locate the project's "always" grants; empty
	// StateDir keeps grants in memory only.
	StateDir  string
	LaunchDir string
	// Headless is set when no terminal can be asked: ask becomes deny with
	// a remedy.
	Headless bool
}

// CommandContext is what the engine needs to know about where a command runs.
type CommandContext struct {
	Cwd  string
	Home string
	// Sandboxed is true when the active host isolates the command
	// (autoApproveInSandbox).
	Sandboxed bool
}

// Engine makes decisions. It is safe for concurrent use.
type Engine struct {
	opts Options
}

// New returns an engine.
func New(opts Options) (*Engine, error) {
	return &Engine{opts: opts}, nil
}

// Command decides a run_cmd (or terminal_start) command.
func (e *Engine) Command(command string, cc CommandContext) *Decision {
	return &Decision{Decision: Ask, Safety: Unknown, Display: "run: " + command, DefaultAnswer: "yes", OfferAlways: true, Reasons: []string{"not analysed yet"}, Full: command, Subject: command}
}

// Input decides text typed into persistent session id running program.
// isShell says the program is a shell, so the text is analysed as a command.
func (e *Engine) Input(id, program string, isShell bool, text string, cc CommandContext) *Decision {
	return &Decision{Decision: Ask, Safety: Unknown, Display: "input → " + id + " (" + program + "): " + text, DefaultAnswer: "yes", OfferAlways: false, Reasons: []string{"not analysed yet"}, Full: text, Subject: text}
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

// Tool decides a call of an external (MCP) tool named name ("{server}_{tool}").
func (e *Engine) Tool(name string, args map[string]any, hint ToolHint) *Decision {
	return &Decision{Decision: Ask, Safety: Unknown, Display: name, DefaultAnswer: "yes", OfferAlways: true, Reasons: []string{"not analysed yet"}, Subject: name, Rule: name}
}

// Scope says how long a grant lasts.
type Scope int

const (
	// ScopeSession lasts until nb exits.
	ScopeSession Scope = iota
	// ScopeProject is saved in nb's state directory for the launch directory.
	ScopeProject
)

// Grant is one user approval rule.
type Grant struct {
	Rule  string `json:"rule"`
	Scope Scope  `json:"-"`
}

// Grant saves d.Rule for scope.
func (e *Engine) Grant(d *Decision, scope Scope) error { return nil }

// Grants lists session and project grants.
func (e *Engine) Grants() []Grant { return nil }

// Revoke removes a grant.
func (e *Engine) Revoke(g Grant) error { return nil }
