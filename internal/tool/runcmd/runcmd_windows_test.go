package runcmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
	"github.com/nb-cli/nb/internal/wintest"
)

// run_cmd through cmd.exe: asked (never auto-allowed), the script intact,
// CRLF output cut by the sandwich with the full output saved, the session
// directory following cd.
func TestWinRunCmdThroughCmdExe(t *testing.T) {
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	local := &host.Local{Shell: filepath.Join(sys, "cmd.exe"), RuntimeDir: wintest.TempDir(t)}
	t.Cleanup(func() { local.Close() })
	dir := wintest.TempDir(t)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default().TerminalIntegration
	wd := tool.NewWorkdir(dir)
	run, _ := New(Options{Hosts: host.NewActive(local), Workdir: wd, Policy: tooltest.Engine(t, nil), Config: cfg,
		Outputs: store.NewOutputs(wintest.TempDir(t), 0, 0), Getenv: os.Getenv})

	do := func(command string) (*policy.Decision, result) {
		t.Helper()
		raw, _ := json.Marshal(map[string]any{"command": command})
		inv, err := run.Review(context.Background(), &tool.Call{Name: "run_cmd", Args: raw}, tool.At{Cwd: wd.Cwd()})
		if err != nil {
			t.Fatal(err)
		}
		res, err := inv.Run(context.Background())
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", command, err, res)
		}
		var r result
		if err := json.Unmarshal([]byte(res.Content), &r); err != nil {
			t.Fatalf("result %s: %v", res.Content, err)
		}
		return inv.Decision, r
	}

	// read-only cmd.exe commands are allowed, as bash ones are
	d, r := do(`echo "a & b"& cd sub`)
	if d.Decision != policy.Allow || d.DecidedBy != policy.BySafeList {
		t.Errorf("cmd.exe command decided %s by %s, want allow by the safe list", d.Decision, d.DecidedBy)
	}
	if r.ExitCode != 0 || !strings.Contains(r.Stdout, `"a & b"`) || !strings.EqualFold(r.Cwd, filepath.Join(dir, "sub")) {
		t.Errorf("result %+v", r)
	}
	if !strings.EqualFold(wd.Cwd(), filepath.Join(dir, "sub")) {
		t.Errorf("session cwd %s did not follow cd", wd.Cwd())
	}

	_, r = do(`for /l %i in (1,1,3000) do @echo line %i`)
	if !strings.Contains(r.Stdout, "line 1\r\n") && !strings.Contains(r.Stdout, "line 1\n") {
		t.Errorf("head of the cut output: %q", r.Stdout[:min(len(r.Stdout), 200)])
	}
	if !strings.Contains(r.Stdout, "line 3000") || r.OutputFile == "" {
		t.Fatalf("long output not cut and saved: %d bytes, saved %q", len(r.Stdout), r.OutputFile)
	}
	full, err := os.ReadFile(r.OutputFile)
	if err != nil || !strings.Contains(string(full), "line 1500\r\n") {
		t.Errorf("saved output %s: %v (%d bytes)", r.OutputFile, err, len(full))
	}
}
