package wiring

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// listFiles lists every file below dir.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// With HOME unset or empty, or relative, and XDG_STATE_HOME relative, nb
// has no state directory: grants planted by the project where a relative
// state directory would point are not loaded, grants are refused with the
// reason, and nothing nb keeps lands in the project.
func TestNoStateDirKeepsNothingInProject(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{"HOME": ""},
		{"HOME": "", "XDG_STATE_HOME": ".local/state", "XDG_CONFIG_HOME": ".config"},
		{"HOME": "home", "XDG_STATE_HOME": "state"},
	} {
		proj := t.TempDir()
		t.Chdir(proj)
		// What a cloned repository could ship for each relative layout.
		for _, state := range []string{".local/state/nb", "state/nb", "home/.local/state/nb"} {
			g := store.ProjectGrants(state, proj)
			if err := g.Save([]string{"python3 *"}); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(filepath.Join(proj, ".config", "nb"), 0o755)
		os.WriteFile(filepath.Join(proj, ".config", "nb", "config.json"), []byte(`{"approval":{"allow":["python3 *"]}}`), 0o644)
		before := listFiles(t, proj)

		var warned []string
		getenv := func(k string) string { return env[k] }
		cfg, err := config.Load(config.DefaultPath(getenv), false)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Build(Options{Config: cfg, LaunchDir: proj, Getenv: getenv, Warn: func(m string) { warned = append(warned, m) }})
		if err != nil {
			t.Fatal(err)
		}
		if a.State != "" || a.StateErr == nil || len(warned) != 1 || !strings.Contains(warned[0], "HOME") {
			t.Fatalf("%v: state %q err %v warned %q", env, a.State, a.StateErr, warned)
		}
		d := a.Engine.Decide(policy.Action{Kind: policy.RunCommand, Command: "python3 evil.py", Where: policy.CommandContext{Cwd: proj}})
		if d.Decision == policy.Allow {
			t.Fatalf("%v: planted grant or config allowed python3: by %s", env, d.DecidedBy)
		}
		d.Rule = "make test"
		if err := a.Engine.Grant(d, policy.ScopeProject); err == nil || !strings.Contains(err.Error(), "HOME") {
			t.Errorf("%v: project grant: %v", env, err)
		}
		run, _ := a.Tools.Get("run_cmd")
		_, res, err := tooltest.Call(t, run, tool.At{Cwd: a.Workdir.Cwd()}, map[string]any{"command": "seq 1 100000"})
		if err != nil || res.IsError {
			t.Fatalf("run_cmd: %v %+v", err, res)
		}
		a.Audit.Write(Call{Kind: KindTool, Tool: "run_cmd", Decision: d, Outcome: "ran", Result: res})
		a.Close()
		if after := listFiles(t, proj); !slices.Equal(after, before) {
			t.Errorf("%v: nb wrote into the project: %q", env, after)
		}
	}
}

