package terminal

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// workdirs is the session directory each test tool's calls start in.
var workdirs = map[tool.Tool]*tool.Workdir{}

type inputCall struct {
	id, program string
	shell       bool
	text        string
}

// recorder is a policy that allows everything and records what it was
// asked to decide.
type recorder struct {
	mu       sync.Mutex
	commands []string
	inputs   []inputCall
	wheres   []policy.CommandContext // of each input
	verdict  policy.Verdict
	by       policy.Decider // who decides the commands
}

func (r *recorder) Decide(a policy.Action) *policy.Decision {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch a.Kind {
	case policy.RunCommand:
		r.commands = append(r.commands, a.Command)
		if a.Input != "" {
			r.inputs = append(r.inputs, inputCall{a.Session, a.Program, a.Shell, a.Input})
			return &policy.Decision{Decision: policy.Ask, Safety: policy.Unknown, Display: "run: " + a.Command + "\ninput → " + a.Session + " (" + a.Program + "): " + a.Input, Full: a.Command, Reasons: []string{"cmd", "input"}}
		}
		return &policy.Decision{Decision: r.verdict, DecidedBy: r.by, Safety: policy.Unknown, Display: "run: " + a.Command, Full: a.Command, Reasons: []string{"cmd"}}
	case policy.SessionInput:
		r.inputs = append(r.inputs, inputCall{a.Session, a.Program, a.Shell, a.Input})
		r.wheres = append(r.wheres, a.Where)
		return &policy.Decision{Decision: policy.Ask, Safety: policy.Unknown, Display: "input → " + a.Session + " (" + a.Program + "): " + a.Input, Full: a.Input, Reasons: []string{"input"}}
	}
	return &policy.Decision{Decision: policy.Allow, Safety: policy.Safe, Display: a.Kind.String()}
}

func setup(t *testing.T) (map[string]tool.Tool, *recorder, *ptysession.Manager) {
	return setupOn(t, &host.Local{})
}

func setupOn(t *testing.T, h host.Host) (map[string]tool.Tool, *recorder, *ptysession.Manager) {
	t.Helper()
	dir := t.TempDir()
	wd := tool.NewWorkdir(dir)
	m := ptysession.New(ptysession.Options{
		Host:       func() host.Host { return h },
		Dir:        wd.Cwd,
		Persistent: config.Persistent{MinInterval: 0.05, SettleInterval: 0.3, MaxInterval: 5, BufferBytes: 1 << 16, Rows: 24, Cols: 80},
	})
	t.Cleanup(func() { _ = m.CloseAll() })
	rec := &recorder{verdict: policy.Allow}
	tools := map[string]tool.Tool{}
	for _, tl := range New(Options{Manager: m, Policy: rec, Host: func() host.Host { return h }, Home: "/root"}) {
		tools[tl.Spec().Name] = tl
		workdirs[tl] = wd
	}
	return tools, rec, m
}

func call(t *testing.T, tl tool.Tool, args string) (*policy.Decision, *tool.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := &tool.Call{ID: "1", Name: tl.Spec().Name, Args: json.RawMessage(args)}
	inv, err := tl.Review(ctx, c, tool.At{Cwd: workdirs[tl].Cwd()})
	if err != nil {
		return nil, &tool.Result{Content: "review: " + err.Error(), IsError: true}
	}
	d := inv.Decision
	r, err := inv.Run(ctx)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return d, r
}

func TestSpecsGolden(t *testing.T) {
	tools, _, _ := setup(t)
	var specs []json.RawMessage
	for _, name := range []string{"terminal_start", "terminal_continue", "terminal_stop", "terminal_list"} {
		s := tools[name].Spec()
		if !json.Valid(s.Schema) {
			t.Fatalf("%s: invalid schema", name)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, b)
	}
	got, err := json.MarshalIndent(specs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "specs.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(want)) != strings.TrimSpace(string(got)) {
		t.Fatalf("tool specs changed; run go test -update if intended\n%s", got)
	}
}

var positionRe = regexp.MustCompile(`Position: \d+`)

