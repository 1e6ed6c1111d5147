package tooltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/host/ssh"
	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/mcpserver"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/ptysession"
	"github.com/nb-cli/nb/internal/testenv"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/files"
	"github.com/nb-cli/nb/internal/tool/runcmd"
	"github.com/nb-cli/nb/internal/tool/terminal"
	"github.com/nb-cli/nb/internal/tool/tooltest"
	"github.com/nb-cli/nb/internal/wiring"
)

// spy passes every action to the real engine and remembers the decisions
// it returned, so a test can check that a tool's decision is the engine's.
type spy struct {
	e       *policy.Engine
	mu      sync.Mutex
	actions []policy.Action
	made    []*policy.Decision
}

func (s *spy) Decide(a policy.Action) *policy.Decision {
	d := s.e.Decide(a)
	s.mu.Lock()
	s.actions = append(s.actions, a)
	s.made = append(s.made, d)
	s.mu.Unlock()
	return d
}

func (s *spy) madeIt(d *policy.Decision) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.made, d)
}

// kit is every native tool on one host, with the real engine behind a spy.
type kit struct {
	launch, home string
	wd           *tool.Workdir
	hosts        *host.Active
	spy          *spy
	tools        map[string]tool.Tool
}

func newKit(t *testing.T, h host.Host) *kit { return newKitWith(t, h, nil) }

func newKitWith(t *testing.T, h host.Host, mod func(*policy.Options)) *kit {
	t.Helper()
	k := &kit{launch: t.TempDir(), home: t.TempDir()}
	k.launch, _ = filepath.EvalSymlinks(k.launch)
	k.wd = tool.NewWorkdir(k.launch)
	k.hosts = host.NewActive(h)
	k.spy = &spy{e: tooltest.Engine(t, mod)}
	getenv := func(n string) string {
		if n == "HOME" {
			return k.home
		}
		return os.Getenv(n)
	}
	run, cd := runcmd.New(runcmd.Options{Hosts: k.hosts, Workdir: k.wd, Policy: k.spy, Config: config.Default().TerminalIntegration, Getenv: getenv})
	list := []tool.Tool{run, cd}
	m := ptysession.New(ptysession.Options{Host: k.hosts.Get, Dir: k.wd.Cwd, Persistent: config.Default().Terminal.Persistent})
	t.Cleanup(func() { m.CloseAll() })
	list = append(list, terminal.New(terminal.Options{Manager: m, Policy: k.spy, Host: k.hosts.Get, Home: k.home})...)
	roots, err := files.NewRoots(k.launch)
	if err != nil {
		t.Fatal(err)
	}
	list = append(list, files.New(files.Options{Roots: roots, Policy: k.spy, Home: k.home})...)
	list = append(list, &mcpserver.ContextTool{Workdir: k.wd, Roots: roots.Dirs(), Policy: k.spy})
	k.tools = map[string]tool.Tool{}
	for _, tl := range list {
		k.tools[tl.Spec().Name] = tl
	}
	return k
}

func (k *kit) at() tool.At { return tool.At{Cwd: k.wd.Cwd()} }

