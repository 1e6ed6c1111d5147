package wiring

import (
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/fleet"
	"github.com/nb-cli/nb/internal/sandwich"
)

// buildFleet reads the inventory (the OpenSSH client configuration and
// fleet.inventory: files only, nothing dials) and makes the session's
// fleet. There is none when the inventory names no host and none was
// configured; an inventory that cannot be read is kept as FleetErr, so
// run_cmd's hosts says why and the rest of nb works.
func (a *App) buildFleet() {
	o, cfg := a.opts, a.Config.Fleet
	home := o.Getenv("HOME")
	if !filepath.IsAbs(home) {
		home = "" // a relative HOME would read files the project ships
	}
	local := o.Getenv("USER")
	if local == "" {
		if u, err := user.Current(); err == nil {
			local = u.Username
		}
	}
	sshCfg := cfg.SSHConfig
	switch {
	case sshCfg == "none":
		sshCfg = ""
	case sshCfg == "" && home != "":
		sshCfg = filepath.Join(home, ".ssh", "config")
	default:
		sshCfg = expandHome(sshCfg, home)
	}
	system := "/etc/ssh/ssh_config"
	if cfg.SSHConfig == "none" {
		system = ""
	}
	var inventories []string
	for _, p := range cfg.Inventory {
		inventories = append(inventories, expandHome(p, home))
	}
	inv, err := fleet.Load(fleet.Sources{
		SSH:     fleet.SSHConfigFiles{User: sshCfg, System: system, Home: home, LocalUser: local},
		Ansible: inventories,
	})
	if err != nil {
		a.FleetErr = err
		o.Warn(err.Error() + "; run_cmd's hosts is unavailable")
		return
	}
	if inv.Len() == 0 && len(inventories) == 0 {
		return
	}
	root := ""
	if a.StateErr == nil {
		root = filepath.Join(a.State, "fleet")
	}
	ti := a.Config.TerminalIntegration
	a.Fleet = fleet.New(inv, fleet.Options{
		Concurrency:    cfg.Concurrency,
		ConnectTimeout: time.Duration(cfg.ConnectTimeout * float64(time.Second)),
		Home:           home,
		AgentSocket:    o.Getenv("SSH_AUTH_SOCK"),
		OutputRoot:     root,
		EnvPolicy:      EnvPolicy(a.Config),
		Limits: sandwich.Limits{
			ThresholdBytes: ti.OutputThresholdBytes, ThresholdLines: ti.OutputThresholdLines,
			HeadLines: ti.SandwichHeadLines, TailLines: ti.SandwichTailLines, MaxLineBytes: ti.MaxLineBytes,
		},
	})
	f := a.Fleet
	a.closers = append(a.closers, func() { f.Close() })
}

// fleetFunc is run_cmd's view of the fleet; nil offers no hosts argument.
func (a *App) fleetFunc() func() (*fleet.Fleet, error) {
	switch {
	case a.Fleet != nil:
		f := a.Fleet
		return func() (*fleet.Fleet, error) { return f, nil }
	case a.FleetErr != nil:
		err := a.FleetErr
		return func() (*fleet.Fleet, error) { return nil, err }
	}
	return nil
}

// FleetPrompt is the system-prompt section about the fleet: the host
// count and the groups with their sizes ("" without a fleet).
func (a *App) FleetPrompt() string {
	if a.Fleet == nil {
		return ""
	}
	return a.Fleet.Inventory().PromptSection()
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") && home != "" {
		return filepath.Join(home, p[2:])
	}
	return p
}
