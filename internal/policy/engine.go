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
