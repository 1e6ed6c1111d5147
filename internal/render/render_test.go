package render

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
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

func call(display string, verdict policy.Verdict) *agent.Pending {
	return &agent.Pending{
		Call:     &tool.Call{ID: "1", Name: "run_cmd"},
		Decision: &policy.Decision{Decision: verdict, Display: display, DefaultAnswer: "yes"},
	}
}

func exit(n int) *int { return &n }

func TestToolLines(t *testing.T) {
	pal := style.Palette{}
	cases := []struct {
		name    string
		p       *agent.Pending
		res     *tool.Result
		at80    string
		at40    string
		refused string
	}{
		{
			name: "ok",
			p:    call("read: /etc/hosts", policy.Allow),
			res:  &tool.Result{ExitCode: exit(0), Duration: 12 * time.Millisecond},
			at80: "✓ read: /etc/hosts  exit 0 · 12ms",
			at40: "✓ read: /etc/hosts  exit 0 · 12ms",
		},
		{
			name: "failed with note",
			p:    call("run: make", policy.Ask),
			res:  &tool.Result{ExitCode: exit(2), Duration: 1300 * time.Millisecond, Note: "make: *** No rule to make target 'all'.  Stop."},
			at80: "✗ run: make  exit 2 · 1.3s  make: *** No rule to make target 'all'. Stop.",
			at40: "✗ run: make  exit 2 · 1.3s  make: *** …",
		},
		{
			name: "long command",
			p:    call("run: journalctl -u nginx --since '2 hours ago' --no-pager | grep -i error | tail -n 50", policy.Ask),
			res:  &tool.Result{ExitCode: exit(0), Duration: 2*time.Minute + 5*time.Second},
			at80: "✓ run: journalctl -u nginx --since '2 hours ago' --no-pager | …  exit 0 · 2m05s",
			at40: "✓ run: journalctl -u n…  exit 0 · 2m05s",
		},
		{
			name: "tool error without exit code",
			p:    call("github_create_issue", policy.Ask),
			res:  &tool.Result{Content: "error: invalid arguments JSON\nmore", IsError: true, Duration: 3 * time.Millisecond},
			at80: "✗ github_create_issue  3ms  error: invalid arguments JSON",
			at40: "✗ github_create_issue  3ms  error: inv…",
		},
		{
			name: "withheld",
			p:    call("read: .env", policy.Allow),
			res:  &tool.Result{ExitCode: exit(0), Duration: 3 * time.Millisecond, Withheld: []redact.Count{{Kind: "github-pat", Count: 1}, {Kind: "$AWS_SECRET_ACCESS_KEY", Count: 2}}},
			at80: "✓ read: .env  exit 0 · 3ms · withheld 3 secrets  github-pat, 2 × $AWS_SECRET_A…",
			at40: "✓ read: .env  withheld 3 secrets",
		},
		{
			name: "script",
			p:    call("run (3 lines):\n  mkdir -p /tmp/b\n  cd /tmp/b\n  make", policy.Ask),
			res:  &tool.Result{ExitCode: exit(0), Duration: 40 * time.Millisecond},
			at80: "✓ run (3 lines): mkdir -p /tmp/b ↵ cd /tmp/b ↵ make  exit 0 · 40ms",
			at40: "✓ run (3 lines): mkdir …  exit 0 · 40ms",
		},
	}
	for _, c := range cases {
		if got := toolLine(pal, c.p, c.res, 79); got != c.at80 {
			t.Errorf("%s at 80:\n got %q\nwant %q", c.name, got, c.at80)
		}
		if got := toolLine(pal, c.p, c.res, 39); got != c.at40 {
			t.Errorf("%s at 40:\n got %q\nwant %q", c.name, got, c.at40)
		}
		if w := style.Width(toolLine(pal, c.p, c.res, 39)); w > 39 {
			t.Errorf("%s at 40: width %d", c.name, w)
		}
		// Not a terminal: nothing is cut.
		if got := toolLine(pal, c.p, c.res, 0); strings.Contains(got, "…") {
			t.Errorf("%s without a width was cut: %q", c.name, got)
		}
	}
	if got := refusedLine(pal, call("delete: /tmp/x", policy.Ask), "declined", 79); got != "⊘ delete: /tmp/x  declined" {
		t.Errorf("refused line = %q", got)
	}
}

