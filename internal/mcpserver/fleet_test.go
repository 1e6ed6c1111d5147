package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fleet/fleettest"
)

// TestFleetOverMCP: nb mcp serve offers run_cmd's hosts with the user's
// inventory, decides the command once under the same policy and answers
// with the per-host result.
func TestFleetOverMCP(t *testing.T) {
	ft := fleettest.Start(t, 3)
	dir := t.TempDir()
	env := map[string]string{"HOME": ft.Home, "XDG_STATE_HOME": filepath.Join(dir, "state")}
	srv, err := Build(context.Background(), BuildOptions{Config: config.Default(), LaunchDir: dir, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv}
	cs := h.connect(t, nil, "")
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "3 hosts in the inventory") {
		t.Errorf("instructions: %q", ins)
	}
	out, isErr := callText(t, cs, "run_cmd", map[string]any{"command": "echo ${SSH_CONNECTION##* } | wc -c", "hosts": "web-*"})
	var r struct {
		Summary struct{ Total, OK int }
		Groups  []struct {
			Hosts  []string
			Stdout string
		}
		OutputDir string
	}
	if isErr || json.Unmarshal([]byte(out), &r) != nil || r.Summary.Total != 3 || r.Summary.OK != 3 || len(r.Groups) != 1 || len(r.Groups[0].Hosts) != 3 || r.OutputDir == "" {
		t.Fatalf("run_cmd with hosts: %s", out)
	}
	// Without elicitation, what must be asked is refused for all hosts.
	out, isErr = callText(t, cs, "run_cmd", map[string]any{"command": "touch /tmp/nb-mcp-fleet", "hosts": "@all"})
	if !isErr || !strings.Contains(out, "run on 3 hosts (@all): touch /tmp/nb-mcp-fleet") {
		t.Fatalf("unapproved fleet command: %s", out)
	}
}
