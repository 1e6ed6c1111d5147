// Package hosts builds terminal providers (host.Host values) from
// configuration: local, sandbox, container and ssh, by name from
// terminal.providers, with "local" and "sandbox" available without
// configuration. It also lists them for the /terminal command.
package hosts

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/container"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/host/ssh"
)

// Env is what the factory needs from the running nb.
type Env struct {
	// LaunchDir is the workspace (writable in the sandbox, mounted in
	// containers).
	LaunchDir string
	// Home is the user's home directory.
	Home string
	// ConfigDir and StateDir are nb's own directories, hidden from
	// sandboxed commands.
	ConfigDir, StateDir string
	// Shell is terminalIntegration.shell ("auto" or a path), used when the
	// provider does not set its own.
	Shell string
	// Environ is the base environment of local processes (os.Environ()).
	Environ []string
	// EnvPolicy says which variables commands see, on every host.
	EnvPolicy host.EnvPolicy
	// Getenv reads nb's environment (SSH_AUTH_SOCK, USER).
	Getenv func(string) string
	// Self is nb's executable, re-executed as the Landlock helper
	// ("" means os.Executable()).
	Self string
	// AskHostKey asks the user about an unknown ssh host key; nil refuses
	// unknown keys (headless).
	AskHostKey ssh.AskHostKeyFunc
}

// builtin are providers that exist without configuration.
var builtin = map[string]config.HostSpec{
	"local":   {Type: "local"},
	"sandbox": {Type: "sandbox"},
}

// Resolve finds the spec of provider name: a terminal.providers entry, else
// a built-in.
func Resolve(t config.Terminal, name string) (config.HostSpec, error) {
	if s, ok := t.Providers[name]; ok {
		return s, nil
	}
	if s, ok := builtin[name]; ok {
		return s, nil
	}
	return config.HostSpec{}, fmt.Errorf("unknown terminal provider %q (have: %s)", name, strings.Join(Names(t), ", "))
}

// Names lists the provider names, sorted.
func Names(t config.Terminal) []string {
	seen := map[string]bool{}
	var out []string
	for n := range t.Providers {
		seen[n] = true
		out = append(out, n)
	}
	for n := range builtin {
		if !seen[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// IsolationOf is the isolation a provider type gives.
func IsolationOf(typ string) host.Isolation {
	switch typ {
	case "sandbox":
		return host.IsolationSandbox
	case "container":
		return host.IsolationContainer
	case "ssh":
		return host.IsolationRemote
	}
	return host.IsolationNone
}

// Info describes one provider for /terminal list.
type Info struct {
	Name      string
	Type      string
	Isolation host.Isolation
	// Detail is where commands run: "this machine", "user@host:22",
	// "image alpine", ...
	Detail string
	Active bool
}

// List describes every provider; active names the current one.
func List(t config.Terminal, active string) []Info {
	var out []Info
	for _, n := range Names(t) {
		s, _ := Resolve(t, n)
		out = append(out, Info{Name: n, Type: s.Type, Isolation: IsolationOf(s.Type), Detail: detail(s), Active: n == active})
	}
	return out
}

func detail(s config.HostSpec) string {
	switch s.Type {
	case "local":
		return "this machine, no isolation"
	case "sandbox":
		d := "this machine, sandboxed"
		if s.Mechanism != "" && s.Mechanism != "auto" {
			d += " (" + s.Mechanism + ")"
		}
		if s.AllowNetwork {
			d += ", network on"
		} else {
			d += ", network off"
		}
		return d
	case "container":
		if s.Container != "" {
			return "container " + s.Container
		}
		return "image " + s.Image
	case "ssh":
		d := s.Host
		if s.User != "" {
			d = s.User + "@" + d
		}
		if s.Port != 0 {
			d += fmt.Sprintf(":%d", s.Port)
		}
		return d
	}
	return ""
}

// Describer is implemented by hosts that can say more about themselves.
type Describer interface{ Describe() string }

// Describe is a one-line description of a built host.
func Describe(h host.Host) string {
	if d, ok := h.(Describer); ok {
		return d.Describe()
	}
	if a, ok := h.(interface{ Address() string }); ok {
		return "ssh " + a.Address()
	}
	return fmt.Sprintf("%s (isolation %s)", h.Name(), h.Isolation())
}

// New builds provider name from its spec. Nothing is dialled or started:
// ssh connects and the container engine is checked on first use; a
// sandbox fails here when no mechanism works (never falling back to none).
func New(name string, spec config.HostSpec, env Env) (host.Host, error) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	shell := spec.Shell
	if shell == "" && env.Shell != "auto" {
		shell = env.Shell
	}
	switch spec.Type {
	case "local", "":
		l := &host.Local{Shell: shell, Env: env.Environ, EnvPolicy: env.EnvPolicy}
		if name == "local" {
			return l, nil
		}
		return &named{Local: l, name: name}, nil
	case "sandbox":
		hidden := append([]string{}, spec.HiddenPaths...)
		hidden = append(hidden, env.ConfigDir, env.StateDir, getenv("XDG_RUNTIME_DIR"))
		quarantine, checks := "", ""
		if env.StateDir != "" {
			quarantine, checks = filepath.Join(env.StateDir, "quarantine"), filepath.Join(env.StateDir, "sandbox-checks")
		}
		h, err := sandbox.New(sandbox.Options{
			Quarantine: quarantine, CheckCache: checks,
			Name: name, Mechanism: spec.Mechanism, LaunchDir: env.LaunchDir, Home: env.Home,
			Writable: spec.WritablePaths, Hidden: hidden, AllowNetwork: spec.AllowNetwork,
			Shell: shell, Env: env.Environ, EnvPolicy: env.EnvPolicy, Self: env.Self,
		})
		if err != nil {
			return nil, err
		}
		return h, nil
	case "container":
		h, err := container.New(container.Options{
			Name: name, Docker: spec.Docker, Container: spec.Container, Image: spec.Image,
			LaunchDir: env.LaunchDir, Shell: spec.Shell, Env: env.Environ, EnvPolicy: env.EnvPolicy,
		})
		if err != nil {
			return nil, err
		}
		return h, nil
	case "ssh":
		h, err := ssh.New(ssh.Options{
			Name: name, Host: spec.Host, User: spec.User, Port: spec.Port,
			IdentityFile: spec.IdentityFile, KnownHosts: spec.KnownHosts, Shell: spec.Shell,
			Home: env.Home, LocalUser: getenv("USER"), AgentSocket: getenv("SSH_AUTH_SOCK"),
			AskHostKey: env.AskHostKey, EnvPolicy: env.EnvPolicy,
		})
		if err != nil {
			return nil, err
		}
		return h, nil
	}
	return nil, fmt.Errorf("terminal provider %q: unknown type %q (local, sandbox, container or ssh)", name, spec.Type)
}

// named gives a local host its configured name.
type named struct {
	*host.Local
	name string
}

func (n *named) Name() string { return n.name }

// Describe implements Describer.
func (n *named) Describe() string { return "local: this machine, no isolation" }
