//go:build unix

package uitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/render/screentest"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/testenv"
)

var (
	nbBin    string
	buildErr error
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run()) // every test skips: building nb takes a while
	}
	dir, err := os.MkdirTemp("", "nb-uitest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nbBin = filepath.Join(dir, "nb")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	args := []string{"build", "-o", nbBin}
	if os.Getenv("NB_UITEST_RACE") != "" {
		args = append(args, "-race") // a data race makes nb exit 66 and fail the test
	}
	out, err := exec.CommandContext(ctx, "go", append(args, "github.com/nb-cli/nb/cmd/nb")...).CombinedOutput()
	cancel()
	if err != nil {
		buildErr = fmt.Errorf("go build: %v\n%s", err, out)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// nb is one run of the binary in a PTY, drawn on a virtual screen.
type nb struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	scr  *screentest.Screen
	work string

	readDone chan struct{}
	exited   chan struct{}
	waitErr  error
}

type runOpts struct {
	cols, rows int
	env        []string
	args       []string
	// stdout, when set, receives nb's standard output instead of the
	// terminal (a pipe: nb ... | cat).
	stdout io.Writer
}

func setup(t *testing.T) (work string, env []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: builds and runs nb")
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	root := t.TempDir()
	work = filepath.Join(root, "work")
	for _, d := range []string{"work", "home", "config", "state", "data", "cache"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "config"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"),
		"XDG_DATA_HOME=" + filepath.Join(root, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "cache"),
		"LANG=C.UTF-8",
		"OPENAI_API_KEY=sk-test",
	}
	return work, env
}

// commitRepo makes work a git repository with one commit, with env's
// home and configuration.
func commitRepo(t *testing.T, work string, env []string) {
	t.Helper()
	git := testenv.Tool(t, "git")
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir, cmd.Env = work, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
}

func server(t *testing.T, turns ...llmtest.Turn) *llmtest.Server {
	return llmtest.NewOpenAI(t, turns...)
}

// start runs nb in a PTY of the given size in work.
func start(t *testing.T, srv *llmtest.Server, work string, env []string, o runOpts) *nb {
	t.Helper()
	if o.cols == 0 {
		o.cols, o.rows = 80, 24
	}
	cmd := exec.Command(nbBin, o.args...)
	cmd.Dir = work
	cmd.Stdout = o.stdout // nil: the terminal
	cmd.Env = append(append(env, "TERM=xterm-256color", "OPENAI_BASE_URL="+srv.URL()), o.env...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(o.cols), Rows: uint16(o.rows)})
	if err != nil {
		t.Fatal(err)
	}
	n := &nb{t: t, cmd: cmd, ptmx: ptmx, work: work, readDone: make(chan struct{}), exited: make(chan struct{})}
	n.scr = screentest.NewReplying(o.cols, o.rows, false, ptmx)
	go func() {
		defer close(n.readDone)
		_, _ = io.Copy(n.scr, ptmx)
	}()
	go func() {
		defer close(n.exited)
		n.waitErr = cmd.Wait()
	}()
	t.Cleanup(n.stop)
	return n
}

func (n *nb) stop() {
	select {
	case <-n.exited:
	default:
		_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
		<-n.exited
	}
	_ = n.ptmx.Close()
	<-n.readDone
	n.scr.Close()
}

func (n *nb) send(keys string) {
	n.t.Helper()
	if _, err := n.ptmx.Write([]byte(keys)); err != nil {
		n.t.Fatalf("send %q: %v", keys, err)
	}
}

func (n *nb) waitText(ctx context.Context, text string) {
	n.t.Helper()
	if err := n.scr.WaitText(ctx, text); err != nil {
		n.t.Fatal(err)
	}
}

