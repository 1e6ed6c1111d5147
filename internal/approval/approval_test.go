package approval

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/render/screentest"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/tool"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func pending(display, desc string, warn bool) *agent.Pending {
	d := &policy.Decision{Decision: policy.Ask, Safety: policy.Unknown, Display: display, DefaultAnswer: "yes", OfferAlways: true, Reasons: []string{"not on the safe list"}, Full: strings.TrimPrefix(display, "run: ")}
	d.Rule = strings.Fields(d.Full + " x")[0] + " *"
	if warn {
		d.Warn, d.Safety, d.DefaultAnswer, d.OfferAlways, d.Rule = true, policy.Dangerous, "no", false, ""
		d.WarnAt = []int{strings.IndexAny(display, " :")} // after the verb, as the policy marks it
		d.Reasons = []string{"recursive delete (rm -r)"}
	}
	return &agent.Pending{Call: &tool.Call{ID: "c1", Name: "run_cmd"}, Decision: d, Description: desc}
}

// prompter returns a prompter reading keys and drawing on a screen.
func prompter(keys string, width int) (*Prompter, *screentest.Screen) {
	scr := screentest.New(width, 30, true)
	return &Prompter{In: strings.NewReader(keys), Fd: -1, Out: scr, Width: func() int { return width }, Height: func() int { return 30 }}, scr
}

func TestSingleYes(t *testing.T) {
	p, scr := prompter("y", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("read: /etc/hosts", "", false)})
	if err != nil || len(got) != 1 || !got[0].Approved || got[0].Always {
		t.Fatalf("got %+v, %v", got, err)
	}
	raw := scr.Raw()
	for _, want := range []string{"? read: /etc/hosts", "[Y]es  [n]o  [a]lways  this [s]ession  [?]"} {
		if !strings.Contains(raw, want) {
			t.Errorf("prompt lacks %q:\n%q", want, raw)
		}
	}
	// The answered prompt is erased: the transcript keeps one line per call.
	if s := scr.String(); s != "" {
		t.Errorf("screen after answer = %q, want empty", s)
	}
}

func TestSingleNoWithReason(t *testing.T) {
	p, scr := prompter("nnot now, use ss\r", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: netstat -tlnp", "List listening ports", false)})
	if err != nil || got[0].Approved || got[0].Reason != "not now, use ss" {
		t.Fatalf("got %+v, %v", got, err)
	}
	raw := scr.Raw()
	for _, want := range []string{"List listening ports", "run: netstat -tlnp", "reason (optional, Enter to skip): "} {
		if !strings.Contains(raw, want) {
			t.Errorf("prompt lacks %q:\n%q", want, raw)
		}
	}
}

func TestReasonEditing(t *testing.T) {
	p, scr := prompter("nabc\x7f\x7fx\r", 80)
	defer scr.Close()
	got, _ := p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if got[0].Reason != "ax" {
		t.Fatalf("reason = %q, want %q", got[0].Reason, "ax")
	}
}

func TestAlwaysShowsRule(t *testing.T) {
	p, scr := prompter("a", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: git status --short", "", false)})
	if err != nil || !got[0].Approved || !got[0].Always {
		t.Fatalf("got %+v, %v", got, err)
	}
	if s := scr.String(); !strings.Contains(s, "saved rule: git *") {
		t.Errorf("screen lacks the saved rule:\n%s", s)
	}
}

func TestWarnedEnterIsNo(t *testing.T) {
	// "a" is not offered for a warned call and must be ignored; Enter is No.
	p, scr := prompter("a\r\r", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("delete: /tmp/cache", "Clear the cache", true)})
	if err != nil || got[0].Approved || got[0].Always {
		t.Fatalf("got %+v, %v", got, err)
	}
	raw := scr.Raw()
	for _, want := range []string{"delete ⚠️: /tmp/cache", "recursive delete (rm -r)", "[y]es  [N]o  [?]"} {
		if !strings.Contains(raw, want) {
			t.Errorf("prompt lacks %q:\n%q", want, raw)
		}
	}
	if strings.Contains(raw, "lways") {
		t.Errorf("warned prompt offers Always:\n%q", raw)
	}
}

func TestUnwarnedEnterIsYes(t *testing.T) {
	p, scr := prompter("\r", 80)
	defer scr.Close()
	got, _ := p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if !got[0].Approved {
		t.Fatalf("Enter on an unwarned call: %+v", got)
	}
}

func TestQuestionMarkExpands(t *testing.T) {
	long := "run: find /var/log -name '*.log' -mtime +7 -exec gzip {} ; -print && echo done-with-the-logs-now"
	p, scr := prompter("?y", 60)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending(long, "", false)})
	if err != nil || !got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
	s := ansi.Strip(scr.Raw())
	if !strings.Contains(s, "…") || !strings.Contains(s, "[?] show full") {
		t.Errorf("long command not truncated with a hint:\n%s", s)
	}
	if !strings.Contains(s, "echo done-with-the-logs-now") {
		t.Errorf("? did not show the full command:\n%s", s)
	}
	// Answered, the prompt disappears, expansion included.
	if got := scr.String(); got != "" {
		t.Errorf("screen after the answer:\n%s", got)
	}
}

