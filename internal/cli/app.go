package cli

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/instructions"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/providers"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/report"
	"github.com/nb-cli/nb/internal/secrets"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/wiring"
)

//go:embed prompt.md
var basePrompt string

// app is one nb run: configuration, state and the parts of a chat.
type app struct {
	io      *iostreams.IO
	opts    *Options
	cfg     *config.Config
	launch  string
	state   string
	workdir *tool.Workdir
	hosts   *host.Active
	engine  *policy.Engine
	tools   *tool.Registry

	// w is the composition root: engine, hosts, sessions, tools, audit.
	w        *wiring.App
	sessions *ptysession.Manager
	// rec is the report of a single-shot run (nil for nb tool).
	rec *report.Recorder
	// spec is the provider in use, as resolved (newProvider).
	spec providers.Spec
	// journal keeps the changes applied in the conversation (/undo,
	// /changes); nil for nb tool.
	journal *changes.Journal

	// userSystem is the user's extra system prompt (system.md or --system).
	userSystem string
	// instructions are the AGENTS.md files of a chat (context.go).
	instructions []instructions.File

	// compacted keeps full outputs cut from the conversation; saved
	// remembers what it holds (by a hash of kind and text).
	compacted *store.Outputs
	savedMu   sync.Mutex
	saved     map[string]string
	// pauseKeys stops reading keys typed during a turn while a question
	// reads the terminal (nil: nothing reads them); it returns the resume.
	pauseKeys func() (resume func())
	// sudo answers sudo's password requests (sudo.go).
	sudo sudoPrompt

	probeMu sync.Mutex
	probes  map[host.Host]*sysinfo.Info

	// links is the index of secret files by identity (links.go).
	linksOnce sync.Once
	links     *secrets.Links

	closeMu sync.Mutex
	closers []func()
}

// loadConfig reads the user's and the project's configuration.
func loadConfig(io *iostreams.IO, path string, launch string) (*config.Config, error) {
	required := path != ""
	if path == "" {
		path = config.DefaultPath(io.Getenv)
	}
	cfg, err := config.Load(path, required)
	if err != nil {
		return nil, err
	}
	if err := config.LoadProject(cfg, launch); err != nil {
		return nil, err
	}
	return cfg, nil
}

// workingDir is the directory nb was started in; a directory removed
// since the shell entered it gets an error saying so.
func workingDir() (string, error) {
	dir, err := os.Getwd()
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("working directory: it no longer exists (removed after the shell entered it): cd to one that does")
	}
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return dir, nil
}

// appKind says what an app is for.
type appKind int

const (
	// forTool: nb tool and nb policy check, which run or decide one call
	// and track no change.
	forTool appKind = iota
	// forChat: a conversation, whose changes are previewed, snapshotted
	// and journalled.
	forChat
)

// newApp builds everything a chat or a tool run needs, without network or
// subprocesses: those happen when first needed.
func newApp(io *iostreams.IO, opts *Options, headless bool, kind appKind) (*app, error) {
	launch, err := workingDir()
	if err != nil {
		return nil, err
	}
	for _, p := range opts.Approve {
		if _, err := policy.ParsePattern(p); err != nil {
			return nil, usagef("--approve: %v", err)
		}
	}
	cfg, err := loadConfig(io, opts.Config, launch)
	if err != nil {
		return nil, err
	}
	a := &app{
		io: io, opts: opts, cfg: cfg, launch: launch,
		probes: map[host.Host]*sysinfo.Info{},
	}
	a.sudo.prompt = askpass.NewPrompt(io)
	if err := a.loadUserSystem(); err != nil {
		return nil, err
	}
	w, err := wiring.Build(wiring.Options{
		Config:       cfg,
		LaunchDir:    launch,
		Getenv:       io.Getenv,
		Environ:      os.Environ(),
		Approve:      opts.Approve,
		Headless:     headless,
		AskHostKey:   a.askHostKey,
		AskPassword:  a,
		Warn:         func(msg string) { fmt.Fprintln(io.Err, "nb: "+msg) },
		QuietSandbox: opts.quietSandbox,
		Now:          io.Now,
		Changes:      kind == forChat,
	})
	if err != nil {
		return nil, err
	}
	a.w, a.state, a.workdir, a.engine = w, w.State, w.Workdir, w.Engine
	a.hosts, a.tools, a.sessions = w.Hosts, w.Tools, w.Sessions
	a.closers = append(a.closers, func() { w.Close() })
	return a, nil
}

func (a *app) loadUserSystem() error {
	path, required := a.opts.System, true
	if path == "" {
		def := config.DefaultPath(a.io.Getenv)
		if def == "" {
			return nil // no user configuration directory
		}
		path, required = filepath.Join(filepath.Dir(def), "system.md"), false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !required && errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("system prompt: %w", err)
	}
	a.userSystem = strings.TrimSpace(string(data))
	return nil
}

