package runcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// What the sandbox did after a command (an .envrc the command created,
// moved to the quarantine) reaches the model's result and the transcript.
func TestRunCmdTellsSandboxQuarantine(t *testing.T) {
	testenv.Tool(t, "bwrap")
	root, err := os.MkdirTemp("/var/tmp", "nb-runcmd-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	ws := filepath.Join(root, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	sb, err := sandbox.New(sandbox.Options{Mechanism: sandbox.MechanismBwrap, LaunchDir: ws, Home: filepath.Join(root, "home"), Quarantine: filepath.Join(root, "q")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	cfg := config.Default().TerminalIntegration
	e := &env{wd: tool.NewWorkdir(ws), home: root, cfg: cfg, outputs: store.NewOutputs(t.TempDir(), cfg.SavedOutputsMax, cfg.SavedOutputsMaxBytes)}
	e.run, e.cd = New(Options{Hosts: host.NewActive(sb), Workdir: e.wd, Policy: tooltest.Engine(t, nil), Config: cfg, Outputs: e.outputs, Getenv: os.Getenv})
	r, res := runJSON(t, e, map[string]any{"command": "echo 'touch x' > .envrc; echo ok > notes.txt"})
	want := "nb removed .envrc created inside the sandbox (it would run outside it); kept at " + filepath.Join(root, "q")
	if !strings.Contains(r.Note, want) || !strings.Contains(res.Note, want) {
		t.Fatalf("note %q, transcript %q", r.Note, res.Note)
	}
	if _, err := os.Lstat(filepath.Join(ws, ".envrc")); err == nil {
		t.Error(".envrc is still in the workspace")
	}
	if _, err := os.Stat(filepath.Join(ws, "notes.txt")); err != nil {
		t.Error("an ordinary file was removed")
	}
}