func TestToolLineColours(t *testing.T) {
	pal := style.Palette{Color: true}
	auto := toolLine(pal, call("read: /etc/hosts", policy.Allow), &tool.Result{ExitCode: exit(0)}, 79)
	if !strings.Contains(auto, "\x1b[90mread: /etc/hosts") {
		t.Errorf("auto-approved call not muted: %q", auto)
	}
	withheld := toolLine(pal, call("read: .env", policy.Allow), &tool.Result{ExitCode: exit(0), Withheld: []redact.Count{{Kind: "jwt", Count: 1}}}, 79)
	if !strings.Contains(withheld, "\x1b[33mwithheld 1 secret") {
		t.Errorf("what was withheld does not stand out: %q", withheld)
	}
	asked := toolLine(pal, call("run: make", policy.Ask), &tool.Result{ExitCode: exit(1)}, 79)
	if !strings.HasPrefix(asked, "\x1b[31m✗") || strings.Contains(asked, "\x1b[90mrun: make") {
		t.Errorf("failed asked call: %q", asked)
	}
}

var anyEscape = regexp.MustCompile(`\x1b`)
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// plainIO is a run with stdout and stderr redirected to files.
func plainIO() (*iostreams.IO, *bytes.Buffer, *bytes.Buffer) {
	io, _, out, errOut := iostreams.Test(nil)
	return io, out, errOut
}

func TestNotATerminal(t *testing.T) {
	io, out, errOut := plainIO()
	term := New(io, Options{Markdown: true})
	defer term.Close()
	term.Waiting()
	term.Text("# Title\n\nSome **bold** ")
	term.Text("text.\n")
	term.EndText()
	v := term.ToolStart(call("run: make", policy.Ask))
	v.Output("stdout", []byte("building\n"))
	v.Done(&tool.Result{ExitCode: exit(0), Duration: time.Second})
	term.Notice(agent.NoticeWarn, "rate limited; retrying in 2s")
	term.Waiting()
	term.Text("Done")
	term.EndText()

	if got, want := out.String(), "# Title\n\nSome **bold** text.\nDone\n"; got != want {
		t.Errorf("stdout = %q, want only the raw answer %q", got, want)
	}
	if anyEscape.MatchString(errOut.String()) {
		t.Errorf("escape sequences on a non-terminal stderr: %q", errOut.String())
	}
	if got, want := errOut.String(), "✓ run: make  exit 0 · 1.0s\n! rate limited; retrying in 2s\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
}

func TestHeadlessApprove(t *testing.T) {
	io, _, errOut := plainIO()
	asked := false
	term := New(io, Options{Approver: approverFunc(func() { asked = true })})
	defer term.Close()
	got, err := term.Approve(ctxT(t), []*agent.Pending{call("run: make", policy.Ask)})
	if !errors.Is(err, approval.ErrNoTerminal) || len(got) != 1 || got[0].Approved || asked {
		t.Fatalf("got %+v, %v (asked %v)", got, err, asked)
	}
	if errOut.Len() != 0 {
		t.Errorf("headless approval drew something: %q", errOut.String())
	}
}

type approverFunc func()

func (f approverFunc) Approve(ctx context.Context, batch []*agent.Pending) ([]agent.Answer, error) {
	f()
	return make([]agent.Answer, len(batch)), nil
}

// ttyIO is a terminal session drawn on a virtual screen of width w.
func ttyIO(w int, color bool) (*iostreams.IO, *screentest.Screen) {
	scr := screentest.New(w, 30, true)
	io, _, _, _ := iostreams.Test(nil)
	io.Out, io.Err = scr, scr
	io.InTTY, io.OutTTY, io.ErrTTY, io.Color = true, true, true, color
	io.Width = func() int { return w }
	return io, scr
}

func TestLiveOutputCollapses(t *testing.T) {
	ctx := ctxT(t)
	io, scr := ttyIO(80, true)
	defer scr.Close()
	term := New(io, Options{LiveLines: 3, Frame: 5 * time.Millisecond, LiveDelay: time.Millisecond})
	defer term.Close()
	term.Notice(agent.NoticeInfo, "before")
	v := term.ToolStart(call("run: ./slow.sh", policy.Ask))
	for i := 1; i <= 6; i++ {
		v.Output("stdout", []byte("step "+string(rune('0'+i))+"\n"))
	}
	v.Output("stdout", []byte("progress 10%\rprogress 90%"))
	if err := scr.WaitFor(ctx, "live area", func(s string) bool {
		return strings.Contains(s, "run: ./slow.sh") && strings.Contains(s, "progress 90%") && strings.Contains(s, "step 6")
	}); err != nil {
		t.Fatal(err)
	}
	if s := scr.String(); strings.Contains(s, "step 3") || strings.Contains(s, "progress 10%") {
		t.Errorf("live area shows more than its last lines:\n%s", s)
	}
	v.Done(&tool.Result{ExitCode: exit(0), Duration: 2 * time.Second})
	if got, want := scr.String(), "before\n✓ run: ./slow.sh  exit 0 · 2.0s"; got != want {
		t.Errorf("screen after the call:\n%s\nwant:\n%s", got, want)
	}
}