// systemPrompt is the stable system prompt: the instructions, the
// environment of the active host and the user's own prompt. What changes
// from request to request (the working directory) is in facts, so that a
// cd never invalidates the provider's prompt cache.
func (a *app) systemPrompt(ctx context.Context) string {
	var b strings.Builder
	b.WriteString(promptFor(a.hostShell()))
	if a.tools != nil && a.cfg.TerminalIntegration.Enabled {
		if info := a.probe(ctx, a.hosts.Get()); info != nil {
			b.WriteString("\n\n")
			b.WriteString(sysinfo.Format(info, ""))
		}
		if s := a.w.FleetPrompt(); s != "" && !a.opts.NoTools {
			b.WriteString("\n\n" + strings.TrimSpace(s))
		}
	}
	if a.userSystem != "" {
		b.WriteString("\n\n")
		b.WriteString(a.userSystem)
	}
	if s := instructions.Section(a.instructions); s != "" {
		b.WriteString("\n\n")
		b.WriteString(s)
	}
	return b.String()
}

// promptFor is the base prompt in the words of the shell that runs the
// commands (no grep or heredoc advice for cmd.exe or PowerShell).
func promptFor(k sysinfo.ShellKind) string {
	h := k.Hints()
	s := strings.ReplaceAll(strings.TrimSpace(basePrompt), "{{readOnly}}", h.ReadOnly)
	s = strings.ReplaceAll(s, "{{search}}", strings.TrimSuffix(h.Search, " on that file"))
	if k == sysinfo.ShellCmd || k == sysinfo.ShellPowerShell {
		s += "\n- Commands run in " + k.String() + ": write them in its language, not bash."
	}
	return s
}

// hostShell is the language of the active host's shell.
func (a *app) hostShell() sysinfo.ShellKind {
	if a.hosts == nil {
		return sysinfo.ShellPOSIX
	}
	if k, ok := a.hosts.Get().(interface{ ShellKind() sysinfo.ShellKind }); ok {
		return k.ShellKind()
	}
	return sysinfo.ShellPOSIX
}

// facts are sent after the cached prefix of every request: the shell's
// working directory, where commands run, and the date.
func (a *app) facts(context.Context) string {
	var b strings.Builder
	b.WriteString("[nb: current session facts, not written by the user]\n")
	if a.tools != nil && a.cfg.TerminalIntegration.Enabled {
		fmt.Fprintf(&b, "- Working directory: %s\n", a.workdir.Cwd())
		if h := a.hosts.Get(); h.Isolation() != host.IsolationNone {
			fmt.Fprintf(&b, "- Commands run on terminal provider %q (isolation: %s)\n", h.Name(), h.Isolation())
		}
	}
	fmt.Fprintf(&b, "- Date: %s", a.io.Now().Format("Monday 2 January 2006"))
	return b.String()
}

// probe describes the active host once per host.
func (a *app) probe(ctx context.Context, h host.Host) *sysinfo.Info {
	a.probeMu.Lock()
	defer a.probeMu.Unlock()
	if info, ok := a.probes[h]; ok {
		return info
	}
	info, err := h.Probe(ctx, a.cfg.TerminalIntegration.DetectTools)
	if err != nil {
		fmt.Fprintf(a.io.Err, "nb: cannot describe %s: %v\n", h.Name(), err)
		info = nil
	}
	a.probes[h] = info
	return info
}

func (a *app) close() {
	// A SIGTERM at the prompt closes from the signal goroutine while the
	// main one may be returning: the second caller waits, then finds nothing.
	a.closeMu.Lock()
	defer a.closeMu.Unlock()
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// withheld reports secrets withheld from the model in a single-shot
// run's report.
func (a *app) withheld(from string, counts []redact.Count) {
	if a.rec != nil {
		a.rec.Withheld(from, counts)
	}
}

// newAgent builds the turn loop for a chat.
func (a *app) newAgent(p llm.Provider, model agent.Model, ui agent.UI, interactive bool, msgs []llm.Message) *agent.Agent {
	var tools *tool.Registry
	if !a.opts.NoTools {
		tools = a.tools
	}
	var release agent.ReleaseFunc
	if r, ok := ui.(interface {
		Release(ctx context.Context, from string, found []redact.Found) bool
	}); ok && interactive {
		release = r.Release
	}
	return agent.New(agent.Options{
		Provider:        p,
		Tools:           tools,
		UI:              ui,
		System:          a.systemPrompt,
		Facts:           a.facts,
		Model:           model,
		CompactAt:       a.cfg.Conversation.CompactAt,
		MaxMessageBytes: a.cfg.Conversation.MaxMessageBytes,
		SaveOutput:      a.saveOutput,
		Archive:         a.keepBeforeCompaction,
		MaxToolCalls:    a.cfg.MaxToolCalls,
		Interactive:     interactive,
		Grants:          a.engine,
		Cwd:             a.workdir.Cwd,
		Audit:           a.observe,
		Remedy:          a.remedy,
		Redact:          a.w.Redact,
		Release:         release,
		Withheld:        a.withheld,
		Now:             a.io.Now,
	}, msgs)
}
