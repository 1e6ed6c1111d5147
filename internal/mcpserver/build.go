package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/audit"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/files"
	"github.com/nb-cli/nb/internal/tool/runcmd"
	"github.com/nb-cli/nb/internal/tool/terminal"
)

// BuildOptions is what `nb mcp serve` knows when it starts.
type BuildOptions struct {
	Config *config.Config
	// LaunchDir is where nb started; it is the default root and the first
	// working directory.
	LaunchDir string
	// Roots confine the file tools (default: LaunchDir).
	Roots []string
	// Approve holds --approve patterns.
	Approve []string
	Getenv  func(string) string
	Version string
	Logger  *slog.Logger
	Now     func() time.Time
	// Hosts is the active terminal provider; nil uses the local machine.
	Hosts *host.Active
	// Extra tools served besides the ones Build makes.
	Extra []tool.Tool
}

// Build assembles the server `nb mcp serve` runs: the policy engine from
// the configuration, the file tools confined to the roots, get_context, and
// the shell tools on the active host.
func Build(ctx context.Context, o BuildOptions) (*Server, error) {
	if o.Config == nil {
		o.Config = config.Default()
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.LaunchDir == "" {
		return nil, fmt.Errorf("mcp server: no launch directory")
	}
	rootDirs := o.Roots
	if len(rootDirs) == 0 {
		rootDirs = []string{o.LaunchDir}
	}
	roots, err := files.NewRoots(rootDirs...)
	if err != nil {
		return nil, fmt.Errorf("mcp server: %w", err)
	}
	state := store.StateDir(o.Getenv)
	engine, err := policy.New(policy.Options{
		Approval:     o.Config.Approval,
		WarnPatterns: o.Config.TerminalIntegration.WarnPatterns,
		Approve:      o.Approve,
		StateDir:     state,
		LaunchDir:    o.LaunchDir,
	})
	if err != nil {
		return nil, fmt.Errorf("mcp server: %w", err)
	}
	hosts := o.Hosts
	if hosts == nil {
		hosts = host.NewActive(&host.Local{Shell: shellPath(o.Config.TerminalIntegration.Shell)})
	}
	wd := tool.NewWorkdir(o.LaunchDir)
	detect := o.Config.TerminalIntegration.DetectTools
	tools := []tool.Tool{
		&ContextTool{
			Probe: func(ctx context.Context) (*sysinfo.Info, error) {
				info, err := hosts.Get().Probe(ctx, detect)
				if err != nil || info == nil {
					return basicInfo(o.Getenv), err
				}
				return info, nil
			},
			Workdir: wd,
			Roots:   roots.Dirs(),
			Policy:  engine,
			Host: func() (string, string) {
				h := hosts.Get()
				return h.Name(), string(h.Isolation())
			},
		},
	}
	tools = append(tools, files.New(files.Options{Roots: roots, Policy: engine, Home: o.Getenv("HOME")})...)
	sessions := ptysession.New(ptysession.Options{
		Host:        hosts.Get,
		Dir:         wd.Cwd,
		Persistent:  o.Config.Terminal.Persistent,
		MaxSessions: o.Config.Terminal.MaxSessions,
		Now:         o.Now,
	})
	tools = append(tools, terminal.New(terminal.Options{Manager: sessions, Policy: engine, Host: hosts.Get, Home: o.Getenv("HOME")})...)
	ti := o.Config.TerminalIntegration
	runCmd, setCwd := runcmd.New(runcmd.Options{
		Hosts:   hosts,
		Workdir: wd,
		Policy:  engine,
		Config:  ti,
		Outputs: store.NewOutputs(state, ti.SavedOutputsMax, ti.SavedOutputsMaxBytes),
		Getenv:  o.Getenv,
	})
	tools = append(tools, runCmd, setCwd)
	tools = append(tools, o.Extra...)
	log := &auditLog{path: audit.DefaultPath(state), now: o.Now, cwd: wd.Cwd}
	return New(Options{
		Audit:               log.record,
		Cwd:                 wd.Cwd,
		Tools:               tools,
		TrustClientApproval: o.Config.Approval.TrustClientApproval,
		Version:             o.Version,
		Logger:              o.Logger,
		Now:                 o.Now,
		Grant:               func(d *policy.Decision) error { return engine.Grant(d, policy.ScopeSession) },
		Instructions:        "nb gives you a shell on the user's machine (run_cmd, set_cwd, terminal sessions) and file tools confined to the allowed roots. Call get_context first.",
		Closers:             []io.Closer{closerFunc(sessions.CloseAll), hostCloser{hosts}, log},
	})
}

// basicInfo is what nb knows without probing the host.
func basicInfo(getenv func(string) string) *sysinfo.Info {
	shell := getenv("SHELL")
	return &sysinfo.Info{OS: runtime.GOOS, Arch: runtime.GOARCH, User: getenv("USER"), Home: getenv("HOME"), Shell: filepath.Base(shell), ShellPath: shell, CaseSensitive: runtime.GOOS == "linux"}
}

func shellPath(s string) string {
	if s == "auto" {
		return ""
	}
	return s
}

// auditLog appends every MCP tool call to nb's audit log, opened on first
// use; a log that cannot be opened is skipped (the calls still run).
type auditLog struct {
	path string
	now  func() time.Time
	cwd  func() string

	once sync.Once
	log  *audit.Log
}

func (a *auditLog) record(name string, d *policy.Decision, outcome string, res *tool.Result) {
	if outcome == "asking" {
		return
	}
	a.once.Do(func() {
		if l, err := audit.Open(a.path); err == nil {
			a.log = l
		}
	})
	if a.log == nil {
		return
	}
	now := time.Now
	if a.now != nil {
		now = a.now
	}
	e := audit.Entry{Time: now(), Kind: "mcp", Cwd: a.cwd(), Tool: name, Decision: outcome}
	if d != nil {
		e.Decision = string(d.Decision) + "/" + outcome
		e.DecidedBy, e.Safety, e.Reasons = string(d.DecidedBy), string(d.Safety), d.Reasons
		if name == "run_cmd" || name == "terminal_start" {
			e.Command = d.Subject
		} else {
			e.Subject = d.Subject
		}
	}
	if res != nil {
		e.ExitCode, e.DurationMs = res.ExitCode, res.Duration.Milliseconds()
		if res.IsError && res.ExitCode == nil {
			e.Error = res.Note
		}
	}
	a.log.Write(e)
}

func (a *auditLog) Close() error {
	if a.log != nil {
		return a.log.Close()
	}
	return nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

type hostCloser struct{ a *host.Active }

func (h hostCloser) Close() error { return h.a.Get().Close() }