func (k *kit) review(t *testing.T, name string, args any) *tool.Invocation {
	t.Helper()
	inv, err := tooltest.Review(t, k.tools[name], k.at(), args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return inv
}

// calls are a usable call of every native tool. A tool missing here fails
// TestEveryToolIsDecidedByTheEngine: new tools join the suite.
var calls = map[string]string{
	"run_cmd":           `{"command":"ls"}`,
	"set_cwd":           `{"path":"."}`,
	"terminal_start":    `{"command":"cat","stdin":"hi\n"}`,
	"terminal_continue": `{"sessionId":"term-1","stdin":"more\n"}`,
	"terminal_stop":     `{"sessionId":"term-1"}`,
	"terminal_list":     `{}`,
	"read_file":         `{"path":"a.txt"}`,
	"write_file":        `{"path":"b.txt","content":"x"}`,
	"edit_file":         `{"path":"a.txt","oldText":"a","newText":"b"}`,
	"list_dir":          `{}`,
	"path_info":         `{"path":"a.txt"}`,
	"get_context":       `{}`,
}

// Every native tool, whichever composition builds it, returns the engine's
// own decision (not a copy, not one of its own), and an invocation to run.
func TestEveryToolIsDecidedByTheEngine(t *testing.T) {
	k := newKit(t, &host.Local{})
	os.WriteFile(filepath.Join(k.launch, "a.txt"), []byte("a\n"), 0o644)
	app, err := wiring.Build(wiring.Options{LaunchDir: k.launch, Roots: []string{k.launch}, Getenv: func(n string) string { return map[string]string{"HOME": k.home}[n] }})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	for _, s := range app.Tools.Specs() {
		if _, ok := k.tools[s.Name]; !ok {
			t.Errorf("the suite does not build %s", s.Name)
		}
	}
	order := []string{"terminal_start", "terminal_continue", "terminal_list", "terminal_stop"}
	for name := range calls {
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	for name := range k.tools {
		if _, ok := calls[name]; !ok {
			t.Errorf("no conformance call for %s", name)
		}
	}
	for _, name := range order {
		inv := k.review(t, name, calls[name])
		d := inv.Decision
		if d == nil || inv.Run == nil {
			t.Fatalf("%s: incomplete invocation %+v", name, inv)
		}
		if !k.spy.madeIt(d) {
			t.Errorf("%s: the decision %+v is not one the engine made", name, d)
		}
		if d.DecidedBy == "" || d.Reasons == nil || (d.DefaultAnswer != policy.Yes && d.DefaultAnswer != policy.No) {
			t.Errorf("%s: incomplete decision %+v", name, d)
		}
		if name != "set_cwd" && inv.CwdAfter != k.wd.Cwd() {
			t.Errorf("%s: predicted to move the session to %q", name, inv.CwdAfter)
		}
		res, err := inv.Run(context.Background())
		if err != nil || res == nil {
			t.Errorf("%s: run: %v", name, err)
		}
	}
	// Unusable arguments never reach the engine and give no invocation.
	n := len(k.spy.actions)
	for name := range k.tools {
		if name == "terminal_list" || name == "get_context" || name == "list_dir" {
			continue // no required arguments
		}
		if inv, err := tooltest.Review(t, k.tools[name], k.at(), `{}`); err == nil {
			t.Errorf("%s: empty arguments accepted: %+v", name, inv.Decision)
		}
	}
	if len(k.spy.actions) != n {
		t.Errorf("the engine was asked about unusable calls: %+v", k.spy.actions[n:])
	}
}

// isoHost is the local machine reporting another isolation: what the
// review sees of a container or an ssh host.
type isoHost struct {
	*host.Local
	iso host.Isolation
}

func (h isoHost) Isolation() host.Isolation { return h.iso }
func (h isoHost) Name() string              { return string(h.iso) }

func newSandbox(t *testing.T, launch, home string) host.Host {
	t.Helper()
	testenv.Tool(t, "bwrap")
	h, err := sandbox.New(sandbox.Options{Mechanism: sandbox.MechanismBwrap, LaunchDir: launch, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// Only a sandbox on this machine lets autoApproveInSandbox allow a
// command: a container may mount the project, and an ssh host is a real
// machine (a production server). Each kind of host, for run_cmd and for
// terminal_start.
func TestIsolationKinds(t *testing.T) {
	for _, c := range []struct {
		iso  host.Isolation
		want policy.Verdict
	}{
		{host.IsolationNone, policy.Ask},
		{host.IsolationContainer, policy.Ask},
		{host.IsolationRemote, policy.Ask},
		{host.IsolationSandbox, policy.Allow},
	} {
		t.Run(string(c.iso), func(t *testing.T) {
			k := newKit(t, &host.Local{})
			var h host.Host = isoHost{&host.Local{}, c.iso}
			switch c.iso {
			case host.IsolationNone:
				h = &host.Local{}
			case host.IsolationSandbox:
				h = newSandbox(t, k.launch, k.home)
			}
			k.hosts.Set(h)
			for name, args := range map[string]string{
				"run_cmd":        `{"command":"touch made.txt"}`,
				"terminal_start": `{"command":"touch made.txt"}`,
			} {
				if d := k.review(t, name, args).Decision; d.Decision != c.want {
					t.Errorf("%s on %s: %s by %s, want %s", name, c.iso, d.Decision, d.DecidedBy, c.want)
				}
			}
			// Dangerous commands are asked even in the sandbox.
			if d := k.review(t, "run_cmd", `{"command":"rm -rf ~"}`).Decision; d.Decision == policy.Allow {
				t.Errorf("rm -rf ~ on %s: allowed", c.iso)
			}
		})
	}
}

// The cwd argument is resolved against the call's directory and the
// command is decided there, on every host (in the sandbox with
// autoApproveInSandbox off, which would allow the read: the sandbox hides
// the secrets).
func TestCwdArgumentDecided(t *testing.T) {
	for _, kind := range []string{"local", "sandbox"} {
		t.Run(kind, func(t *testing.T) {
			k := newKitWith(t, &host.Local{}, func(o *policy.Options) { o.Approval.AutoApproveInSandbox = false })
			if kind == "sandbox" {
				k.hosts.Set(newSandbox(t, k.launch, k.home))
			}
			os.MkdirAll(filepath.Join(k.home, ".aws"), 0o700)
			os.WriteFile(filepath.Join(k.home, ".aws", "config"), []byte("[x]\n"), 0o600)
			os.WriteFile(filepath.Join(k.launch, "config"), []byte("x\n"), 0o644)
			if d := k.review(t, "run_cmd", `{"command":"cat config"}`).Decision; d.Decision != policy.Allow {
				t.Fatalf("cat config in the project: %s (%q)", d.Decision, d.Reasons)
			}
			for _, args := range []string{`{"command":"cat config","cwd":"~/.aws"}`, `{"command":"cat config","cwd":"` + k.home + `/.aws"}`, `{"command":"cat ../config","cwd":"` + k.home + `/.aws/x"}`} {
				if d := k.review(t, "run_cmd", args).Decision; d.Decision == policy.Allow {
					t.Errorf("%s: allowed by %s", args, d.DecidedBy)
				}
			}
		})
	}
}

// Run executes the invocation on the host it was reviewed for, even when
// the active host changed in between.
func TestRunUsesReviewedHost(t *testing.T) {
	k := newKit(t, &host.Local{})
	k.hosts.Set(newSandbox(t, k.launch, k.home))
	probe := `{"command":"test -w /usr && echo writable || echo readonly"}`
	inv := k.review(t, "run_cmd", probe)
	k.hosts.Set(&host.Local{})
	res, err := inv.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "readonly") {
		t.Errorf("reviewed for the sandbox, ran elsewhere: %s", res.Content)
	}
}

// scripted is the model: it answers with one message of tool calls, then
// with text.
type scripted struct {
	calls []llm.ToolCall
	got   []llm.Message
}

func (s *scripted) Name() string  { return "scripted" }
func (s *scripted) Model() string { return "scripted-1" }
func (s *scripted) Stream(_ context.Context, req *llm.Request, _ func(llm.Event)) (*llm.Response, error) {
	if s.calls != nil {
		c := s.calls
		s.calls = nil
		return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: c}}, nil
	}
	s.got = req.Messages
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: "done"}}, nil
}

