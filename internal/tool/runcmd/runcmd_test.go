package runcmd

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/store"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite golden files")

type env struct {
	run, cd tool.Tool
	wd      *tool.Workdir
	local   *host.Local
	outputs *store.Outputs
	home    string
	cfg     config.TerminalIntegration
}

func setup(t testing.TB, mod func(*config.TerminalIntegration)) *env {
	t.Helper()
	if tt, ok := t.(*testing.T); ok {
		proctest.Check(tt)
		t.Cleanup(func() { goleak.VerifyNone(tt) })
	}
	cfg := config.Default().TerminalIntegration
	if mod != nil {
		mod(&cfg)
	}
	home := t.TempDir()
	e := &env{local: &host.Local{Env: append(os.Environ(), "HOME="+home)}, home: home, wd: tool.NewWorkdir(t.TempDir())}
	t.Cleanup(func() { e.local.Close() })
	e.cfg = cfg
	e.outputs = store.NewOutputs(t.TempDir(), cfg.SavedOutputsMax, cfg.SavedOutputsMaxBytes)
	getenv := func(k string) string {
		if k == "HOME" {
			return e.home
		}
		return os.Getenv(k)
	}
	e.run, e.cd = New(Options{Hosts: host.NewActive(e.local), Workdir: e.wd, Policy: tooltest.Engine(t, nil), Config: cfg, Outputs: e.outputs, Getenv: getenv})
	return e
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

// do reviews c at the session directory and runs it, whatever the
// decision; a review error becomes an error result.
func (e *env) do(ctx context.Context, tl tool.Tool, c *tool.Call) (*tool.Result, error) {
	inv, err := tl.Review(ctx, c, tool.At{Cwd: e.wd.Cwd()})
	if err != nil {
		return tool.Errorf("%v", err), nil
	}
	return inv.Run(ctx)
}

func call(t testing.TB, e *env, tl tool.Tool, args any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := e.do(ctx(t), tl, &tool.Call{Name: tl.Spec().Name, Args: raw})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func runJSON(t testing.TB, e *env, args map[string]any) (result, *tool.Result) {
	t.Helper()
	res := call(t, e, e.run, args)
	if res.IsError {
		t.Fatalf("run_cmd %v: %s", args, res.Content)
	}
	var r result
	dec := json.NewDecoder(strings.NewReader(res.Content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("result %s: %v", res.Content, err)
	}
	return r, res
}

func TestRunCmdResult(t *testing.T) {
	e := setup(t, nil)
	r, res := runJSON(t, e, map[string]any{"command": "echo 'a <b> & c' | awk '{print $2}'; echo oops >&2; exit 3"})
	if !strings.HasPrefix(res.Content, `{"stdout":"<b>\n","stderr":"oops\n","exitCode":3,"cwd":"`+e.wd.Launch()+`","durationMs":`) ||
		!strings.HasSuffix(res.Content, `,"timedOut":false}`) {
		t.Fatalf("content %s", res.Content)
	}
	if r.ExitCode != 3 || *res.ExitCode != 3 || res.Note != "oops" || res.IsError {
		t.Fatalf("result %+v %+v", r, res)
	}
}

func TestRunCmdArgs(t *testing.T) {
	e := setup(t, nil)
	for _, tt := range []struct {
		args string
		want string
	}{
		{`{`, "invalid arguments JSON"},
		{`{}`, "command is required"},
		{`{"command":"  "}`, "command is required"},
		{`{"command":5}`, "invalid arguments JSON"},
		{`{"command":"true","timeoutSeconds":"x"}`, "timeoutSeconds must be a number"},
		{`{"command":"true","timeoutSeconds":0}`, "greater than 0"},
		{`{"command":"true","cwd":"nope"}`, "is not an existing directory"},
	} {
		res, err := e.do(ctx(t), e.run, &tool.Call{Args: json.RawMessage(tt.args)})
		if err != nil || !res.IsError || !strings.Contains(res.Content, tt.want) {
			t.Errorf("%s: %+v %v", tt.args, res, err)
		}
		if _, err := e.run.Review(ctx(t), &tool.Call{Args: json.RawMessage(tt.args)}, tool.At{Cwd: e.wd.Cwd()}); err == nil && !strings.Contains(tt.args, "cwd") {
			t.Errorf("%s: Review accepted", tt.args)
		}
	}
	inv, err := e.run.Review(ctx(t), &tool.Call{Args: json.RawMessage(`{"command":"rm -rf build"}`)}, tool.At{Cwd: e.wd.Cwd()})
	if err != nil || inv.Decision.Decision != "ask" || inv.Decision.Full != "rm -rf build" {
		t.Fatalf("review: %+v %v", inv, err)
	}
	// capped timeout is noted
	r, _ := runJSON(t, e, map[string]any{"command": "true", "timeoutSeconds": 100000})
	if r.Note != "timeoutSeconds capped at 600" {
		t.Fatalf("note %q", r.Note)
	}
}

func TestRunCmdTimeout(t *testing.T) {
	e := setup(t, nil)
	r, res := runJSON(t, e, map[string]any{"command": "echo partial; sleep 30", "timeoutSeconds": 1})
	if !r.TimedOut || r.Stdout != "partial\n" || r.Stderr != "[Killed - exceeded 1s timeout]" || res.Note != "timed out after 1s" {
		t.Fatalf("%+v %+v", r, res)
	}
	if r.Cwd != e.wd.Launch() {
		t.Fatalf("cwd after timeout %q", r.Cwd)
	}
}

func TestRunCmdDefaultTimeoutFromConfig(t *testing.T) {
	e := setup(t, func(c *config.TerminalIntegration) { c.DefaultTimeout = 1 })
	r, _ := runJSON(t, e, map[string]any{"command": "sleep 30"})
	if !r.TimedOut || !strings.HasSuffix(r.Stderr, "[Killed - exceeded 1s timeout]") {
		t.Fatalf("%+v", r)
	}
}

func TestRunCmdInterrupted(t *testing.T) {
	e := setup(t, nil)
	c, cancel := context.WithCancel(ctx(t))
	started := make(chan struct{})
	var once sync.Once
	res, err := e.do(c, e.run, &tool.Call{Args: json.RawMessage(`{"command":"echo go; sleep 30"}`),
		Live: func(stream string, chunk []byte) {
			if stream == "stdout" && strings.Contains(string(chunk), "go") {
				once.Do(func() { close(started); cancel() })
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	var r result
	json.Unmarshal([]byte(res.Content), &r)
	if !r.Interrupted || r.Stderr != InterruptedMarker || r.Stdout != "go\n" || res.Note != "interrupted" {
		t.Fatalf("%s", res.Content)
	}
}

func TestRunCmdBackground(t *testing.T) {
	e := setup(t, nil)
	r, res := runJSON(t, e, map[string]any{"command": "sleep 600 & echo started"})
	if r.Stdout != "started\n" || r.Note != orphanNote || !strings.Contains(res.Note, "background processes ended") {
		t.Fatalf("%+v", r)
	}
}

func TestRunCmdCwdTracking(t *testing.T) {
	e := setup(t, nil)
	launch := e.wd.Launch()
	os.Mkdir(filepath.Join(launch, "sub"), 0o755)
	r, _ := runJSON(t, e, map[string]any{"command": "cd sub && pwd"})
	sub := filepath.Join(launch, "sub")
	if r.Cwd != sub || e.wd.Cwd() != sub || r.Stdout != sub+"\n" {
		t.Fatalf("after cd: %+v wd %s", r, e.wd.Cwd())
	}
	// the next command runs there; a subshell cd changes nothing
	r, _ = runJSON(t, e, map[string]any{"command": "(cd /); pwd"})
	if r.Stdout != sub+"\n" || r.Cwd != sub {
		t.Fatalf("subshell: %+v", r)
	}
	// the cwd argument runs one command elsewhere without moving
	r, _ = runJSON(t, e, map[string]any{"command": "pwd", "cwd": ".."})
	if r.Stdout != launch+"\n" || r.Cwd != sub {
		t.Fatalf("cwd arg: %+v", r)
	}
	// ...unless that command itself changes directory
	r, _ = runJSON(t, e, map[string]any{"command": "cd /tmp", "cwd": "~"})
	if r.Cwd != "/tmp" {
		t.Fatalf("cwd arg + cd: %+v", r)
	}
	// a failed cd changes nothing
	r, _ = runJSON(t, e, map[string]any{"command": "cd /nonexistent-nb"})
	if r.Cwd != "/tmp" || r.ExitCode != 1 {
		t.Fatalf("failed cd: %+v", r)
	}
	// the system prompt shows the current directory
	if got := sysinfo.Format(&sysinfo.Info{}, e.wd.Cwd()); !strings.Contains(got, "- Working directory: /tmp\n") {
		t.Fatalf("prompt %s", got)
	}
	// the launch directory never moves
	if e.wd.Launch() != launch {
		t.Fatal("launch directory changed")
	}
}

func TestSetCwd(t *testing.T) {
	e := setup(t, nil)
	launch := e.wd.Launch()
	os.MkdirAll(filepath.Join(launch, "a b", "c"), 0o755)
	os.Mkdir(filepath.Join(e.home, "proj"), 0o755)
	os.WriteFile(filepath.Join(launch, "file"), nil, 0o644)
	tests := []struct {
		path, want, err string
	}{
		{"a b", filepath.Join(launch, "a b"), ""},
		{"c", filepath.Join(launch, "a b", "c"), ""},
		{"../..", launch, ""},
		{"~", e.home, ""},
		{"~/proj", filepath.Join(e.home, "proj"), ""},
		{"/tmp", "/tmp", ""},
		{"/nonexistent-nb", "/tmp", "set_cwd: /nonexistent-nb: No such file or directory"},
		{launch + "/file", "/tmp", "Not a directory"},
		{"it's; rm -rf x", "/tmp", "No such file or directory"},
		{"", "/tmp", "path is required"},
	}
	for _, tt := range tests {
		if tt.path != "" && tt.err == "" {
			inv, err := e.cd.Review(ctx(t), &tool.Call{Args: json.RawMessage(`{"path":` + mustJSON(tt.path) + `}`)}, tool.At{Cwd: e.wd.Cwd()})
			if err != nil || inv.Decision.Decision != "allow" || inv.Decision.Display != "cd: "+tt.want || inv.CwdAfter != tt.want {
				t.Errorf("review %q: %+v %v", tt.path, inv, err)
			}
		}
		res := call(t, e, e.cd, map[string]string{"path": tt.path})
		if tt.err != "" {
			if !res.IsError || !strings.Contains(res.Content, tt.err) {
				t.Errorf("%q: %s", tt.path, res.Content)
			}
		} else if res.IsError || res.Content != `{"cwd":`+mustJSON(tt.want)+`}` {
			t.Errorf("%q: %s", tt.path, res.Content)
		}
		if e.wd.Cwd() != tt.want {
			t.Errorf("%q: workdir %s, want %s", tt.path, e.wd.Cwd(), tt.want)
		}
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestRunCmdBinaryAndANSI(t *testing.T) {
	e := setup(t, nil)
	r, _ := runJSON(t, e, map[string]any{"command": `printf '\033[1;31mred\033[0m plain\n'; head -c 3000 /dev/urandom >&2`})
	if r.Stdout != "red plain\n" || !strings.HasPrefix(r.Stderr, "[binary output not shown: 3.0 KB (3000 bytes)") {
		t.Fatalf("%+v", r)
	}
	data, err := os.ReadFile(r.StderrFile)
	if err != nil || len(data) != 3000 {
		t.Fatalf("binary stderr saved in %q: %v %d", r.StderrFile, err, len(data))
	}
}

func TestRunCmdLargeOutputBounded(t *testing.T) {
	e := setup(t, func(c *config.TerminalIntegration) { c.SavedOutputsMaxBytes = 16 << 20 })
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, res := runJSON(t, e, map[string]any{"command": "seq 1 8000000"}) // ~61 MB
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("capturing 61 MB allocated %d MB", grew>>20)
	}
	if !strings.HasPrefix(r.Stdout, "1\n2\n3\n") || !strings.HasSuffix(r.Stdout, "7999999\n8000000\n") ||
		!strings.Contains(r.Stdout, "\n50\n[... 7999930 lines omitted (62.9 MB total) - use grep/tail/head to filter ...]\n7999981\n") {
		t.Fatalf("stdout %s", r.Stdout)
	}
	if len(res.Content) > 12000 {
		t.Fatalf("result is %d bytes", len(res.Content))
	}
	fi, err := os.Stat(r.OutputFile)
	if err != nil || fi.Size() < 4<<20 || fi.Size() > 4<<20+200 {
		t.Fatalf("output file %q: %v %v", r.OutputFile, fi, err)
	}
	if !strings.Contains(r.Note, "holds only the first 4.2 MB") {
		t.Fatalf("note %q", r.Note)
	}
	if !strings.Contains(res.Note, "8000000 lines") {
		t.Fatalf("transcript note %q", res.Note)
	}
}

func TestSpecsGolden(t *testing.T) {
	e := setup(t, nil)
	var b strings.Builder
	for _, tl := range []tool.Tool{e.run, e.cd} {
		s := tl.Spec()
		var schema any
		json.Unmarshal(s.Schema, &schema)
		pretty, _ := json.MarshalIndent(schema, "", "  ")
		b.WriteString("== " + s.Name + "\n" + s.Description + "\n-- schema\n" + string(pretty) + "\n")
	}
	golden := filepath.Join("testdata", "specs.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, []byte(b.String()), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("tool specs changed; run go test -update and review testdata/specs.golden\n%s", b.String())
	}
}

// The command is decided for the directory it runs in: the cwd argument
// resolved against the call's starting directory, not the session's.
func TestReviewUsesCallDirectory(t *testing.T) {
	e := setup(t, nil)
	aws := filepath.Join(e.home, ".aws")
	os.MkdirAll(aws, 0o700)
	os.WriteFile(filepath.Join(aws, "config"), []byte("[default]\n"), 0o600)
	os.WriteFile(filepath.Join(e.wd.Cwd(), "config"), []byte("x\n"), 0o600)
	at := tool.At{Cwd: e.wd.Cwd()}
	review := func(args string, at tool.At) *tool.Invocation {
		t.Helper()
		inv, err := e.run.Review(ctx(t), &tool.Call{Args: json.RawMessage(args)}, at)
		if err != nil {
			t.Fatal(err)
		}
		return inv
	}
	if d := review(`{"command":"cat config"}`, at).Decision; d.Decision != "allow" {
		t.Fatalf("cat config in the project: %s %q", d.Decision, d.Reasons)
	}
	for _, args := range []string{`{"command":"cat config","cwd":"~/.aws"}`, `{"command":"cat config","cwd":` + mustJSON(aws) + `}`} {
		if d := review(args, at).Decision; d.Decision == "allow" {
			t.Errorf("%s: allowed", args)
		}
	}
	// The call's starting directory is at.Cwd, whatever the session says.
	if d := review(`{"command":"cat config"}`, tool.At{Cwd: aws}).Decision; d.Decision == "allow" {
		t.Errorf("cat config reviewed at %s: allowed", aws)
	}
}

// Run executes exactly what was reviewed: the directory does not follow
// the session when it moves between review and run.
func TestRunExecutesReviewedDirectory(t *testing.T) {
	e := setup(t, nil)
	reviewed := e.wd.Cwd()
	inv, err := e.run.Review(ctx(t), &tool.Call{Args: json.RawMessage(`{"command":"pwd"}`)}, tool.At{Cwd: reviewed})
	if err != nil {
		t.Fatal(err)
	}
	e.wd.SetCwd(e.home)
	res, err := inv.Run(ctx(t))
	if err != nil || res.IsError {
		t.Fatal(err, res)
	}
	var r result
	json.Unmarshal([]byte(res.Content), &r)
	if strings.TrimSpace(r.Stdout) != reviewed {
		t.Errorf("ran in %q, reviewed for %q", r.Stdout, reviewed)
	}
	if inv.CwdAfter != reviewed {
		t.Errorf("pwd predicted to leave the session in %q", inv.CwdAfter)
	}
}

// The directory a command leaves behind is predicted only when certain.
func TestCwdAfter(t *testing.T) {
	e := setup(t, nil)
	at := tool.At{Cwd: e.wd.Cwd()}
	for args, want := range map[string]string{
		`{"command":"ls"}`:                           at.Cwd,
		`{"command":"ls","cwd":"/tmp"}`:              at.Cwd,
		`{"command":"cd /etc"}`:                      "/etc",
		`{"command":"cd ~"}`:                         e.home,
		`{"command":"cd .."}`:                        filepath.Dir(at.Cwd),
		`{"command":"cd ssh","cwd":"/etc"}`:          "",
		`{"command":"cd \"$X\""}`:                    "",
		`{"command":"cd /etc && ls"}`:                "",
		`{"command":"source env.sh"}`:                "",
		`{"command":"$CMD /etc"}`:                    "",
		`{"command":"(cd /etc; ls)"}`:                "",
		`{"command":"cd -"}`:                         "",
		`{"command":"pushd /etc"}`:                   "",
		`{"command":"eval cd /etc"}`:                 "",
		`{"command":"cd ./sub","cwd":"/srv"}`:        "/srv/sub",
		`{"command":"builtin cd /etc"}`:              "",
		`{"command":"echo hi > /dev/null; cd /x"}`:   "",
		`{"command":"cd /etc; cd /tmp"}`:             "",
		`{"command":"ls; echo \"$(cd /etc; pwd)\""}`: "",
	} {
		inv, err := e.run.Review(ctx(t), &tool.Call{Args: json.RawMessage(args)}, at)
		if err != nil {
			t.Fatal(err)
		}
		if inv.CwdAfter != want {
			t.Errorf("%s: CwdAfter %q, want %q", args, inv.CwdAfter, want)
		}
	}
}