func TestExpansionTallerThanTheScreenStays(t *testing.T) {
	pd := pending("write: big.txt", "", true)
	pd.Decision.Category = policy.CatWrite
	pd.Decision.Full = strings.Repeat("a line of content\n", 50)
	p, scr := prompter("?n\r", 80)
	defer scr.Close()
	p.Approve(ctxT(t), []*agent.Pending{pd})
	// Part of it scrolled away and cannot be erased: the answer follows it.
	s := scr.String()
	if !strings.Contains(s, "a line of content") || !strings.HasSuffix(strings.TrimSpace(s), "no") {
		t.Errorf("screen:\n%s", s)
	}
}

func TestWriteShowsContent(t *testing.T) {
	pd := pending("write: ~/.bashrc", "", true)
	pd.Decision.Category = policy.CatWrite
	pd.Decision.Full = "export EDITOR=vim\nalias ll='ls -l'"
	p, scr := prompter("?n\r", 80)
	defer scr.Close()
	got, _ := p.Approve(ctxT(t), []*agent.Pending{pd})
	if got[0].Approved {
		t.Fatal("approved")
	}
	s := ansi.Strip(scr.Raw())
	for _, want := range []string{"write ⚠️: ~/.bashrc", "[?] show content", "content:", "alias ll='ls -l'"} {
		if !strings.Contains(s, want) {
			t.Errorf("prompt lacks %q:\n%s", want, s)
		}
	}
	if got := scr.String(); got != "" {
		t.Errorf("screen after the answer:\n%s", got)
	}
}

func TestReasonsDoNotRepeatTheDisplay(t *testing.T) {
	pd := pending("write: notes.txt", "", true)
	pd.Decision.Category = policy.CatWrite
	pd.Decision.Reasons = []string{"writes notes.txt"}
	p, scr := prompter("n\r", 80)
	defer scr.Close()
	p.Approve(ctxT(t), []*agent.Pending{pd})
	if raw := scr.Raw(); !strings.Contains(raw, "write ⚠️: notes.txt") || strings.Contains(raw, "writes notes.txt") {
		t.Errorf("prompt:\n%s", ansi.Strip(raw))
	}
	// A reason that says more stays.
	pd = pending("delete: x", "", true)
	p, scr2 := prompter("n\r", 80)
	defer scr2.Close()
	p.Approve(ctxT(t), []*agent.Pending{pd})
	if raw := scr2.Raw(); !strings.Contains(raw, "recursive delete (rm -r)") {
		t.Errorf("prompt:\n%s", ansi.Strip(raw))
	}
}

func TestMultiLineScriptShownWhole(t *testing.T) {
	pd := pending("run (4 lines):\n  mkdir -p /tmp/build\n  cd /tmp/build\n  cmake ..\n  make -j4", "", false)
	p, scr := prompter("?y", 40)
	defer scr.Close()
	if _, err := p.Approve(ctxT(t), []*agent.Pending{pd}); err != nil {
		t.Fatal(err)
	}
	s := ansi.Strip(scr.Raw())
	for _, want := range []string{"? run (4 lines):", "    mkdir -p /tmp/build", "    make -j4"} {
		if !strings.Contains(s, want) {
			t.Errorf("prompt lacks %q:\n%s", want, s)
		}
	}
}