type quietUI struct{ asked [][]string }

func (u *quietUI) Waiting()                        {}
func (u *quietUI) Text(string)                     {}
func (u *quietUI) EndText()                        {}
func (u *quietUI) Notice(agent.NoticeKind, string) {}
func (u *quietUI) Approve(_ context.Context, b []*agent.Pending) ([]agent.Answer, error) {
	var shown []string
	for _, p := range b {
		shown = append(shown, p.Decision.Full+" @"+p.Cwd)
	}
	u.asked = append(u.asked, shown)
	return make([]agent.Answer, len(b)), nil // no to everything
}
func (u *quietUI) ToolStart(*agent.Pending) agent.ToolView { return view{} }
func (u *quietUI) Refused(*agent.Pending, string)          {}

type view struct{}

func (view) Output(string, []byte) {}
func (view) Done(*tool.Result)     {}

func runCmd(id, command string) llm.ToolCall {
	b, _ := json.Marshal(map[string]string{"command": command})
	return llm.ToolCall{ID: id, Name: "run_cmd", Arguments: string(b)}
}

// batch runs one model message of run_cmd calls through the agent with
// the real tools, and returns the tool results and what was asked.
func batch(t *testing.T, interactive bool, commands ...string) (*kit, []string, [][]string) {
	t.Helper()
	return batchOn(t, &host.Local{}, interactive, commands...)
}

