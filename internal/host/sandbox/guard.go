package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox/enter"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// GuardOptions configures a Guard.
type GuardOptions struct {
	// Off turns the guard off: every command runs where it was decided.
	Off bool
	// Approved also sandboxes what the user allowed: commands approved
	// when asked, Always and session grants, --approve and allow rules.
	Approved bool
	// Mechanism is auto (default), bwrap or landlock.
	Mechanism string
	// LaunchDir, Home, Hidden, HomeVisible, EnvAllow, Env, EnvPolicy,
	// Self, Bwrap, CheckCache and Index are as in Options.
	LaunchDir, Home string
	Hidden          []string
	HomeVisible     []string
	EnvAllow        []string
	Env             []string
	EnvPolicy       host.EnvPolicy
	Self, Bwrap     string
	CheckCache      string
	Index           string
	// Warn tells the user, once, that the sandbox failed when it was
	// first needed (what runs then runs as decided, unsandboxed).
	Warn func(msg string)
}

// Guard puts what nb allowed on its own judgement into the read-only
// sandbox (readonly.go) of the host it was decided for. Confine is the one
// place where a decision chooses where its command runs; tools call it
// at review, so the invocation runs exactly where it was decided.
type Guard struct {
	o GuardOptions
	// mech is the mechanism a cheap check at start expects to work,
	// unavailable why none does.
	mech        string
	unavailable error

	mu      sync.Mutex
	built   map[host.Host]*Host
	failed  error // the first failure to build a sandbox
	warned  bool
	closing bool
}

// NewGuard returns a guard; nothing is started: the sandbox of a host is
// built when a command first needs it. Whether one can be is checked
// cheaply here (Status).
func NewGuard(o GuardOptions) *Guard {
	g := &Guard{o: o, built: map[host.Host]*Host{}}
	if !o.Off {
		g.mech, g.unavailable = probe(o.Mechanism, o.Bwrap)
	}
	return g
}

// probe says which mechanism should work here, without starting any.
func probe(mech, bwrap string) (string, error) {
	if mech == "" {
		mech = MechanismAuto
	}
	switch runtime.GOOS {
	case "linux":
	case "darwin":
		if _, err := os.Stat(seatbeltExec); err != nil {
			return "", fmt.Errorf("%s is missing", seatbeltExec)
		}
		return MechanismSeatbelt, nil
	case "windows":
		return "", errors.New("no sandbox nb can use on Windows: only the policy stands")
	default:
		return "", fmt.Errorf("no sandbox on %s", runtime.GOOS)
	}
	var reasons []string
	if mech == MechanismAuto || mech == MechanismNamespaces {
		if err := enter.UserNamespaces(); err == nil {
			return MechanismNamespaces, nil
		} else {
			reasons = append(reasons, err.Error())
		}
	}
	if mech == MechanismAuto || mech == MechanismBwrap {
		if bwrap == "" {
			bwrap = "bwrap"
		}
		if _, err := exec.LookPath(bwrap); err == nil {
			return MechanismBwrap, nil
		}
		reasons = append(reasons, "bubblewrap is not installed")
	}
	if mech == MechanismAuto || mech == MechanismLandlock {
		if err := enter.LandlockCheck(false); err == nil {
			return MechanismLandlock, nil
		} else {
			reasons = append(reasons, err.Error())
		}
	}
	return "", errors.New(strings.Join(reasons, "; "))
}

// Status says what the guard does here, in one line for the start-up
// report and /terminal, and whether commands are sandboxed.
func (g *Guard) Status() (sandboxed bool, line string) {
	if g == nil || g.o.Off {
		return false, "what nb allows by itself runs unsandboxed (terminal.readOnlySandbox.enabled is false)"
	}
	g.mu.Lock()
	failed, mech := g.failed, g.mech
	for _, s := range g.built {
		mech = s.Mechanism()
	}
	g.mu.Unlock()
	return g.status(failed, mech)
}

func (g *Guard) status(failed error, mech string) (bool, string) {
	who := "what nb allows by itself"
	if g.o.Approved {
		who = "every command run on this machine"
	}
	switch {
	case g.unavailable != nil:
		return false, fmt.Sprintf("no sandbox here (%v): %s runs unsandboxed, judged by the policy alone", g.unavailable, who)
	case failed != nil:
		return false, fmt.Sprintf("the sandbox failed (%v): %s runs unsandboxed, judged by the policy alone", failed, who)
	}
	return true, fmt.Sprintf("%s runs in a read-only sandbox (%s): no writes but a private /tmp, no network, no unix sockets, home's dot-files and the secret-file list hidden", who, mech)
}