func TestShellSessionThroughTools(t *testing.T) {
	tools, rec, _ := setup(t)
	d, r := call(t, tools["terminal_start"], `{"command":"bash --norc --noprofile"}`)
	if r.IsError || d.Decision != policy.Allow {
		t.Fatalf("start: %+v %+v", d, r)
	}
	if len(rec.commands) != 1 || rec.commands[0] != "bash --norc --noprofile" {
		t.Fatalf("policy saw %q", rec.commands)
	}
	head := positionRe.ReplaceAllString(r.Content, "Position: N")
	if !strings.HasPrefix(head, "Terminal Session Started\nID: term-1\nCommand: bash --norc --noprofile\nPosition: N\nComplete: false\nWait Ended: the program waits for input\n\nOutput:\n") {
		t.Fatalf("start result:\n%s", r.Content)
	}

	d, r = call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"cd / && echo in $PWD\n"}`)
	if d.Decision != policy.Ask || !strings.HasPrefix(d.Display, "input → term-1 (bash): ") {
		t.Fatalf("continue decision: %+v", d)
	}
	if got := rec.inputs[0]; got != (inputCall{"term-1", "bash", true, "cd / && echo in $PWD\n"}) {
		t.Fatalf("policy input: %+v", got)
	}
	body := positionRe.ReplaceAllString(r.Content, "Position: N")
	if !strings.HasPrefix(body, "Terminal Session: term-1\nPosition: N\nComplete: false\nWait Ended: the program waits for input\n\nOutput:\n") || !strings.Contains(body, "\nin /\n") {
		t.Fatalf("continue result:\n%s", r.Content)
	}

	// Input to a program started from the shell is not shell input.
	_, r = call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"python3 -q\n"}`)
	if testenv.Tool(t, "python3") != "" {
		for i := 0; i < 50 && !strings.HasSuffix(r.Content, ">>> "); i++ {
			_, r = call(t, tools["terminal_continue"], `{"sessionId":"term-1"}`)
		}
		call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"print(6*7)\n"}`)
		if got := rec.inputs[len(rec.inputs)-1]; got.shell || !strings.HasPrefix(got.program, "python") {
			t.Fatalf("input to python inside bash decided as %+v", got)
		}
	}

	d, r = call(t, tools["terminal_list"], `{}`)
	if d.Decision != policy.Allow {
		t.Fatalf("list decision: %+v", d)
	}
	lines := strings.Split(r.Content, "\n")
	if len(lines) != 4 || lines[0] != "Active Terminal Sessions:" ||
		!regexp.MustCompile(`^term-1       \| bash --norc --noprofile        \| \d+ +\| Yes     \| \d+s$`).MatchString(lines[3]) {
		t.Fatalf("list:\n%s", r.Content)
	}

	d, r = call(t, tools["terminal_stop"], `{"sessionId":"term-1"}`)
	if d.Decision != policy.Allow || r.Content != "Terminal session term-1 terminated." {
		t.Fatalf("stop: %+v %+v", d, r)
	}
	_, r = call(t, tools["terminal_list"], `{}`)
	if r.Content != "No active terminal sessions." {
		t.Fatalf("list after stop: %q", r.Content)
	}
	_, r = call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"ls\n"}`)
	if !r.IsError || !strings.Contains(r.Content, "no open session") {
		t.Fatalf("continue of a stopped session: %+v", r)
	}
	_, r = call(t, tools["terminal_stop"], `{"sessionId":"term-1"}`)
	if !r.IsError {
		t.Fatalf("second stop: %+v", r)
	}
}

func TestStartWithStdinAsksForBoth(t *testing.T) {
	tools, rec, _ := setup(t)
	d, r := call(t, tools["terminal_start"], `{"command":"cat","stdin":"hello\n\u0004"}`)
	if d.Decision != policy.Ask || d.Display != "run: cat\ninput → new session (cat): hello\n\x04" || d.OfferAlways {
		t.Fatalf("decision: %+v", d)
	}
	if len(rec.inputs) != 1 || rec.inputs[0].shell || rec.inputs[0].program != "cat" {
		t.Fatalf("input decided as %+v", rec.inputs)
	}
	if !strings.Contains(r.Content, "Complete: true\nExit Code: 0\n") || !strings.Contains(r.Content, "hello\nhello") {
		t.Fatalf("result:\n%s", r.Content)
	}
	if r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("exit code: %v", r.ExitCode)
	}
}

