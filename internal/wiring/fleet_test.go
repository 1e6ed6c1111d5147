package wiring

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/tool"
)

func hasHosts(t *testing.T, a *App) bool {
	t.Helper()
	run, ok := a.Tools.Get("run_cmd")
	if !ok {
		t.Fatal("no run_cmd")
	}
	var s struct{ Properties map[string]any }
	if err := json.Unmarshal(run.Spec().Schema, &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties["hosts"] != nil
}

// TestFleetWiring: the inventory of ~/.ssh/config and fleet.inventory
// gives run_cmd its hosts argument and the system prompt its groups; no
// host means no argument; a broken inventory is a warning and an error
// for hosts, not for nb.
func TestFleetWiring(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	env := map[string]string{"HOME": home, "USER": "me", "XDG_STATE_HOME": filepath.Join(home, "state")}
	getenv := func(k string) string { return env[k] }
	build := func(cfg *config.Config) (*App, []string) {
		var warned []string
		a, err := Build(Options{Config: cfg, LaunchDir: t.TempDir(), Getenv: getenv, Warn: func(m string) { warned = append(warned, m) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a, warned
	}
	a, _ := build(config.Default())
	if a.Fleet != nil || hasHosts(t, a) || a.FleetPrompt() != "" {
		t.Errorf("no inventory, yet a fleet")
	}

	os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte("Host bastion\n  HostName 192.0.2.1\nHost *\n  User x\n"), 0o600)
	inv := filepath.Join(home, "inv.ini")
	os.WriteFile(inv, []byte("[web]\nweb-[01:24]\n[db]\ndb-1\ndb-2\n"), 0o600)
	cfg := config.Default()
	cfg.Fleet.Inventory = []string{"~/inv.ini"}
	a, warned := build(cfg)
	if len(warned) != 0 || a.Fleet == nil || !hasHosts(t, a) {
		t.Fatalf("fleet %v, warnings %q", a.Fleet, warned)
	}
	if p := a.FleetPrompt(); !strings.Contains(p, "27 hosts") || !strings.Contains(p, "@web (24)") || !strings.Contains(p, "@db (2)") || strings.Contains(p, "web-07") {
		t.Errorf("prompt section:\n%s", p)
	}

	cfg.Fleet.Inventory = []string{filepath.Join(home, "missing.yml")}
	a, warned = build(cfg)
	if a.Fleet != nil || a.FleetErr == nil || len(warned) != 1 || !strings.Contains(warned[0], "missing.yml") {
		t.Fatalf("broken inventory: fleet %v err %v warnings %q", a.Fleet, a.FleetErr, warned)
	}
	run, _ := a.Tools.Get("run_cmd")
	if _, err := run.Review(t.Context(), &tool.Call{Name: "run_cmd", Args: json.RawMessage(`{"command":"uptime","hosts":"@web"}`)}, tool.At{Cwd: a.Workdir.Cwd()}); err == nil || !strings.Contains(err.Error(), "missing.yml") {
		t.Errorf("hosts with a broken inventory: %v", err)
	}
}
