// Package wiring is nb's one composition root: from the configuration and
// the environment it builds the policy engine, the terminal providers
// (hosts), the working directory, persistent sessions, the native tools
// and the audit log, the same way for the chat, `nb tool` and
// `nb mcp serve`. Nothing here dials, spawns or talks to the network:
// hosts connect on first use.
package wiring

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/changes/gitsnap"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fleet"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosts"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/host/ssh"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/files"
	"github.com/nb-cli/nb/internal/tool/runcmd"
	"github.com/nb-cli/nb/internal/tool/terminal"
)

// Options is what nb knows when it starts.
type Options struct {
	// Config is the user's configuration tightened by the project's
	// (config.LoadProject); nil means the defaults.
	Config *config.Config
	// LaunchDir is where nb started: the first working directory, the
	// workspace of sandboxes and containers, the key of project state.
	LaunchDir string
	// Getenv reads nb's environment (HOME, XDG_*); Environ is the base
	// environment of local processes.
	Getenv  func(string) string
	Environ []string
	// Approve holds --approve patterns.
	Approve []string
	// Headless is set when no terminal can be asked: ask becomes deny.
	Headless bool
	// Roots, when set, adds the file tools confined to them (nb mcp serve).
	Roots []string
	// Changes tracks the changes commands make, for the chat's journal:
	// undo snapshots of git work trees around commands that may write
	// (changes.snapshots) and previews of commands that only write files
	// (changes.preview).
	Changes bool
	// AskHostKey asks about an unknown ssh host key; nil refuses them.
	AskHostKey ssh.AskHostKeyFunc
	// AskPassword asks the user for sudo's password (package askpass);
	// nil: sudo fails at once when it needs one.
	AskPassword askpass.Asker
	// Warn reports, in one line, a problem that does not stop nb (no state
	// directory, an audit log that cannot be opened, no sandbox here).
	Warn func(msg string)
	// QuietSandbox leaves out the start-up line saying no sandbox works
	// here (nb policy check, which runs nothing).
	QuietSandbox bool
	Now          func() time.Time
}

// App is everything a run of nb uses to decide and run tool calls.
type App struct {
	Config *config.Config
	Launch string
	// State is nb's state directory; "" when there is none (StateErr),
	// and then grants, the audit log, saved outputs and history locks are
	// off rather than written anywhere near the project.
	State    string
	StateErr error
	Workdir  *tool.Workdir
	Engine   *policy.Engine
	Hosts    *host.Active
	// Sessions is nil when terminalIntegration is disabled.
	Sessions *ptysession.Manager
	Tools    *tool.Registry
	Audit    *Audit
	// Roots are the file tools' roots (nb mcp serve).
	Roots *files.Roots
	// Fleet runs one command on many hosts (run_cmd's hosts); nil when
	// the inventory has no host, and FleetErr when it cannot be read.
	Fleet    *fleet.Fleet
	FleetErr error
	// Redact withholds secrets from every text bound for a model.
	Redact *redact.Detector
	// Guard puts what nb allows on its own judgement into a read-only
	// sandbox (terminal.readOnlySandbox).
	Guard *sandbox.Guard
	// Sudo passes sudo's password requests to the user; Forget drops the
	// passwords remembered for the session.
	Sudo *askpass.Sudo

	opts    Options
	mu      sync.Mutex
	built   map[string]host.Host
	closers []func()
}