func TestNoticeDuringLiveArea(t *testing.T) {
	ctx := ctxT(t)
	io, scr := ttyIO(60, false)
	defer scr.Close()
	term := New(io, Options{Frame: 5 * time.Millisecond, LiveDelay: time.Millisecond})
	defer term.Close()
	v := term.ToolStart(call("run: sleep 5", policy.Ask))
	v.Output("stdout", []byte("tick\n"))
	if err := scr.WaitText(ctx, "tick"); err != nil {
		t.Fatal(err)
	}
	term.Notice(agent.NoticeWarn, "something happened")
	v.Done(&tool.Result{ExitCode: exit(0), Duration: time.Second})
	if got, want := scr.String(), "! something happened\n✓ run: sleep 5  exit 0 · 1.0s"; got != want {
		t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
}

func TestSpinnerErasedOnFirstToken(t *testing.T) {
	ctx := ctxT(t)
	io, scr := ttyIO(80, true)
	defer scr.Close()
	term := New(io, Options{Markdown: true, Frame: 5 * time.Millisecond})
	defer term.Close()
	term.Waiting()
	if err := scr.WaitText(ctx, "thinking"); err != nil {
		t.Fatal(err)
	}
	term.Text("Hello")
	term.EndText()
	if got := scr.String(); got != "Hello" {
		t.Errorf("screen = %q, want %q", got, "Hello")
	}
}

func TestNoColorOnTerminal(t *testing.T) {
	io, scr := ttyIO(80, false)
	defer scr.Close()
	term := New(io, Options{Markdown: true, Verbose: true})
	defer term.Close()
	term.Waiting()
	term.Text("## Heading\n\n- **item** with `code`\n\n```sh\nls -l\n```\n")
	term.EndText()
	v := term.ToolStart(call("run: false", policy.Ask))
	v.Done(&tool.Result{ExitCode: exit(1), Content: `{"exitCode":1}`})
	term.Refused(call("delete: /x", policy.Ask), "declined")
	if raw := scr.Raw(); sgr.MatchString(raw) {
		t.Errorf("colour escapes with NO_COLOR: %q", raw)
	}
	want := "## Heading\n\n• item with code\n\n  ls -l\n✗ run: false  exit 1\n  exitCode: 1\n⊘ delete: /x  declined"
	if got := scr.String(); got != want {
		t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
}

func TestNarrowTerminal(t *testing.T) {
	io, scr := ttyIO(40, false)
	defer scr.Close()
	term := New(io, Options{Markdown: true})
	defer term.Close()
	term.Text("The service fails because the configuration file has a syntax error on line 12.\n")
	term.EndText()
	v := term.ToolStart(call("run: systemctl status nginx --no-pager --full", policy.Allow))
	v.Done(&tool.Result{ExitCode: exit(3), Duration: 45 * time.Millisecond, Note: "Active: failed (Result: exit-code)"})
	for _, l := range strings.Split(scr.String(), "\n") {
		if style.Width(l) > 40 {
			t.Errorf("line wider than 40 columns: %q", l)
		}
	}
	if !strings.Contains(scr.String(), "✗ run: systemctl status…  exit 3 · 45ms") {
		t.Errorf("screen:\n%s", scr.String())
	}
}

func TestVerboseAndLast(t *testing.T) {
	io, _, errOut := plainIO()
	term := New(io, Options{Verbose: true, KeepResults: 2})
	defer term.Close()
	for i, c := range []string{"first", "second", "third"} {
		v := term.ToolStart(call("run: echo "+c, policy.Ask))
		v.Done(&tool.Result{Content: `{"stdout":"` + c + `\n"}`, ExitCode: exit(0), Duration: time.Duration(i+1) * time.Millisecond})
	}
	if !strings.Contains(errOut.String(), "✓ run: echo second  exit 0 · 2ms\n  stdout: second\n") {
		t.Errorf("verbose output:\n%s", errOut.String())
	}
	last := term.LastResults()
	if len(last) != 2 || last[0].Content != `{"stdout":"second\n"}` || last[1].Summary != "✓ run: echo third  exit 0 · 3ms" {
		t.Fatalf("LastResults = %+v", last)
	}
	errOut.Reset()
	if !term.ShowLast(2) || errOut.String() != "✓ run: echo second  exit 0 · 2ms\n  stdout: second\n" {
		t.Errorf("ShowLast(2) wrote %q", errOut.String())
	}
	if term.ShowLast(3) {
		t.Error("ShowLast beyond the kept results")
	}
}

func TestApproveErasesSpinnerAndUsesApprover(t *testing.T) {
	io, scr := ttyIO(80, false)
	defer scr.Close()
	asked := false
	term := New(io, Options{Approver: approverFunc(func() { asked = true })})
	defer term.Close()
	term.Waiting()
	if _, err := term.Approve(ctxT(t), []*agent.Pending{call("run: make", policy.Ask)}); err != nil || !asked {
		t.Fatalf("err %v asked %v", err, asked)
	}
	if s := scr.String(); s != "" {
		t.Errorf("spinner left on screen: %q", s)
	}
}

func TestListings(t *testing.T) {
	pal := style.Palette{}
	got := FormatGrants(pal, []policy.Grant{{Rule: "git status *", Scope: policy.ScopeProject}, {Rule: "ls", Scope: policy.ScopeSession}})
	want := "approvals (revoke with /approvals revoke N)\n  1  git status *  this project\n  2  ls            this session\n"
	if got != want {
		t.Errorf("FormatGrants:\n%q\nwant\n%q", got, want)
	}
	if got := FormatGrants(pal, nil); !strings.Contains(got, "no approvals") {
		t.Errorf("empty grants: %q", got)
	}
	if i, err := GrantIndex("2", 2); err != nil || i != 1 {
		t.Errorf("GrantIndex = %d, %v", i, err)
	}
	if _, err := GrantIndex("3", 2); err == nil {
		t.Error("GrantIndex accepted 3 of 2")
	}
	rows := []SessionRow{{ID: "term-1", Command: "npm run dev", Running: true, Uptime: 125 * time.Second}, {ID: "term-12", Command: "python3 -i", Uptime: 4100 * time.Millisecond}}
	got = FormatSessions(pal, rows, 0)
	want = "term-1   running  2m05s  npm run dev\nterm-12  exited   4.1s   python3 -i\n"
	if got != want {
		t.Errorf("FormatSessions:\n%q\nwant\n%q", got, want)
	}
}

func TestInterruptAtPromptCallsOnInterrupt(t *testing.T) {
	io, scr := ttyIO(80, false)
	defer scr.Close()
	keys := strings.NewReader("\x03")
	interrupted := false
	term := New(io, Options{
		Approver:    &approval.Prompter{In: keys, Fd: -1, Out: scr, Width: func() int { return 80 }},
		OnInterrupt: func() { interrupted = true },
	})
	defer term.Close()
	got, err := term.Approve(ctxT(t), []*agent.Pending{call("run: make", policy.Ask)})
	if !errors.Is(err, approval.ErrInterrupted) || got[0].Approved || !interrupted {
		t.Fatalf("got %+v, %v, interrupted %v", got, err, interrupted)
	}
}

func TestResizeDuringLiveArea(t *testing.T) {
	ctx := ctxT(t)
	io, scr := ttyIO(80, false)
	defer scr.Close()
	width := 80
	var mu = make(chan int, 1)
	mu <- width
	io.Width = func() int { w := <-mu; mu <- w; return w }
	term := New(io, Options{Frame: 5 * time.Millisecond, LiveDelay: time.Millisecond})
	defer term.Close()
	long := "run: " + strings.Repeat("x", 70)
	v := term.ToolStart(call(long, policy.Ask))
	v.Output("stdout", []byte(strings.Repeat("y", 70)+"\n"))
	if err := scr.WaitText(ctx, "yyyy"); err != nil {
		t.Fatal(err)
	}
	// The terminal shrinks: the next frames and the summary fit the new width.
	<-mu
	mu <- 40
	scr.Resize(40, 30)
	time.Sleep(30 * time.Millisecond)
	v.Done(&tool.Result{ExitCode: exit(0), Duration: time.Second})
	lines := strings.Split(scr.String(), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "✓ run: xxx") || !strings.HasSuffix(last, "exit 0 · 1.0s") || style.Width(last) > 40 {
		t.Errorf("summary after resize = %q; screen:\n%s", last, scr.String())
	}
	if strings.Contains(scr.String(), "yyyy") {
		t.Errorf("live output left after resize:\n%s", scr.String())
	}
}

func TestWarningStaysInThePrompt(t *testing.T) {
	warned := func(display string, at int) *agent.Pending {
		p := call(display, policy.Ask)
		p.Decision.Warn, p.Decision.Safety, p.Decision.DefaultAnswer, p.Decision.WarnAt = true, policy.Dangerous, policy.No, []int{at}
		return p
	}
	got := refusedLine(style.Palette{}, warned("delete: /tmp/x", 6), "declined", 79)
	if got != "⊘ delete: /tmp/x  declined" {
		t.Errorf("refused line = %q", got)
	}
	got = toolLine(style.Palette{}, warned("run (2 lines):\n  cd /x\n  rm -rf y", 3), &tool.Result{ExitCode: exit(0)}, 79)
	if got != "✓ run (2 lines): cd /x ↵ rm -rf y  exit 0" {
		t.Errorf("tool line = %q", got)
	}
}

func TestHostileTextIsNeutralised(t *testing.T) {
	io, _, errOut := plainIO()
	io.ErrTTY = true
	term := New(io, Options{Verbose: true, LiveDelay: time.Hour})
	defer term.Close()
	evil := "run: echo \x1b]0;pwned\x07\x1b[2J\x1b[31mred"
	v := term.ToolStart(call(evil, policy.Ask))
	v.Output("stdout", []byte("\x1b[2Jcleared\n"))
	v.Done(&tool.Result{ExitCode: exit(1), Note: "\x1b[1Anote", Content: "\x1b]52;c;ZXZpbA==\x07clip"})
	term.Notice(agent.NoticeError, "provider said \x1b[2J\nsecond line")
	out := errOut.String()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x1b[31m", "\x1b[1A", "\x07"} {
		if strings.Contains(out, bad) {
			t.Errorf("output carries %q: %q", bad, out)
		}
	}
	if !strings.Contains(out, "✗ second line") && !strings.Contains(out, "  second line") {
		t.Errorf("multi-line notice: %q", out)
	}
}

func TestResultLines(t *testing.T) {
	got := resultLines(`{"stdout":"a\nb\n","stderr":"","exitCode":0,"cwd":"/w","timedOut":false,"list":[1, 2]}`)
	want := []string{"stdout:", "  a", "  b", `stderr: ""`, "exitCode: 0", "cwd: /w", "timedOut: false", "list: [1,2]"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("resultLines = %q, want %q", got, want)
	}
	if got := resultLines("not json\nline 2"); len(got) != 2 || got[1] != "line 2" {
		t.Errorf("plain result = %q", got)
	}
	if got := resultLines(`{"a":1} trailing`); len(got) != 1 {
		t.Errorf("JSON with trailing text should stay raw: %q", got)
	}
}

func TestExitOneAnswersAreNotFailures(t *testing.T) {
	pal := style.Palette{Color: true}
	runCmd := func(command string) *agent.Pending {
		p := call("run: "+command, policy.Allow)
		p.Call.Args = []byte(`{"command":` + strconv.Quote(command) + `}`)
		return p
	}
	for command, note := range map[string]string{
		"grep -c TODO notes.txt": "no match",
		"ps aux | grep -q nginx": "no match",
		"diff a.txt b.txt":       "files differ",
		"test -f /etc/missing":   "false",
		"[[ -d build ]]":         "false",
		"git grep -n needle":     "no match",
	} {
		got := toolLine(pal, runCmd(command), &tool.Result{ExitCode: exit(1)}, 79)
		if !strings.HasPrefix(got, pal.OK(style.IconOK)) || !strings.HasSuffix(style.Strip(got), note) || strings.Contains(got, "\x1b[31m") {
			t.Errorf("%s exit 1: %q", command, got)
		}
	}
	// Exit 2 of grep is an error; exit 1 of make, or after && is a failure.
	for command, code := range map[string]int{"grep -c x notes.txt": 2, "make": 1, "cd src && grep x f": 1} {
		if got := toolLine(pal, runCmd(command), &tool.Result{ExitCode: exit(code)}, 79); !strings.HasPrefix(got, pal.Fail(style.IconFail)) {
			t.Errorf("%s exit %d: %q", command, code, got)
		}
	}
}