// waitExit waits for nb to end and returns its exit code.
func (n *nb) waitExit(ctx context.Context) int {
	n.t.Helper()
	select {
	case <-n.exited:
	case <-ctx.Done():
		n.t.Fatalf("nb did not exit; screen:\n%s", n.scr.String())
	}
	// Let the last output reach the screen.
	select {
	case <-n.readDone:
	case <-time.After(2 * time.Second):
	}
	n.t.Logf("final screen:\n%s", n.scr.String())
	if os.Getenv("NB_UI_RAW") != "" {
		n.t.Logf("raw:\n%q", n.scr.Raw())
	}
	var ee *exec.ExitError
	if errors.As(n.waitErr, &ee) {
		return ee.ExitCode()
	}
	if n.waitErr != nil {
		n.t.Fatal(n.waitErr)
	}
	return 0
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func runCmd(command, description string) llmtest.ToolCall {
	args := map[string]string{"command": command}
	if description != "" {
		args["description"] = description
	}
	b, _ := json.Marshal(args)
	return llmtest.ToolCall{Name: "run_cmd", Arguments: string(b)}
}

// lineWith returns the screen line containing s.
func lineWith(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	return err == nil
}

func TestSingleCallOneLine(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	if err := os.WriteFile(filepath.Join(work, "hello.txt"), []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("cat hello.txt", "Read the greeting")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "hello world"}, Text: "The file says **hello world**."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"what does hello.txt say?"}})
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	screen := n.scr.String()
	line := lineWith(screen, "read: hello.txt")
	if !strings.HasPrefix(line, "✓ read: hello.txt") || !strings.Contains(line, "exit 0") {
		t.Errorf("tool line = %q; screen:\n%s", line, screen)
	}
	if strings.Count(screen, "hello.txt") != 1 {
		t.Errorf("the call takes more than one line:\n%s", screen)
	}
	if !strings.Contains(screen, "The file says hello world.") {
		t.Errorf("answer not rendered as markdown:\n%s", screen)
	}
}

func TestWarnedCallEnterIsNo(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	victim := filepath.Join(work, "victim")
	if err := os.MkdirAll(filepath.Join(victim, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("rm -r victim", "Remove the old build directory")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "declined"}, Text: "Left it alone."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"clean up"}})
	n.waitText(ctx, "[N]o")
	screen := n.scr.String()
	for _, want := range []string{"Remove the old build directory", "delete ⚠️: victim", "recursive delete", "[y]es  [N]o  [?]"} {
		if !strings.Contains(screen, want) {
			t.Errorf("prompt lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "lways") {
		t.Errorf("warned prompt offers Always:\n%s", screen)
	}
	n.send("\r")
	n.waitText(ctx, "reason")
	n.send("\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	if !exists(t, victim) {
		t.Fatal("Enter on a warned prompt deleted the directory")
	}
	if l := lineWith(n.scr.String(), "victim"); !strings.HasPrefix(l, "⊘") {
		t.Errorf("refused line = %q; screen:\n%s", l, n.scr.String())
	}
}

func TestBatchApprovedAtOnce(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("mkdir d1", ""), runCmd("mkdir d2", ""), runCmd("mkdir d3", ""), runCmd("mkdir d4", "")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "exitCode"}, Text: "Made four directories."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"make dirs"}})
	n.waitText(ctx, "4 calls to approve")
	n.waitText(ctx, "ne by one")
	screen := n.scr.String()
	for i := 1; i <= 4; i++ {
		if !strings.Contains(screen, fmt.Sprintf("%d  mkdir: d%d", i, i)) {
			t.Errorf("batch lacks item %d:\n%s", i, screen)
		}
	}
	n.send("y")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	screen = n.scr.String()
	for i := 1; i <= 4; i++ {
		if !exists(t, filepath.Join(work, fmt.Sprintf("d%d", i))) {
			t.Errorf("d%d not created", i)
		}
		if l := lineWith(screen, fmt.Sprintf("mkdir: d%d", i)); !strings.HasPrefix(l, "✓") {
			t.Errorf("line for d%d = %q", i, l)
		}
	}
	if strings.Contains(screen, "calls to approve") {
		t.Errorf("answered batch prompt left on screen:\n%s", screen)
	}
}

func TestAlwaysThenNotAsked(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	commitRepo(t, work, env)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("git branch b1", "")}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("git branch b2", "")}},
		llmtest.Turn{Text: "Both made."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"make two branches"}})
	n.waitText(ctx, "lways")
	n.send("a")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	screen := n.scr.String()
	if !strings.Contains(screen, "saved rule: git branch *") {
		t.Errorf("the saved rule is not shown:\n%s", screen)
	}
	if !exists(t, filepath.Join(work, ".git", "refs", "heads", "b2")) {
		t.Error("the second matching call did not run")
	}
	if c := strings.Count(n.scr.Raw(), "lways"); c != 1 {
		t.Errorf("asked %d times, want once", c)
	}
}

