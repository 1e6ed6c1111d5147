package runcmd

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fleet"
	"github.com/nb-cli/nb/internal/fleet/fleettest"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

func fleetTool(t *testing.T, headless bool) (tool.Tool, *tool.Workdir, *fleettest.Fleet) {
	t.Helper()
	ft := fleettest.Start(t, 4)
	inv, err := fleet.Load(fleet.Sources{SSH: fleet.SSHConfigFiles{User: ft.Config, Home: ft.Home, LocalUser: ft.Server.User}})
	if err != nil {
		t.Fatal(err)
	}
	f := fleet.New(inv, fleet.Options{Home: ft.Home, OutputRoot: t.TempDir(), ConnectTimeout: 5 * time.Second})
	t.Cleanup(func() { f.Close() })
	wd := tool.NewWorkdir(t.TempDir())
	local := &host.Local{}
	t.Cleanup(func() { local.Close() })
	run, _ := New(Options{
		Hosts: host.NewActive(local), Workdir: wd, Config: config.Default().TerminalIntegration,
		Policy: tooltest.Engine(t, func(o *policy.Options) { o.Headless = headless }),
		Getenv: func(k string) string {
			if k == "HOME" {
				return ft.Home
			}
			return os.Getenv(k)
		},
		Fleet: func() (*fleet.Fleet, error) { return f, nil },
	})
	return run, wd, ft
}

func TestRunCmdHosts(t *testing.T) {
	run, wd, _ := fleetTool(t, true)
	var schema struct {
		Properties map[string]json.RawMessage
	}
	if err := json.Unmarshal(run.Spec().Schema, &schema); err != nil || schema.Properties["hosts"] == nil {
		t.Fatalf("schema without hosts: %s", run.Spec().Schema)
	}
	var mu sync.Mutex
	var live strings.Builder
	c := &tool.Call{Name: "run_cmd", Args: json.RawMessage(`{"command":"cd /tmp && uname -s","hosts":"web-0*"}`), Live: func(_ string, b []byte) {
		mu.Lock()
		live.Write(b)
		mu.Unlock()
	}}
	before := wd.Cwd()
	inv, err := run.Review(ctx(t), c, tool.At{Cwd: before})
	if err != nil {
		t.Fatal(err)
	}
	if d := inv.Decision; d.Decision != policy.Allow || d.Display != "run on 4 hosts (web-0*): cd /tmp && uname -s" {
		t.Fatalf("decision %s %q", d.Decision, d.Display)
	}
	if inv.CwdAfter != before {
		t.Errorf("a fleet command moves the session to %q", inv.CwdAfter)
	}
	res, err := inv.Run(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var out fleet.Result
	if err := json.Unmarshal([]byte(res.Content), &out); err != nil {
		t.Fatalf("%v: %s", err, res.Content)
	}
	if out.Summary.Total != 4 || out.Summary.OK != 4 || len(out.Groups) != 1 || out.Groups[0].Stdout != "Linux\n" || out.OutputDir == "" {
		t.Errorf("result %s", res.Content)
	}
	if *res.ExitCode != 0 || res.Note != "4 ok · 1 distinct output" || !strings.Contains(res.Details, "web-01, web-02, web-03, web-04 (exit 0)") {
		t.Errorf("exit %d note %q details %q", *res.ExitCode, res.Note, res.Details)
	}
	if len(res.Hosts) != 4 || res.Hosts[2].Host != "web-03" || res.Hosts[2].Status != "ok" || *res.Hosts[2].ExitCode != 0 {
		t.Errorf("per-host outcomes %+v", res.Hosts)
	}
	if wd.Cwd() != before {
		t.Errorf("session moved to %s", wd.Cwd())
	}
	mu.Lock()
	if !strings.Contains(live.String(), "4/4 done") {
		t.Errorf("live progress %q", live.String())
	}
	mu.Unlock()

	// Headless, a command that must be asked is refused for every host,
	// before anything runs.
	inv, err = run.Review(ctx(t), &tool.Call{Name: "run_cmd", Args: json.RawMessage(`{"command":"touch /tmp/nb-fleet-x","hosts":"@all"}`)}, tool.At{Cwd: before})
	if err != nil {
		t.Fatal(err)
	}
	if d := inv.Decision; d.Decision != policy.Deny || !strings.HasPrefix(d.Display, "run on 4 hosts (@all)") {
		t.Errorf("decision %s %q", d.Decision, d.Display)
	}

	// The login directory is the remote home: a relative path to a secret
	// there is a secret.
	for _, cmd := range []string{"cat .ssh/id_ed25519", "cat ~/.ssh/id_ed25519", "cat .aws/credentials"} {
		args, _ := json.Marshal(map[string]string{"command": cmd, "hosts": "@all"})
		inv, err = run.Review(ctx(t), &tool.Call{Name: "run_cmd", Args: args}, tool.At{Cwd: before})
		if err != nil {
			t.Fatal(err)
		}
		if d := inv.Decision; d.Decision == policy.Allow {
			t.Errorf("%s on a fleet is allowed: %+v", cmd, d)
		}
	}

	inv, err = run.Review(ctx(t), &tool.Call{Name: "run_cmd", Args: json.RawMessage(`{"command":"uptime","hosts":["web-01","web-03"]}`)}, tool.At{Cwd: before})
	if err != nil || inv.Decision.Display != "run on 2 hosts (web-01,web-03): uptime" {
		t.Errorf("hosts as a list: %v %+v", err, inv)
	}

	for args, want := range map[string]string{
		`{"command":"uptime","hosts":{"a":1}}`:            "hosts must be a string",
		`{"command":"uptime","hosts":"db-*"}`:             "hosts: the selection matches no host",
		`{"command":"uptime","hosts":"web-1"}`:            `no host "web-1"`,
		`{"command":"uptime","hosts":"@web"}`:             `no group "web"`,
		`{"command":"uptime","hosts":"web-01","cwd":"x"}`: "cwd must be an absolute path",
	} {
		if _, err := run.Review(ctx(t), &tool.Call{Name: "run_cmd", Args: json.RawMessage(args)}, tool.At{Cwd: before}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

func TestRunCmdWithoutFleetHasNoHosts(t *testing.T) {
	e := setup(t, nil)
	if strings.Contains(string(e.run.Spec().Schema), "hosts") {
		t.Errorf("hosts offered without a fleet: %s", e.run.Spec().Schema)
	}
	res := call(t, e, e.run, map[string]any{"command": "true", "hosts": "web-01"})
	if !res.IsError || !strings.Contains(res.Content, "no fleet inventory") {
		t.Errorf("%+v", res)
	}
}
