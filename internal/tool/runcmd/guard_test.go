package runcmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// What the safe list allows runs in the read-only sandbox, decided at
// review: a hidden file read is refused there, the result says what the
// sandbox refused in one line, and the re-run outside is an asked action
// that reaches the file. The same command allowed by the user's rule runs
// unsandboxed.
func TestSafeListRunsInReadOnlySandbox(t *testing.T) {
	testenv.Tool(t, "bwrap")
	root, err := os.MkdirTemp("/var/tmp", "nb-runcmd-guard-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{ws, filepath.Join(home, ".myapp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".myapp", "settings"), []byte("dotfile-content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	environ := append(os.Environ(), "HOME="+home)
	guard := sandbox.NewGuard(sandbox.GuardOptions{Mechanism: sandbox.MechanismBwrap, LaunchDir: ws, Home: home, Env: environ})
	t.Cleanup(func() { guard.Close() })
	local := &host.Local{Env: environ}
	t.Cleanup(func() { local.Close() })
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return os.Getenv(k)
	}
	newEnv := func(mod func(*policy.Options)) *env {
		cfg := config.Default().TerminalIntegration
		e := &env{wd: tool.NewWorkdir(ws), home: home, cfg: cfg, outputs: store.NewOutputs(t.TempDir(), cfg.SavedOutputsMax, cfg.SavedOutputsMaxBytes)}
		e.run, e.cd = New(Options{Hosts: host.NewActive(local), Workdir: e.wd, Policy: tooltest.Engine(t, mod), Confine: guard, Config: cfg, Outputs: e.outputs, Getenv: getenv})
		return e
	}
	args := json.RawMessage(`{"command":"cat ~/.myapp/settings"}`)

	e := newEnv(nil)
	inv, err := e.run.Review(ctx(t), &tool.Call{Args: args}, tool.At{Cwd: ws})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Decision.Decision != policy.Allow || inv.Decision.DecidedBy != policy.BySafeList {
		t.Fatalf("the test needs a read the safe list allows: %+v", inv.Decision)
	}
	res, err := inv.Run(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal([]byte(res.Content), &r); err != nil {
		t.Fatal(err)
	}
	want := "the sandbox refused reading " + filepath.Join(home, ".myapp", "settings") + " (hidden in the sandbox)"
	if strings.Contains(res.Content, "dotfile-content") || !r.SandboxDenied || !strings.HasPrefix(r.Note, want) || !strings.Contains(res.Note, "the sandbox refused reading") {
		t.Fatalf("sandboxed read: %s (transcript %q)", res.Content, res.Note)
	}
	if res.Retry == nil || res.Retry.Decision.Decision != policy.Ask || !res.Retry.Decision.Warn {
		t.Fatalf("the re-run outside is not an asked action: %+v", res.Retry)
	}
	again, err := res.Retry.Run(context.Background())
	if err != nil || !strings.Contains(again.Content, "dotfile-content") {
		t.Fatalf("re-run outside: %v %s", err, again.Content)
	}

	// Allowed by the user's rule: as before, unsandboxed.
	e = newEnv(func(o *policy.Options) { o.Approve = []string{"cat *"} })
	inv, err = e.run.Review(ctx(t), &tool.Call{Args: args}, tool.At{Cwd: ws})
	if err != nil {
		t.Fatal(err)
	}
	if inv.Decision.DecidedBy != policy.ByFlag {
		t.Fatalf("decided by %s", inv.Decision.DecidedBy)
	}
	res, err = inv.Run(ctx(t))
	if err != nil || !strings.Contains(res.Content, "dotfile-content") || strings.Contains(res.Content, "sandboxDenied") {
		t.Fatalf("the user's rule: %v %s", err, res.Content)
	}
}