func TestQuestionMarkExpands(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	long := "touch " + strings.Repeat("really-long-file-name-", 5) + "end.txt"
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd(long, "")}},
		llmtest.Turn{Text: "Touched."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"touch it"}})
	n.waitText(ctx, "show full")
	if strings.Contains(n.scr.String(), "end.txt") {
		t.Fatalf("long command not truncated:\n%s", n.scr.String())
	}
	n.send("?")
	n.waitText(ctx, "end.txt")
	n.send("y")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	// Answered, the expanded prompt is gone: one line for the call.
	if s := n.scr.String(); strings.Contains(s, "full command") || strings.Contains(s, "[Y]es") || strings.Count(s, "touch really") != 1 {
		t.Errorf("the expanded prompt stayed:\n%s", s)
	}
}

func TestRejectionReasonReachesModel(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("make build", "Build it")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "use cmake instead"}, Text: "OK, cmake then."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"build"}})
	n.waitText(ctx, "[Y]es")
	n.send("n")
	n.waitText(ctx, "reason")
	n.send("use cmake instead\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	if !strings.Contains(n.scr.String(), "OK, cmake then.") {
		t.Errorf("screen:\n%s", n.scr.String())
	}
	if l := lineWith(n.scr.String(), "make build"); !strings.Contains(l, "declined: use cmake instead") {
		t.Errorf("declined line %q does not show the reason", l)
	}
}

func TestLiveOutputCollapses(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("for i in 1 2 3 4; do echo line$i; sleep 0.4; done", "")}},
		llmtest.Turn{Text: "Counted."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"count"}})
	// While it runs, its output streams in the live area.
	n.waitText(ctx, "line2")
	if err := n.scr.WaitFor(ctx, "summary line", func(s string) bool {
		return strings.HasPrefix(lineWith(s, "run: for i in"), "✓")
	}); err != nil {
		t.Fatal(err)
	}
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	screen := n.scr.String()
	if strings.Contains(screen, "line2") {
		t.Errorf("live output left after the call:\n%s", screen)
	}
	if l := lineWith(screen, "run: for i in"); !strings.Contains(l, "exit 0") {
		t.Errorf("summary = %q", l)
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestNoColor(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("ls", "")}},
		llmtest.Turn{Text: "# Files\n\nThere are **none** in `work`."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"list"}, env: []string{"NO_COLOR=1"}})
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	if m := sgr.FindString(n.scr.Raw()); m != "" {
		t.Errorf("colour sequence %q with NO_COLOR:\n%q", m, n.scr.Raw())
	}
	if !strings.Contains(n.scr.String(), "There are none in work.") {
		t.Errorf("screen:\n%s", n.scr.String())
	}
}

func TestNarrowTerminal(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("mkdir a-directory-with-a-rather-long-name-indeed", "Create the output directory for the build")}},
		llmtest.Turn{Text: "Created the directory you asked for, with its long name."},
	)
	n := start(t, srv, work, env, runOpts{cols: 40, rows: 24, args: []string{"mkdir"}})
	n.waitText(ctx, "[Y]es")
	// The prompt's lines fit: nothing wrapped into a second row.
	screen := n.scr.String()
	if l := lineWith(screen, "mkdir: a-dir"); !strings.HasSuffix(l, "…") {
		t.Errorf("long display not cut to 40 columns: %q\n%s", l, screen)
	}
	n.send("y")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, n.scr.String())
	}
	screen = n.scr.String()
	l := lineWith(screen, "mkdir: a-dir")
	if !strings.HasPrefix(l, "✓") || !strings.Contains(l, "exit 0") || style.Width(l) > 40 {
		t.Errorf("tool line at 40 columns = %q\n%s", l, screen)
	}
}

