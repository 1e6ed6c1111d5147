package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/wiring"
)

// BuildOptions is what `nb mcp serve` knows when it starts.
type BuildOptions struct {
	// Config is the user's configuration tightened by the project's; nil
	// means the defaults.
	Config *config.Config
	// LaunchDir is where nb started; it is the default root and the first
	// working directory.
	LaunchDir string
	// Roots confine the file tools (default: LaunchDir).
	Roots []string
	// Approve holds --approve patterns.
	Approve []string
	Getenv  func(string) string
	// Environ is the base environment of local processes.
	Environ []string
	Version string
	Logger  *slog.Logger
	Now     func() time.Time
}

// Build assembles the server `nb mcp serve` runs from nb's composition
// root (package wiring), as the chat does: the policy engine, the active
// terminal provider of the configuration (sandboxed when it says so), the
// shell tools, the file tools confined to the roots, get_context and the
// audit log.
func Build(ctx context.Context, o BuildOptions) (*Server, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.LaunchDir == "" {
		return nil, fmt.Errorf("mcp server: no launch directory")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	roots := o.Roots
	if len(roots) == 0 {
		roots = []string{o.LaunchDir}
	}
	app, err := wiring.Build(wiring.Options{
		Config:    o.Config,
		LaunchDir: o.LaunchDir,
		Getenv:    o.Getenv,
		Environ:   o.Environ,
		Approve:   o.Approve,
		Roots:     roots,
		Warn:      func(msg string) { o.Logger.Warn(msg) },
		Now:       o.Now,
	})
	if err != nil {
		return nil, fmt.Errorf("mcp server: %w", err)
	}
	detect := app.Config.TerminalIntegration.DetectTools
	hosts := app.Hosts
	app.Tools.Add(&ContextTool{
		Probe: func(ctx context.Context) (*sysinfo.Info, error) {
			info, err := hosts.Get().Probe(ctx, detect)
			if err != nil || info == nil {
				return basicInfo(o.Getenv), err
			}
			return info, nil
		},
		Workdir: app.Workdir,
		Roots:   app.Roots.Dirs(),
		Policy:  app.Engine,
		Host: func() (string, string) {
			h := hosts.Get()
			return h.Name(), string(h.Isolation())
		},
	})
	var tools []tool.Tool
	for _, spec := range app.Tools.Specs() {
		t, _ := app.Tools.Get(spec.Name)
		tools = append(tools, t)
	}
	audit := func(name string, at tool.At, d *policy.Decision, outcome string, res *tool.Result) {
		if outcome == "asking" {
			return
		}
		app.Audit.Write(wiring.Call{Kind: wiring.KindMCP, Cwd: at.Cwd, Tool: name, Decision: d, Outcome: outcome, Result: res})
	}
	engine := app.Engine
	instructions := "nb gives you a shell on the user's machine (run_cmd, set_cwd, terminal sessions) and file tools confined to the allowed roots. Call get_context first."
	if f := app.FleetPrompt(); f != "" {
		instructions += "\n\n" + strings.TrimSpace(f)
	}
	srv, err := New(Options{
		Audit:               audit,
		Cwd:                 app.Workdir.Cwd,
		Tools:               tools,
		TrustClientApproval: app.Config.Approval.TrustClientApproval,
		Version:             o.Version,
		Logger:              o.Logger,
		Now:                 o.Now,
		Grant:               func(d *policy.Decision) error { return engine.Grant(d, policy.ScopeSession) },
		Instructions:        instructions,
		Closers:             []io.Closer{app},
		Redact:              func(text string) redact.Result { return app.Redact.Redact(text, nil) },
		Warm:                app.Redact.Warm,
	})
	if err != nil {
		app.Close()
		return nil, err
	}
	return srv, nil
}

// basicInfo is what nb knows without probing the host.
func basicInfo(getenv func(string) string) *sysinfo.Info {
	shell := getenv("SHELL")
	return &sysinfo.Info{OS: runtime.GOOS, Arch: runtime.GOARCH, User: getenv("USER"), Home: getenv("HOME"), Shell: filepath.Base(shell), ShellPath: shell, CaseSensitive: runtime.GOOS == "linux"}
}