func TestCtrlCIsNo(t *testing.T) {
	p, scr := prompter("\x03", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if !errors.Is(err, ErrInterrupted) || len(got) != 1 || got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
	p, scr2 := prompter("\x03", 80)
	defer scr2.Close()
	got, err = p.Approve(ctxT(t), []*agent.Pending{pending("run: a", "", false), pending("run: b", "", false)})
	if !errors.Is(err, ErrInterrupted) || len(got) != 2 || got[0].Approved || got[1].Approved {
		t.Fatalf("batch: got %+v, %v", got, err)
	}
}

func TestEscIsNoWithoutReason(t *testing.T) {
	p, scr := prompter("\x1b", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if err != nil || got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestArrowKeysIgnored(t *testing.T) {
	p, scr := prompter("\x1b[A\x1b[Bx y", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if err != nil || !got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func batchOf(warn bool) []*agent.Pending {
	return []*agent.Pending{
		pending("read: /etc/hosts", "Check hosts", false),
		pending("run: ss -ltnp", "", false),
		pending("delete: /tmp/x", "", warn),
		pending("run: journalctl -u nginx --no-pager -n 50", "", false),
	}
}

func TestBatchYesToAll(t *testing.T) {
	p, scr := prompter("y", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), batchOf(true))
	if err != nil || len(got) != 4 {
		t.Fatalf("got %+v, %v", got, err)
	}
	for i, a := range got {
		if !a.Approved || a.Always {
			t.Errorf("answer %d = %+v", i, a)
		}
	}
	raw := scr.Raw()
	for _, want := range []string{"4 calls to approve", "1  read: /etc/hosts", "· Check hosts", "3  delete ⚠️: /tmp/x", "[y]es to all  [N]o to all  [o]ne by one"} {
		if !strings.Contains(raw, want) {
			t.Errorf("batch prompt lacks %q:\n%q", want, raw)
		}
	}
	if s := scr.String(); s != "" {
		t.Errorf("batch prompt left on screen:\n%s", s)
	}
}

func TestBatchEnterDefaults(t *testing.T) {
	p, scr := prompter("\r", 80)
	defer scr.Close()
	got, _ := p.Approve(ctxT(t), batchOf(false))
	for i, a := range got {
		if !a.Approved {
			t.Errorf("unwarned batch, Enter: answer %d = %+v", i, a)
		}
	}
	p, scr2 := prompter("\rtoo many\r", 80)
	defer scr2.Close()
	got, _ = p.Approve(ctxT(t), batchOf(true))
	for i, a := range got {
		if a.Approved || a.Reason != "too many" {
			t.Errorf("warned batch, Enter: answer %d = %+v", i, a)
		}
	}
}

func TestBatchOneByOne(t *testing.T) {
	p, scr := prompter("oyn\r\r\ra", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), batchOf(true))
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.Answer{{Approved: true}, {}, {}, {Approved: true, Always: true}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("answer %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	raw := scr.Raw()
	if !strings.Contains(raw, "1/4") || !strings.Contains(raw, "4/4") {
		t.Errorf("one-by-one prompts lack counters:\n%q", raw)
	}
	if !strings.Contains(scr.String(), "saved rule: journalctl *") {
		t.Errorf("Always in one-by-one did not show the rule:\n%s", scr.String())
	}
}

func TestNarrowBatch(t *testing.T) {
	p, scr := prompter("n\r", 40)
	defer scr.Close()
	if _, err := p.Approve(ctxT(t), batchOf(true)); err != nil {
		t.Fatal(err)
	}
	// Every line the prompt drew fits in 40 columns.
	for _, l := range strings.Split(strings.ReplaceAll(style.Strip(scr.Raw()), "\r", ""), "\n") {
		if style.Width(l) > 40 {
			t.Errorf("line wider than 40 columns: %q", l)
		}
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestColourOnlyWhenAsked(t *testing.T) {
	var plain, coloured bytes.Buffer
	p := &Prompter{In: strings.NewReader("y"), Fd: -1, Out: &plain, Width: func() int { return 80 }}
	_, _ = p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if sgr.MatchString(plain.String()) {
		t.Errorf("colour escapes with colour off: %q", plain.String())
	}
	p = &Prompter{In: strings.NewReader("y"), Fd: -1, Out: &coloured, Width: func() int { return 80 }, Palette: style.Palette{Color: true}}
	_, _ = p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if !sgr.MatchString(coloured.String()) {
		t.Errorf("no colour with colour on: %q", coloured.String())
	}
}

func TestReaderEndsIsNo(t *testing.T) {
	p, scr := prompter("", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: make", "", false)})
	if err == nil || got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// TestDisplayLine: the warning sign is drawn where the engine's decision
// marks it, in every form the engine produces, and nowhere else.
func TestDisplayLine(t *testing.T) {
	e := engine(t)
	cc := policy.CommandContext{Cwd: "/home/u/p", Home: "/home/u", Facts: policy.NoFacts{}}
	run := func(cmd string) policy.Action {
		return policy.Action{Kind: policy.RunCommand, Command: cmd, Where: cc}
	}
	input := func(program string, shell bool, prompt policy.PromptKind, text string) policy.Action {
		return policy.Action{Kind: policy.SessionInput, Session: "term-1", Program: program, Shell: shell, InShell: shell,
			SessionProgram: program, Prompt: prompt, PromptText: "Continue?", Input: text, Where: cc}
	}
	for _, c := range []struct {
		a    policy.Action
		want string
	}{
		{run("sudo rm -rf /tmp/cache"), "run ⚠️: sudo rm -rf /tmp/cache"},
		{run("rm -rf /tmp/cache"), "delete ⚠️: /tmp/cache"},
		{run("cd /x\nrm -rf y"), "run ⚠️ (2 lines):\n  cd /x\n  rm -rf y"},
		{run("echo hi > notes.txt"), "write ⚠️: notes.txt"},
		{run("ls -la"), "run: ls -la"},
		{input("bash", true, policy.NoPrompt, "ls; rm -rf ~\n"), "input → term-1 (bash) run ⚠️: ls; rm -rf ~"},
		{input("bash", true, policy.NoPrompt, "rm -rf /tmp/x\n"), "input → term-1 (bash) delete ⚠️: /tmp/x"},
		{input("python3", false, policy.NoPrompt, "import os; os.system('rm -rf x')\n"), "input ⚠️ → term-1 (python3): import os; os.system('rm -rf x')"},
		{input("python3", false, policy.Question, "__import__('os').system('rm -rf x')\n"), "answer ⚠️ → term-1 (python3) \"Continue?\": __import__('os').system('rm -rf x')"},
		{policy.Action{Kind: policy.RunCommand, Command: "bash", Input: "rm -rf /tmp/x\n", Program: "bash", Shell: true, Where: cc},
			"run: bash\ninput → new session (bash) delete ⚠️: /tmp/x"},
		{policy.Action{Kind: policy.RunCommand, Command: "rm -rf /tmp/x", Hosts: []string{"a", "b"}, Selection: "@web", Where: cc},
			"delete ⚠️ on 2 hosts (@web): /tmp/x"},
		{policy.Action{Kind: policy.WriteFile, Path: "/home/u/p/a.txt", Shown: "a.txt", Content: "x", Where: cc}, "write ⚠️: a.txt"},
		{policy.Action{Kind: policy.MCPTool, Tool: "fs_delete2", Args: map[string]any{"path": "/x"}, Hint: policy.ToolHint{AlwaysWarn: true}},
			`fs_delete2 ⚠️: {"path":"/x"}`},
	} {
		d := e.Decide(c.a)
		if got := DisplayLine(d); got != c.want {
			t.Errorf("%s %q %q: DisplayLine = %q, want %q", c.a.Kind, c.a.Command, c.a.Input, got, c.want)
		}
		if strings.Contains(d.Display, style.IconWarn) {
			t.Errorf("%s %q: the decision's display %q holds the sign", c.a.Kind, c.a.Command, d.Display)
		}
	}
	// nothing marked: in front of the line; marks that do not fit the
	// line are not trusted
	for _, d := range []*policy.Decision{
		{Display: "run outside the sandbox: make", Warn: true},
		{Display: "run: x", Warn: true, WarnAt: []int{99}},
		{Display: "run: x", Warn: true, WarnAt: []int{3, 1}},
		{Display: "→: x", Warn: true, WarnAt: []int{1}},
	} {
		if got := DisplayLine(d); got != style.IconWarn+" "+d.Display {
			t.Errorf("%q marked %v: %q", d.Display, d.WarnAt, got)
		}
	}
	if got := DisplayLine(&policy.Decision{Display: "read: x", WarnAt: []int{4}}); got != "read: x" {
		t.Errorf("unwarned display changed: %q", got)
	}
}

func TestHostileDisplayNeutralised(t *testing.T) {
	var out bytes.Buffer
	pd := pending("run: echo \x1b]0;pwned\x07\x1b[2Jhi", "intent \x1b[1A up", false)
	pd.Decision.Reasons = []string{"\x1b[31mreason"}
	pd.Decision.Full = "echo \x1b[2J full"
	p := &Prompter{In: strings.NewReader("?y"), Fd: -1, Out: &out, Width: func() int { return 80 }}
	if _, err := p.Approve(ctxT(t), []*agent.Pending{pd}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1b[31m", "\x1b[1A", "\x07"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("prompt carries %q: %q", bad, out.String())
		}
	}
}

func TestEraseKeepsTheTranscript(t *testing.T) {
	script := "run (3 lines):\n  " + strings.Repeat("echo wrapping-line ", 4) + "\n  cd /tmp\n  " + strings.Repeat("x", 36)
	for _, keys := range []string{"y", "n" + strings.Repeat("a reason that wraps ", 2) + "\r", "\x1b"} {
		scr := screentest.New(40, 30, true)
		_, _ = scr.Write([]byte("KEEP ME\n"))
		p := &Prompter{In: strings.NewReader(keys), Fd: -1, Out: scr, Width: func() int { return 40 }}
		pd := pending(script, strings.Repeat("a description that wraps ", 2), false)
		if _, err := p.Approve(ctxT(t), []*agent.Pending{pd}); err != nil {
			t.Fatal(err)
		}
		if got := scr.String(); got != "KEEP ME" {
			t.Errorf("keys %q: screen after the prompt:\n%s", keys, got)
		}
		scr.Close()
	}
}

func TestSessionGrant(t *testing.T) {
	p, scr := prompter("?s", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pending("run: make test", "", false)})
	if err != nil || !got[0].Approved || !got[0].Session || got[0].Always {
		t.Fatalf("got %+v, %v", got, err)
	}
	s := ansi.Strip(scr.Raw())
	if !strings.Contains(s, "[s] allows it for this session only") || !strings.Contains(scr.String(), "allowed for this session: make *") {
		t.Errorf("screen:\n%s", s)
	}
	// Not for warned calls.
	p, scr2 := prompter("s\r", 80)
	defer scr2.Close()
	got, _ = p.Approve(ctxT(t), []*agent.Pending{pending("delete: x", "", true)})
	if got[0].Approved || got[0].Session {
		t.Fatalf("warned call: %+v", got)
	}
}

// TestPromptSaysWhy: a prompt says why it asks in one row under the call:
// the most telling reason (a secret read before not being known to be
// read-only), cut to the width; a warned call its reasons. Narrow
// terminals still show every key, [s] included.
func TestPromptSaysWhy(t *testing.T) {
	pd := pending("read: .env", "", false)
	pd.Decision.Reasons = []string{"cat is not on the safe list", "sensitive: cat reads .env", "git push is not known to be read-only"}
	p, scr := prompter("y", 80)
	defer scr.Close()
	if _, err := p.Approve(ctxT(t), []*agent.Pending{pd}); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(ansi.Strip(scr.Raw()), "\r\n")
	if len(rows) < 3 || rows[1] != "  sensitive: cat reads .env" {
		t.Fatalf("rows %q", rows)
	}
	pd.Decision.Reasons = []string{"sensitive: " + strings.Repeat("x", 200)}
	p, scr = prompter("y", 30)
	defer scr.Close()
	p.Approve(ctxT(t), []*agent.Pending{pd})
	raw := ansi.Strip(scr.Raw())
	if rows := strings.Split(raw, "\r\n"); style.Width(rows[1]) > 29 {
		t.Errorf("the reason takes more than a row: %q", rows[1])
	}
	if !strings.Contains(raw, "[Y]  [n]  [a]  [s]  [?]") {
		t.Errorf("narrow prompt: %q", raw)
	}
	p, scr = prompter("n\r", 80)
	defer scr.Close()
	p.Approve(ctxT(t), []*agent.Pending{pending("delete: x", "", true)})
	if !strings.Contains(ansi.Strip(scr.Raw()), "\r\n  recursive delete (rm -r)\r\n") {
		t.Errorf("warned: %q", scr.Raw())
	}
}