func TestHeadlessDenial(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("mkdir made-headless", "")}},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "approval"}, Text: "I could not create it."},
	)
	cmd := exec.CommandContext(ctx, nbBin, "make a dir")
	cmd.Dir = work
	cmd.Env = append(env, "TERM=xterm-256color", "OPENAI_BASE_URL="+srv.URL())
	cmd.Stdin = strings.NewReader("")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A run that had a call refused for want of a terminal exits 3.
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("nb: %v, want exit 3\nstderr:\n%s", err, stderr.String())
	}
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	if exists(t, filepath.Join(work, "made-headless")) {
		t.Fatal("a call needing approval ran without a terminal")
	}
	if got := stdout.String(); strings.TrimSpace(got) != "I could not create it." {
		t.Errorf("stdout = %q, want the answer only", got)
	}
	if !strings.Contains(stderr.String(), "--approve 'mkdir") {
		t.Errorf("stderr lacks the remedy:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), "[Y]es") || strings.Contains(stderr.String(), "\x1b[") {
		t.Errorf("headless stderr shows a prompt or escapes:\n%q", stderr.String())
	}
}

func TestTypeaheadNeverAnswers(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("mkdir typed", "")}, Delay: 300 * time.Millisecond},
		llmtest.Turn{Expect: llmtest.Expect{ToolResult: "declined"}, Text: "Not made."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"make a dir"}})
	// Keys typed while the model is still thinking.
	n.waitText(ctx, "thinking")
	n.send("yyy")
	n.waitText(ctx, "[Y]es")
	time.Sleep(300 * time.Millisecond)
	if exists(t, filepath.Join(work, "typed")) {
		t.Fatal("keys typed before the prompt approved the call")
	}
	if !strings.Contains(n.scr.String(), "[Y]es") {
		t.Fatalf("prompt gone without an answer:\n%s", n.scr.String())
	}
	n.send("n")
	n.waitText(ctx, "reason")
	n.send("\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestInteractiveApprovals(t *testing.T) {
	ctx := ctxT(t, 60*time.Second)
	work, env := setup(t)
	commitRepo(t, work, env)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("git branch i1", "")}},
		llmtest.Turn{Text: "Made i1."},
	)
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("make a branch\r")
	n.waitText(ctx, "lways")
	n.send("a")
	n.waitText(ctx, "Made i1.")
	n.send("/approvals\r")
	if err := n.scr.WaitFor(ctx, "grant listing", func(s string) bool {
		l := lineWith(s, "this project")
		return strings.Contains(l, "1  git branch *")
	}); err != nil {
		t.Fatal(err)
	}
	n.send("/approvals revoke 1\r")
	n.send("/approvals\r")
	n.waitText(ctx, "no approvals")
	n.send("exit\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestCtrlCAtPromptIsNo(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("mkdir never", "")}},
	)
	n := start(t, srv, work, env, runOpts{})
	n.waitText(ctx, "nb>")
	n.send("make a dir\r")
	n.waitText(ctx, "[Y]es")
	n.send("\x03")
	// The call is not run, the turn stops, nb keeps running.
	if err := n.scr.WaitFor(ctx, "a new input prompt", func(s string) bool {
		return strings.Count(s, "nb>") == 2
	}); err != nil {
		t.Fatal(err)
	}
	if exists(t, filepath.Join(work, "never")) {
		t.Fatal("Ctrl+C at the prompt approved the call")
	}
	if strings.Contains(n.scr.String(), "[Y]es") {
		t.Errorf("prompt left on screen:\n%s", n.scr.String())
	}
	// The call's line takes the prompt's place (docs/ui.md).
	if l := lineWith(n.scr.String(), "never"); !strings.Contains(l, "mkdir") || !strings.Contains(l, "interrupted") {
		t.Errorf("no line for the call, or not saying it was interrupted: %q\n%s", l, n.scr.String())
	}
	n.send("exit\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

func TestVerboseAndLast(t *testing.T) {
	ctx := ctxT(t, 30*time.Second)
	work, env := setup(t)
	if err := os.WriteFile(filepath.Join(work, "hello.txt"), []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := server(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{runCmd("cat hello.txt", "")}},
		llmtest.Turn{Text: "It greets."},
	)
	n := start(t, srv, work, env, runOpts{args: []string{"--verbose"}})
	n.waitText(ctx, "nb>")
	n.send("read it\r")
	n.waitText(ctx, "It greets.")
	// --verbose: what the model received is printed under the call.
	screen := n.scr.String()
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "✓ read: hello.txt") {
			if i+1 >= len(lines) || lines[i+1] != "  stdout: hello world" || !strings.Contains(strings.Join(lines[i+1:], "\n"), "  exitCode: 0") {
				t.Errorf("no model-visible result under the call:\n%s", screen)
			}
		}
	}
	n.send("/last\r")
	if err := n.scr.WaitFor(ctx, "/last output", func(s string) bool {
		return strings.Count(s, "✓ read: hello.txt") == 2
	}); err != nil {
		t.Fatal(err)
	}
	n.send("exit\r")
	if code := n.waitExit(ctx); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