// StartupReport is the line to tell when nb starts: why no sandbox works
// here, or "" when one does, when the guard is off, and on Windows, which
// has none (the README says so; /terminal too).
func (g *Guard) StartupReport() string {
	if g == nil || g.o.Off || g.unavailable == nil || runtime.GOOS == "windows" {
		return ""
	}
	_, line := g.Status()
	return line
}

// Confine returns the host an invocation decided as d runs on: the
// read-only sandbox over h when d allowed it on nb's own judgement (the
// safe list), or, with Approved, for any command allowed or asked; h
// itself otherwise, and whenever h is not this machine unsandboxed (a
// sandbox, a container or another machine already), the guard is off or
// no sandbox works here.
func (g *Guard) Confine(d *policy.Decision, h host.Host) host.Host {
	if g == nil || g.o.Off || g.unavailable != nil || d == nil || h == nil || h.Isolation() != host.IsolationNone {
		return h
	}
	switch {
	case d.Decision == policy.Allow && d.DecidedBy == policy.BySafeList:
	case g.o.Approved && (d.Decision == policy.Allow || d.Decision == policy.Ask):
	default:
		return h
	}
	return &confined{g: g, h: h}
}

// confined is the read-only sandbox over h, bound at review and built
// when the command first runs (a review alone, `nb policy check`, or a
// question the user declines, starts nothing). When it cannot be built
// (told once), the command runs on h, as decided.
type confined struct {
	g *Guard
	h host.Host
}

func (c *confined) Name() string { return c.h.Name() + "+sandbox" }

func (c *confined) Isolation() host.Isolation { return host.IsolationSandbox }

// on is the host the command runs on.
func (c *confined) on() host.Host {
	if s := c.g.sandboxOf(c.h); s != nil {
		return s
	}
	return c.h
}

func (c *confined) Run(ctx context.Context, cmd *host.Command) (*host.Exit, error) {
	return c.on().Run(ctx, cmd)
}

func (c *confined) StartPTY(ctx context.Context, cmd *host.PTYCommand) (host.Terminal, error) {
	return c.on().StartPTY(ctx, cmd)
}

func (c *confined) Probe(ctx context.Context, detect []string) (*sysinfo.Info, error) {
	return c.h.Probe(ctx, detect)
}

// Close leaves the sandbox to the guard and the host to its owner.
func (c *confined) Close() error { return nil }

// Unsandboxed is the host under the sandbox, for a re-run the user
// approved after a refusal; its Close leaves it open.
func (c *confined) Unsandboxed() host.Host { return keepOpen{c.h} }

// Origin is the host under the sandbox when the sandbox runs the command,
// nil when it could not be built (the command then ran on that host).
func (c *confined) Origin() host.Host {
	if c.g.sandboxOf(c.h) == nil {
		return nil
	}
	return c.h
}

// sandboxOf returns the read-only sandbox over h, built on first use, or
// nil when it cannot be built (told once).
func (g *Guard) sandboxOf(h host.Host) *Host {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s, ok := g.built[h]; ok {
		return s
	}
	if g.failed != nil || g.closing {
		return nil
	}
	shell := ""
	if sp, ok := h.(interface{ ShellPath() (string, error) }); ok {
		if p, err := sp.ShellPath(); err == nil {
			shell = p
		}
	}
	s, err := New(Options{
		Name: h.Name() + "+sandbox", Mechanism: g.o.Mechanism, ReadOnly: true,
		LaunchDir: g.o.LaunchDir, Home: g.o.Home, Hidden: g.o.Hidden,
		HomeVisible: g.o.HomeVisible, EnvAllow: g.o.EnvAllow,
		Shell: shell, Env: g.o.Env, EnvPolicy: g.o.EnvPolicy,
		Self: g.o.Self, Bwrap: g.o.Bwrap, CheckCache: g.o.CheckCache, Index: g.o.Index, Outside: h,
	})
	if err != nil {
		g.failed = err
		if !g.warned && g.o.Warn != nil {
			g.warned = true
			_, line := g.status(err, g.mech)
			g.o.Warn(line)
		}
		return nil
	}
	g.built[h] = s
	return s
}

// Close closes the sandboxes the guard built (not the hosts under them).
func (g *Guard) Close() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	g.closing = true
	built := g.built
	g.built = map[host.Host]*Host{}
	g.mu.Unlock()
	for _, s := range built {
		_ = s.Close()
	}
	return nil
}

// Origin is the host the guard sandboxes this one over (nil for a
// sandbox the user chose as provider): input typed into a session started
// here is judged as on that host.
func (h *Host) Origin() host.Host { return h.outside }