// Build assembles an App. It fails on configuration it cannot use (a
// rule that does not parse, an unknown terminal provider, a root that does
// not exist).
func Build(o Options) (*App, error) {
	if o.Config == nil {
		o.Config = config.Default()
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	if o.LaunchDir == "" || !filepath.IsAbs(o.LaunchDir) {
		return nil, errors.New("wiring: the launch directory must be an absolute path")
	}
	a := &App{Config: o.Config, Launch: o.LaunchDir, opts: o, built: map[string]host.Host{}, Workdir: tool.NewWorkdir(o.LaunchDir)}
	a.Redact = newDetector(o, o.Config)
	a.State, a.StateErr = store.StateDir(o.Getenv)
	if a.StateErr != nil {
		o.Warn(a.StateErr.Error() + "; grants, history, the audit log and saved outputs are off")
	}
	if a.StateErr == nil {
		// Processes left by an nb that was killed together with its guard
		// are ended now; this nb records itself the same way.
		host.KeepRecords(filepath.Join(a.State, "procs"))
	}

	engine, err := policy.New(policy.Options{
		Approval:     o.Config.Approval,
		WarnPatterns: o.Config.TerminalIntegration.WarnPatterns,
		Approve:      o.Approve,
		Grants:       grantStore(a.State, a.StateErr, o.LaunchDir),
		Headless:     o.Headless,
	})
	if err != nil {
		return nil, err
	}
	a.Engine = engine
	a.SetEditsInWorkspace(o.Config.Changes.Edits == config.EditsWorkspace)
	a.Audit = &Audit{now: o.Now, warn: o.Warn}
	if a.StateErr == nil {
		a.Audit.path = filepath.Join(a.State, "audit.jsonl")
	} else {
		a.Audit.off = a.StateErr
	}
	a.closers = append(a.closers, func() { a.Audit.Close() })

	name := o.Config.Terminal.Provider
	if name == "" {
		name = "local"
	}
	h, err := a.Host(name)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Hosts = host.NewActive(h)
	a.Guard = a.newGuard()
	guard := a.Guard
	a.closers = append(a.closers, func() { guard.Close() })
	if line := a.Guard.StartupReport(); line != "" && !o.QuietSandbox {
		o.Warn(line)
	}

	a.Tools = tool.NewRegistry()
	if len(o.Roots) > 0 {
		roots, err := files.NewRoots(o.Roots...)
		if err != nil {
			a.Close()
			return nil, err
		}
		a.Roots = roots
		a.closers = append(a.closers, func() { roots.Close() })
		for _, t := range files.New(files.Options{Roots: roots, Policy: engine, Home: HomeDir(o.Getenv, o.Config.TerminalIntegration.Shell)}) {
			a.Tools.Add(t)
		}
	}
	ti := o.Config.TerminalIntegration
	if !ti.Enabled {
		return a, nil
	}
	var outputs *store.Outputs
	if a.StateErr == nil {
		outputs = store.NewOutputs(a.State, ti.SavedOutputsMax, ti.SavedOutputsMaxBytes)
	}
	a.buildFleet()
	a.Sudo = askpass.New(askpass.Options{Asker: o.AskPassword, Environ: o.Environ, Dirs: []string{o.Getenv("XDG_RUNTIME_DIR")}})
	sudo := a.Sudo
	a.closers = append(a.closers, func() { sudo.Close() })
	run, cd := runcmd.New(runcmd.Options{
		Hosts:     a.Hosts,
		Workdir:   a.Workdir,
		Policy:    engine,
		Confine:   a.Guard,
		Config:    ti,
		Outputs:   outputs,
		Getenv:    o.Getenv,
		Fleet:     a.fleetFunc(),
		Sudo:      a.Sudo,
		Snapshots: a.snapshots(),
		Preview:   a.previewer(),
	})
	a.Tools.Add(run)
	a.Tools.Add(cd)
	a.Sessions = ptysession.New(ptysession.Options{
		Host:        a.Hosts.Get,
		Dir:         a.Workdir.Cwd,
		Persistent:  o.Config.Terminal.Persistent,
		MaxSessions: o.Config.Terminal.MaxSessions,
		Now:         o.Now,
	})
	sessions := a.Sessions
	a.closers = append(a.closers, func() { sessions.CloseAll() })
	for _, t := range terminal.New(terminal.Options{Manager: a.Sessions, Policy: engine, Host: a.Hosts.Get, Confine: a.Guard, Home: HomeDir(o.Getenv, o.Config.TerminalIntegration.Shell)}) {
		a.Tools.Add(t)
	}
	if len(o.Roots) == 0 {
		if err := a.chatFiles(); err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// chatFiles adds the chat's file tools (read_file, write_file,
// edit_file, SPEC §16) over the whole filesystem of the launch directory:
// the policy judges every path, as it judges the commands run_cmd runs.
// They work on this machine's files, so they refuse while commands run
// on a host that has files of its own (ssh, a container).
func (a *App) chatFiles() error {
	top := filepath.VolumeName(a.Launch) + string(filepath.Separator)
	roots, err := files.NewRoots(top)
	if err != nil {
		return err
	}
	a.closers = append(a.closers, func() { roots.Close() })
	here := func() error {
		h := a.Hosts.Get()
		if iso := h.Isolation(); iso != host.IsolationNone && iso != host.IsolationSandbox {
			return fmt.Errorf("the file tools work on this machine's files, and commands run on %s (%s): use run_cmd there", h.Name(), iso)
		}
		return nil
	}
	for _, t := range files.New(files.Options{Roots: roots, Policy: a.Engine, Home: HomeDir(a.opts.Getenv, a.Config.TerminalIntegration.Shell), Here: here}) {
		switch t.Spec().Name {
		case "read_file", "write_file", "edit_file":
			a.Tools.Add(t)
		}
	}
	return nil
}

// SetEditsInWorkspace switches the approval mode of file edits: on,
// edits of files inside the launch directory (its links resolved) are
// applied without asking; off, every change is asked (SPEC §16).
func (a *App) SetEditsInWorkspace(on bool) {
	if !on {
		a.Engine.SetEditsIn("")
		return
	}
	dir := a.Launch
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	a.Engine.SetEditsIn(dir)
}

// EditsInWorkspace reports whether edits inside the launch directory are
// applied without asking.
func (a *App) EditsInWorkspace() bool { return a.Engine.EditsIn() != "" }

// snapshots is the undo snapshot tracker of run_cmd, nil when off.
func (a *App) snapshots() runcmd.Snapshots {
	if !a.opts.Changes || !a.Config.Changes.Snapshots {
		return nil
	}
	skip := []string{os.TempDir()}
	if a.State != "" {
		skip = append(skip, a.State)
	}
	for i, d := range skip {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			skip[i] = real
		}
	}
	return &gitsnap.Tracker{Now: a.opts.Now, Skip: skip}
}

// Grants is the grant store of launchDir: a file in nb's state directory,
// or, with no state directory, one that refuses to save and says why.
func Grants(getenv func(string) string, launchDir string) policy.GrantStore {
	state, err := store.StateDir(getenv)
	return grantStore(state, err, launchDir)
}

func grantStore(state string, stateErr error, launchDir string) policy.GrantStore {
	if stateErr != nil {
		return store.NoGrants{Reason: stateErr}
	}
	return store.ProjectGrants(state, launchDir)
}

// Host returns terminal provider name, building it on first use. Hosts
// stay open until Close, so sessions on them keep running when another
// provider becomes active.
func (a *App) Host(name string) (host.Host, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if h, ok := a.built[name]; ok {
		return h, nil
	}
	spec, err := hosts.Resolve(a.Config.Terminal, name)
	if err != nil {
		return nil, err
	}
	h, err := hosts.New(name, spec, a.hostEnv())
	if err != nil {
		return nil, err
	}
	a.built[name] = h
	a.closers = append(a.closers, func() { h.Close() })
	return h, nil
}

// hostEnv is what every terminal provider is built from.
func (a *App) hostEnv() hosts.Env {
	return hosts.Env{
		LaunchDir:  a.Launch,
		Home:       HomeDir(a.opts.Getenv, a.Config.TerminalIntegration.Shell),
		ConfigDir:  a.configDir(),
		StateDir:   a.State,
		Shell:      a.Config.TerminalIntegration.Shell,
		Environ:    a.opts.Environ,
		EnvPolicy:  EnvPolicy(a.Config),
		Getenv:     a.opts.Getenv,
		AskHostKey: a.opts.AskHostKey,
	}
}

// previewer runs run_cmd's previews (changes.preview, Linux): in a
// sandbox of its own (nb's namespaces, else bubblewrap), built on first
// use, whose writable trees are copy-on-write overlays. A sandbox that cannot be built makes every
// preview fail with the reason, and the command is asked as usual.
func (a *App) previewer() runcmd.Previewer {
	if !a.opts.Changes || !a.Config.Changes.Preview {
		return nil
	}
	var once sync.Once
	var sb *sandbox.Host
	var berr error
	return func(ctx context.Context, c *host.Command, places changes.Places) (*changes.Overlay, *host.Exit, error) {
		once.Do(func() {
			h, err := hosts.New("preview", config.HostSpec{Type: "sandbox"}, a.hostEnv())
			if err != nil {
				berr = fmt.Errorf("%w: %v", changes.ErrNoPreview, err)
				return
			}
			sb = h.(*sandbox.Host)
			a.OnClose(func() { sb.Close() })
		})
		if berr != nil {
			return nil, nil, berr
		}
		return sb.Preview(ctx, c, places)
	}
}

// configDir is nb's configuration directory, "" when there is none.
func (a *App) configDir() string {
	if p := config.DefaultPath(a.opts.Getenv); p != "" {
		return filepath.Dir(p)
	}
	return ""
}

// newGuard builds the guard of terminal.readOnlySandbox: nothing starts
// until a command needs the sandbox.
func (a *App) newGuard() *sandbox.Guard {
	rs := a.Config.Terminal.ReadOnlySandbox
	checks, index := "", ""
	if a.StateErr == nil {
		checks, index = filepath.Join(a.State, "sandbox-checks"), filepath.Join(a.State, "sandbox-index")
	}
	var visible []string
	for _, v := range rs.HomeVisible {
		visible = append(visible, strings.TrimPrefix(v, "~/"))
	}
	return sandbox.NewGuard(sandbox.GuardOptions{
		Off: !rs.Enabled, Approved: rs.Approved, Mechanism: rs.Mechanism,
		LaunchDir: a.Launch, Home: HomeDir(a.opts.Getenv, a.Config.TerminalIntegration.Shell),
		Hidden:      []string{a.configDir(), a.State, a.opts.Getenv("XDG_RUNTIME_DIR")},
		HomeVisible: visible, EnvAllow: rs.Env,
		Env: a.opts.Environ, EnvPolicy: EnvPolicy(a.Config),
		CheckCache: checks, Index: index,
		Warn: a.opts.Warn,
	})
}

// OnClose adds f to what Close ends (in reverse order of adding).
func (a *App) OnClose(f func()) {
	a.mu.Lock()
	a.closers = append(a.closers, f)
	a.mu.Unlock()
}

// Close ends the sessions, closes the hosts and the audit log. It may be
// called more than once.
func (a *App) Close() error {
	a.mu.Lock()
	cs := a.closers
	a.closers = nil
	a.mu.Unlock()
	for i := len(cs) - 1; i >= 0; i-- {
		cs[i]()
	}
	return nil
}

// HomeDir is the user's home directory as the policy sees it for the
// commands of the configured shell: the profile (USERPROFILE) for cmd.exe
// and PowerShell, which expand %USERPROFILE%, $HOME and ~ to it; HOME for
// other shells, or USERPROFILE where HOME is unset (Windows).
func HomeDir(getenv func(string) string, shell string) string {
	if k := (&host.Local{Shell: shell}).ShellKind(); k == sysinfo.ShellCmd || k == sysinfo.ShellPowerShell {
		if p := getenv("USERPROFILE"); p != "" {
			return p
		}
	}
	if h := getenv("HOME"); h != "" {
		return h
	}
	return getenv("USERPROFILE")
}

// EnvPolicy is the environment policy of every host: terminal.env's pass
// and exclude lists, and the key variables of configured providers, which
// are never passed (like nb's standard ones).
func EnvPolicy(c *config.Config) host.EnvPolicy {
	p := host.EnvPolicy{Pass: c.Terminal.Env.Pass, Exclude: c.Terminal.Env.Exclude}
	for _, name := range slices.Sorted(maps.Keys(c.Providers)) {
		if k := c.Providers[name].APIKeyEnv; k != "" {
			p.Always = append(p.Always, k)
		}
	}
	return p
}