// With a state directory, grants, the audit log and saved outputs live
// there, keyed by the launch directory.
func TestStateDirHoldsState(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home}
	a, err := Build(Options{LaunchDir: proj, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.State != filepath.Join(home, ".local", "state", "nb") {
		t.Fatalf("state %q", a.State)
	}
	d := a.Engine.Decide(policy.Action{Kind: policy.RunCommand, Command: "make test", Where: policy.CommandContext{Cwd: proj}})
	if err := a.Engine.Grant(d, policy.ScopeProject); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(store.ProjectGrants(a.State, proj).Path); err != nil {
		t.Fatal(err)
	}
	run, _ := a.Tools.Get("run_cmd")
	_, res, _ := tooltest.Call(t, run, tool.At{Cwd: proj}, map[string]any{"command": "echo hi"})
	a.Audit.Write(Call{Kind: KindTool, Cwd: proj, Tool: "run_cmd", Decision: d, Outcome: "ran", DecidedBy: policy.ByUser, Result: res})
	a.Audit.Close()
	data, err := os.ReadFile(filepath.Join(a.State, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var e map[string]any
	if err := json.Unmarshal(data, &e); err != nil || e["kind"] != "tool" || e["decidedBy"] != "user" || e["command"] != "make test" || e["cwd"] != proj {
		t.Fatalf("audit entry %s: %v", data, err)
	}
	if got := listFiles(t, proj); len(got) != 0 {
		t.Errorf("files in the project: %q", got)
	}
}

// The chat, nb tool and nb mcp serve get the same tools from the same
// root: the shell tools always; the chat read_file, write_file and
// edit_file; nb mcp serve every file tool, confined to its roots.
func TestToolsBuilt(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	names := func(o Options) []string {
		a, err := Build(o)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		var out []string
		for _, s := range a.Tools.Specs() {
			out = append(out, s.Name)
		}
		return out
	}
	chat := names(Options{LaunchDir: proj, Getenv: getenv})
	if strings.Join(chat, " ") != "edit_file read_file run_cmd set_cwd terminal_continue terminal_list terminal_start terminal_stop write_file" {
		t.Errorf("chat tools %q", chat)
	}
	serve := names(Options{LaunchDir: proj, Getenv: getenv, Roots: []string{proj}})
	if len(serve) != len(chat)+2 || !slices.Contains(serve, "path_info") {
		t.Errorf("served tools %q", serve)
	}
	cfg := config.Default()
	cfg.TerminalIntegration.Enabled = false
	if got := names(Options{Config: cfg, LaunchDir: proj, Getenv: getenv}); len(got) != 0 {
		t.Errorf("terminal integration off: %q", got)
	}
	cfg = config.Default()
	cfg.Terminal.Provider = "nosuch"
	if _, err := Build(Options{Config: cfg, LaunchDir: proj, Getenv: getenv}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown provider: %v", err)
	}
	if _, err := Build(Options{LaunchDir: "rel", Getenv: getenv}); err == nil {
		t.Error("relative launch directory accepted")
	}
}

// Commands run by the built app see terminal.env's decisions: secrets
// removed, passed ones kept, provider keys (standard and configured)
// never.
func TestCommandsEnvScrubbed(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	cfg := config.Default()
	cfg.Terminal.Env = config.TerminalEnv{Pass: []string{"NBT_PASSED_*", "OPENAI_API_KEY", "WORK_*"}, Exclude: []string{"NBT_EXCL*"}}
	cfg.Providers = map[string]config.Provider{"work": {Type: "anthropic", APIKeyEnv: "WORK_LLM"}}
	environ := append(os.Environ(), "GITHUB_TOKEN=canary-gh", "OPENAI_API_KEY=canary-openai", "WORK_LLM=canary-work",
		"NBT_PASSED_TOKEN=passed", "NBT_EXCLUDED=canary-excl", "NBT_PLAIN=plain")
	a, err := Build(Options{Config: cfg, LaunchDir: proj, Getenv: getenv, Environ: environ})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h, err := a.Host("local")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := h.Run(ctx, &host.Command{Script: "env", Dir: proj, Stdout: &out, Timeout: 15 * time.Second}); err != nil {
		t.Fatal(err)
	}
	env := out.String()
	if strings.Contains(env, "canary") || !strings.Contains(env, "NBT_PASSED_TOKEN=passed") || !strings.Contains(env, "NBT_PLAIN=plain") {
		t.Errorf("env:\n%s", env)
	}
}

// run_cmd's home is the one `nb policy check` uses: the profile for
// cmd.exe and PowerShell even where HOME is set, HOME for bash.
func TestHomeDirFollowsTheShell(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`}
	getenv := func(k string) string { return env[k] }
	for shell, want := range map[string]string{"powershell": `C:\Users\u`, "cmd": `C:\Users\u`, "bash": "/home/u"} {
		if got := HomeDir(getenv, shell); got != want {
			t.Errorf("HomeDir for %s = %q, want %q", shell, got, want)
		}
	}
	delete(env, "HOME")
	if got := HomeDir(getenv, "bash"); got != `C:\Users\u` {
		t.Errorf("HomeDir without HOME = %q, want the profile", got)
	}
}

// A sandbox that cannot work here is told once at start (not by nb policy
// check), and what the safe list allows then runs as decided; switched
// off, nothing is told.
func TestMissingSandboxToldAtStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the missing mechanism is bubblewrap")
	}
	proj := t.TempDir()
	env := map[string]string{"HOME": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	build := func(mod func(*config.Config), quiet bool) ([]string, *App) {
		cfg := config.Default()
		cfg.Terminal.ReadOnlySandbox.Mechanism = "bwrap"
		if mod != nil {
			mod(cfg)
		}
		var warned []string
		a, err := Build(Options{Config: cfg, LaunchDir: proj, Getenv: getenv, Environ: os.Environ(), QuietSandbox: quiet,
			Warn: func(m string) {
				if strings.Contains(m, "sandbox") {
					warned = append(warned, m)
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return warned, a
	}
	if _, err := exec.LookPath("bwrap"); err == nil {
		// Hide bubblewrap: a directory of PATH with everything but it.
		dir := t.TempDir()
		for _, p := range []string{"bash", "sh", "true", "cat"} {
			if full, err := exec.LookPath(p); err == nil {
				os.Symlink(full, filepath.Join(dir, p))
			}
		}
		t.Setenv("PATH", dir)
	}
	warned, a := build(nil, false)
	if len(warned) != 1 || !strings.Contains(warned[0], "no sandbox here (bubblewrap is not installed)") || !strings.Contains(warned[0], "unsandboxed") {
		t.Fatalf("start-up report %q", warned)
	}
	if ok, line := a.Guard.Status(); ok || line != warned[0] {
		t.Errorf("/terminal's line %q", line)
	}
	run, _ := a.Tools.Get("run_cmd")
	_, res, err := tooltest.Call(t, run, tool.At{Cwd: a.Workdir.Cwd()}, map[string]any{"command": "echo ran"})
	if err != nil || res.IsError || !strings.Contains(res.Content, "ran") {
		t.Fatalf("run_cmd without a sandbox: %v %+v", err, res)
	}
	if warned, _ := build(nil, true); len(warned) != 0 {
		t.Errorf("told when quiet: %q", warned)
	}
	if warned, _ := build(func(c *config.Config) { c.Terminal.ReadOnlySandbox.Enabled = false }, false); len(warned) != 0 {
		t.Errorf("told when switched off: %q", warned)
	}
}

// Every argument a tool's schema offers is one the tool takes: the tools
// refuse arguments they do not know, so a schema naming one they do not
// decode would have a well-formed call refused.
func TestSchemasMatchArguments(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": home}[k] }
	a, err := Build(Options{LaunchDir: proj, Getenv: getenv, Roots: []string{proj}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	sample := map[string]any{"string": "x", "integer": 1, "number": 1, "boolean": false, "array": []any{}, "object": map[string]any{}}
	for _, s := range a.Tools.Specs() {
		var schema struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(s.Schema, &schema); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if len(schema.Properties) == 0 {
			continue
		}
		args := map[string]any{}
		for name, p := range schema.Properties {
			typ, _ := p.Type.(string)
			if l, ok := p.Type.([]any); ok && len(l) > 0 {
				typ, _ = l[0].(string)
			}
			args[name] = sample[typ]
		}
		raw, _ := json.Marshal(args)
		tl, _ := a.Tools.Get(s.Name)
		_, err := tl.Review(context.Background(), &tool.Call{ID: "c", Name: s.Name, Args: raw}, tool.At{Cwd: proj})
		if err != nil && strings.Contains(err.Error(), "unknown argument") {
			t.Errorf("%s: its schema offers what it refuses: %v", s.Name, err)
		}
	}
}