func batchOn(t *testing.T, h host.Host, interactive bool, commands ...string) (*kit, []string, [][]string) {
	t.Helper()
	k := newKit(t, h)
	var cs []llm.ToolCall
	for i, c := range commands {
		cs = append(cs, runCmd(fmt.Sprint(i+1), c))
	}
	p := &scripted{calls: cs}
	ui := &quietUI{}
	reg := tool.NewRegistry(k.tools["run_cmd"], k.tools["set_cwd"])
	a := agent.New(agent.Options{Provider: p, Tools: reg, UI: ui, Interactive: interactive, Cwd: k.wd.Cwd, Now: time.Now}, nil)
	if _, err := a.Turn(context.Background(), llm.Message{Role: llm.RoleUser, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range p.got {
		if m.Role == llm.RoleTool {
			out = append(out, m.Text)
		}
	}
	return k, out, ui.asked
}

// One message: cd /etc, then a relative read of a host key. The second
// call is decided in /etc, where it runs, so it is not auto-allowed.
func TestBatchCdThenRelativeRead(t *testing.T) {
	read := "cat ssh/ssh_host_ed25519_key | wc -c"
	for _, cd := range []string{"cd /etc", `D=/etc; cd "$D"`} {
		k, results, _ := batch(t, false, cd, read)
		if len(results) != 2 || !strings.Contains(results[0], `"exitCode":0`) {
			t.Fatalf("%s: results %q", cd, results)
		}
		if k.wd.Cwd() != "/etc" {
			t.Fatalf("%s: session in %s", cd, k.wd.Cwd())
		}
		if !strings.HasPrefix(results[1], "not run") {
			t.Errorf("%s; %s: ran without approval: %s", cd, read, results[1])
		}
		var sawRead bool
		for i, a := range k.spy.actions {
			if a.Command == read {
				sawRead = true
				if a.Where.Cwd != "/etc" || k.spy.made[i].Decision == policy.Allow {
					t.Errorf("%s: read decided in %q: %s", cd, a.Where.Cwd, k.spy.made[i].Decision)
				}
			}
		}
		if !sawRead {
			t.Errorf("%s: the read was never decided", cd)
		}
	}
}

// Asked calls of one message are asked together, each for the directory
// it runs in; a call after a cd whose target is only known at run time is
// asked after that cd ran.
func TestBatchAsksWithDirectories(t *testing.T) {
	_, _, asked := batch(t, true, "cd /tmp", "touch x1", "touch x2")
	if len(asked) != 1 || len(asked[0]) != 2 || !strings.HasSuffix(asked[0][0], "@/tmp") {
		t.Errorf("asked %q, want both touches at once, in /tmp", asked)
	}
	_, _, asked = batch(t, true, `D=/tmp; cd "$D"`, "touch x1", "touch x2")
	if len(asked) != 1 || len(asked[0]) != 2 || !strings.HasSuffix(asked[0][1], "@/tmp") {
		t.Errorf("asked %q, want the touches asked after the cd ran, in /tmp", asked)
	}
}

// An ssh host is a real machine: nothing is allowed for being "isolated",
// commands run there, in the directory they were decided for, and a batch
// with cd is followed there too.
func TestSSHHost(t *testing.T) {
	srv := sshtest.Start(t)
	srv.Trust(t)
	h, err := ssh.New(ssh.Options{Host: "127.0.0.1", Port: srv.Port, User: srv.User, Home: srv.Home, SSHConfig: "none"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := h.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if h.Isolation() != host.IsolationRemote {
		t.Fatalf("ssh isolation %s", h.Isolation())
	}
	k := newKit(t, h)
	if d := k.review(t, "run_cmd", `{"command":"touch made.txt"}`).Decision; d.Decision != policy.Ask {
		t.Errorf("touch on the ssh host: %s by %s", d.Decision, d.DecidedBy)
	}
	inv := k.review(t, "run_cmd", `{"command":"pwd; test -n \"$SSH_CONNECTION\" && echo over-ssh","cwd":"/tmp"}`)
	res, err := inv.Run(context.Background())
	if err != nil || !strings.Contains(res.Content, `"stdout":"/tmp\nover-ssh\n"`) {
		t.Fatalf("run on the ssh host: %v %s", err, res.Content)
	}
	_, results, _ := batchOn(t, h, false, "cd /tmp", "pwd")
	if len(results) != 2 || !strings.Contains(results[1], `"stdout":"/tmp\n"`) {
		t.Errorf("cd then pwd over ssh: %q", results)
	}
}

// terminal_start runs in the directory it was reviewed for, even when the
// session directory moved in between.
func TestTerminalStartUsesReviewedDirectory(t *testing.T) {
	k := newKit(t, &host.Local{})
	reviewed := k.wd.Cwd()
	inv := k.review(t, "terminal_start", `{"command":"pwd"}`)
	k.wd.SetCwd(k.home)
	res, err := inv.Run(context.Background())
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	if !strings.Contains(res.Content, "\n"+reviewed) {
		t.Errorf("reviewed for %s, started elsewhere:\n%s", reviewed, res.Content)
	}
}

// Input typed into a shell session is decided where that shell is: after
// a typed cd /etc, a relative read of the host key is a read in /etc.
func TestSessionInputDecidedInTheShellsDirectory(t *testing.T) {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("the shell's directory is read from /proc")
	}
	k := newKit(t, &host.Local{})
	call := func(name, args string) *tool.Invocation {
		t.Helper()
		inv := k.review(t, name, args)
		if _, err := inv.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return inv
	}
	call("terminal_start", `{"command":"bash --norc --noprofile"}`)
	read := `{"sessionId":"term-1","stdin":"cat ssh/ssh_host_ed25519_key | wc -c\n"}`
	if d := k.review(t, "terminal_continue", read).Decision; d.Decision != policy.Allow {
		t.Fatalf("relative read in the project: %s (%q)", d.Decision, d.Reasons)
	}
	call("terminal_continue", `{"sessionId":"term-1","stdin":"cd /etc\n"}`)
	d := k.review(t, "terminal_continue", read).Decision
	if d.Decision == policy.Allow {
		t.Errorf("after a typed cd /etc the read was allowed by %s", d.DecidedBy)
	}
	for _, a := range k.spy.actions {
		if a.Kind == policy.SessionInput && strings.HasPrefix(a.Input, "cat ssh") && a.Where.Cwd == "/etc" {
			return
		}
	}
	t.Errorf("the read was never decided in /etc: %+v", k.spy.actions)
}

// Input into a session is decided for the host the session runs on: a
// session started on this machine stays unisolated when the sandbox
// becomes the active provider.
func TestSessionInputDecidedForTheSessionsHost(t *testing.T) {
	k := newKit(t, &host.Local{})
	inv := k.review(t, "terminal_start", `{"command":"bash --norc --noprofile"}`)
	if _, err := inv.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	k.hosts.Set(isoHost{&host.Local{}, host.IsolationSandbox})
	if d := k.review(t, "run_cmd", `{"command":"touch made.txt"}`).Decision; d.Decision != policy.Allow {
		t.Fatalf("touch on the sandbox: %s", d.Decision)
	}
	if d := k.review(t, "terminal_continue", `{"sessionId":"term-1","stdin":"touch made.txt\n"}`).Decision; d.Decision == policy.Allow {
		t.Errorf("input into a local session decided as sandboxed: allowed by %s", d.DecidedBy)
	}
}