func TestBadArguments(t *testing.T) {
	tools, rec, _ := setup(t)
	for name, args := range map[string]string{
		"terminal_start":    `{"command":"  "}`,
		"terminal_continue": `{"sessionId":"term-7"}`,
		"terminal_stop":     `{}`,
		"terminal_list":     `[1]`,
	} {
		_, r := call(t, tools[name], args)
		if !r.IsError {
			t.Errorf("%s %s: %+v", name, args, r)
		}
	}
	if len(rec.commands)+len(rec.inputs) != 0 {
		t.Fatal("policy consulted for unusable arguments")
	}
}

func TestWithRealPolicy(t *testing.T) {
	testenv.Tool(t, "python3")
	tools, _, m := setup(t)
	eng, err := policy.New(policy.Options{Headless: false})
	if err != nil {
		t.Fatal(err)
	}
	wd := tool.NewWorkdir(t.TempDir())
	for _, tl := range New(Options{Manager: m, Policy: eng, Host: func() host.Host { return &host.Local{} }, Home: "/root"}) {
		workdirs[tl] = wd
		tools[tl.Spec().Name] = tl
	}
	_, r := call(t, tools["terminal_start"], `{"command":"bash --norc --noprofile"}`)
	if r.IsError {
		t.Fatal(r.Content)
	}
	_, r = call(t, tools["terminal_start"], `{"command":"python3 -q"}`)
	if r.IsError {
		t.Fatal(r.Content)
	}
	review := func(args string) *policy.Decision {
		t.Helper()
		inv, err := tools["terminal_continue"].Review(context.Background(), &tool.Call{Name: "terminal_continue", Args: json.RawMessage(args)}, tool.At{Cwd: wd.Cwd()})
		if err != nil {
			t.Fatal(err)
		}
		return inv.Decision
	}
	// Shell input is a command: a deletion is never allowed unasked.
	if d := review(`{"sessionId":"term-1","stdin":"rm -rf /tmp/nothing-here\n"}`); d.Decision == policy.Allow || !strings.Contains(d.Display, "term-1") {
		t.Fatalf("rm into bash: %+v", d)
	}
	// Input to another program is shown with the program and asked.
	d := review(`{"sessionId":"term-2","stdin":"import os\n"}`)
	if d.Decision != policy.Ask || !strings.HasPrefix(d.Display, "input → term-2 (python3): import os") {
		t.Fatalf("input to python: %+v", d)
	}
	// Reading without input needs no approval.
	if d := review(`{"sessionId":"term-2"}`); d.Decision != policy.Allow {
		t.Fatalf("read: %+v", d)
	}
}

// blindHost starts local terminals that cannot tell their program's
// directory, as an ssh or container session (or macOS) cannot.
type blindHost struct{ host.Local }

type blindTerm struct{ host.Terminal }

func (h *blindHost) StartPTY(ctx context.Context, c *host.PTYCommand) (host.Terminal, error) {
	term, err := h.Local.StartPTY(ctx, c)
	if err != nil {
		return nil, err
	}
	return blindTerm{term}, nil
}

// TestInputWhereTheShellDirectoryIsUnknown: input is decided where the
// session's shell is, and when that cannot be told the policy is told
// the directory is unknown (never "the session directory").
func TestInputWhereTheShellDirectoryIsUnknown(t *testing.T) {
	for _, blind := range []bool{false, true} {
		var h host.Host = &host.Local{}
		if blind {
			h = &blindHost{}
		}
		tools, rec, _ := setupOn(t, h)
		if _, r := call(t, tools["terminal_start"], `{"command":"bash --norc --noprofile"}`); r.IsError {
			t.Fatalf("start: %+v", r)
		}
		call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"cd /\n"}`)
		call(t, tools["terminal_continue"], `{"sessionId":"term-1","stdin":"cat notes.txt\n"}`)
		w := rec.wheres[len(rec.wheres)-1]
		if w.CwdUnknown != blind || !blind && w.Cwd != "/" {
			t.Errorf("blind=%v: input decided in %q (unknown %v)", blind, w.Cwd, w.CwdUnknown)
		}
		call(t, tools["terminal_stop"], `{"sessionId":"term-1"}`)
	}
}
