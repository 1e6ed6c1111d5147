package policy

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/visible"
)

// FuzzDecide decides actions of every kind built from one text through
// Engine.Decide, the one door to a verdict, and checks what users rely on:
// deciding never panics and is deterministic; the display line holds no
// control or invisible character (package visible); a warned decision
// defaults to No and offers no Always; nothing a deny rule of the engine
// matches is allowed, nor a command with rm -rf / as one of its simple
// commands, though allow rules cover both; and "safe" is never given to a command with a write
// redirection, an unknown construct, a network tool or a leaf the
// analyser could not resolve. It is seeded with the project's corpora
// (internal/redteam/testdata, testdata/adversarial.txt and the Windows
// suite); scripts/test.sh explores from them for a bounded time.
func FuzzDecide(f *testing.F) {
	for _, s := range dangerousPayloads {
		f.Add(s)
	}
	for _, s := range templates {
		f.Add(strings.ReplaceAll(s, "P", "ls"))
	}
	for _, s := range fuzzCorpus(f) {
		f.Add(s)
	}
	// The rules would approve what the deny rules and the dangerous list
	// must still stop.
	e := newEngine(f, func(o *Options) {
		o.Approve = []string{"git log *", "make", "git *", "curl *", "rm *"}
		o.Approval.Deny = append(o.Approval.Deny, "git push *", "curl *")
	})
	f.Fuzz(func(t *testing.T, src string) {
		for _, a := range fuzzActions(src) {
			d := e.Decide(a)
			checkDecision(t, src, a, d)
			if again := e.Decide(a); !reflect.DeepEqual(d, again) {
				t.Fatalf("%s %q: two decisions of one action differ:\n%+v\n%+v", a.Kind, src, d, again)
			}
		}
		// a deny rule's command, or rm of /, on a line of its own before
		// the text is a simple command whatever the text holds
		for _, first := range []string{"git push origin main", "curl -s https://example.com", "rm -rf /"} {
			script := first + "\n" + src
			for _, a := range []Action{
				{Kind: RunCommand, Command: script, Where: testCC},
				{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Input: script + "\n", Where: testCC},
			} {
				if d := e.Decide(a); d.Decision == Allow {
					t.Fatalf("%s %q: allowed by %s", a.Kind, script, d.DecidedBy)
				}
			}
		}
		d := e.Decide(Action{Kind: RunCommand, Command: src, Where: testCC})
		a := analyse(src, shellparse.Options{Home: testCC.Home, Cwd: testCC.Cwd})
		if d.Decision == Allow {
			for _, l := range a.Leaves {
				if why := deniedOrRoot(l); why != "" {
					t.Fatalf("%q: allowed by %s, with %s (%q)", src, d.DecidedBy, why, l.Text())
				}
			}
		}
		if d.Safety != Safe {
			if d.Decision == Allow && d.DecidedBy == BySafeList {
				t.Fatalf("%q: allowed by the safe list but not safe", src)
			}
			return
		}
		if a.Err != nil || len(a.Unknown) > 0 {
			t.Fatalf("%q: safe despite parse error or unknown %q", src, a.Unknown)
		}
		for _, r := range a.Redirs {
			if r.Write && !(r.Target.Static() && harmlessDevices[absPath(r.Target.Text, testCC.Cwd)]) {
				t.Fatalf("%q: safe with a write redirection to %q", src, r.Target.Raw)
			}
		}
		for _, l := range a.Leaves {
			if l.Name() == "" || len(l.Unknown) > 0 {
				t.Fatalf("%q: safe with unknown leaf %q", src, l.Text())
			}
			if isNetworkTool(l.Base()) && !cmdbase.VersionOnly(l.Base(), l.Args()) {
				// (a version query such as ssh -V reaches no network)
				t.Fatalf("%q: safe with network tool %q", src, l.Base())
			}
		}
	})
}

// fuzzActions are the actions of every kind built from one text.
func fuzzActions(src string) []Action {
	first, _, _ := strings.Cut(src, "\n")
	path := "/home/u/proj/" + src
	win := func(sh sysinfo.ShellKind) CommandContext {
		return CommandContext{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`, Shell: sh, Facts: NoFacts{}}
	}
	sandbox := testCC
	sandbox.Isolation = IsolationSandbox
	return []Action{
		{Kind: RunCommand, Command: src, Where: testCC},
		{Kind: RunCommand, Command: src, Where: sandbox},
		{Kind: RunCommand, Command: src, Where: CommandContext{Cwd: testCC.Cwd, Home: testCC.Home, CwdUnknown: true}},
		{Kind: RunCommand, Command: src, Where: win(sysinfo.ShellCmd)},
		{Kind: RunCommand, Command: src, Where: win(sysinfo.ShellPowerShell)},
		{Kind: RunCommand, Command: src, Hosts: []string{"web-01", first}, Selection: first, Where: testCC},
		{Kind: RunCommand, Command: "bash", Program: "bash", Shell: true, Input: src, Where: testCC},
		{Kind: RerunOutside, Command: src, Where: testCC},
		{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Pending: first, Input: "\n", Where: testCC},
		{Kind: SessionInput, Session: "term-1", Program: "apt", InShell: true, SessionProgram: "bash", Prompt: Question, PromptText: first, Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-1", Program: "sudo", InShell: true, SessionProgram: "bash", Prompt: Secret, PromptText: "Password:", Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", SecretRead: true, Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-2", Program: "python3", Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-2", Program: "python3", Prompt: Question, PromptText: first, Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-3", Program: "ssh", Input: src, Where: testCC},
		{Kind: SessionInput, Session: "term-4", Program: first, Input: src, Where: testCC},
		{Kind: ReadSession, Session: "term-1", Program: first},
		{Kind: ListSessions},
		{Kind: StopSession, Session: "term-1"},
		{Kind: SetCwd, Path: path},
		{Kind: ReadFile, Path: path, Shown: src, Where: testCC},
		{Kind: ListDir, Path: path, Shown: src, Where: testCC},
		{Kind: PathInfo, Path: path, Shown: src, Where: testCC},
		{Kind: WriteFile, Path: path, Shown: src, Content: src, Where: testCC},
		{Kind: Describe},
		{Kind: MCPTool, Tool: "srv_run", Args: map[string]any{"command": src}, Hint: ToolHint{DisplayArgs: []string{"command"}, Truncate: 40, WarnPatterns: []string{"rm "}}},
		{Kind: MCPTool, Tool: "srv_" + first, Args: map[string]any{"x": src, "n": len(src)}},
		{Kind: MCPListResources},
		{Kind: Kind(0), Command: src},
	}
}

// checkDecision checks what every decision must be, whatever the action.
func checkDecision(t *testing.T, src string, a Action, d *Decision) {
	t.Helper()
	if d == nil || d.Decision == "" || d.Safety == "" || d.Display == "" || (d.DefaultAnswer != Yes && d.DefaultAnswer != No) {
		t.Fatalf("%s %q: incomplete decision %+v", a.Kind, src, d)
	}
	if visible.Hides(d.Display) {
		t.Fatalf("%s %q: display %q holds a control or invisible character", a.Kind, src, d.Display)
	}
	if (d.Warn || d.Safety == Dangerous) && (d.DefaultAnswer != No || d.OfferAlways) {
		t.Fatalf("%s %q: warned (warn %v, %s) but default %s, Always %v", a.Kind, src, d.Warn, d.Safety, d.DefaultAnswer, d.OfferAlways)
	}
}

// deniedOrRoot says why a simple command may never be allowed by the
// engine FuzzDecide builds: a deny rule matches it, or it is rm -r of /.
func deniedOrRoot(l *shellparse.Leaf) string {
	static := func(text string) bool {
		for _, w := range l.Args() {
			if w.Static() && w.Text == text {
				return true
			}
		}
		return false
	}
	switch l.Base() {
	case "curl":
		return `the deny rule "curl *"`
	case "git":
		if static("push") {
			return `the deny rule "git push *"`
		}
	case "rm":
		recursive := false
		for _, w := range l.Args() {
			t := w.Text
			recursive = recursive || t == "--recursive" || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "rR")
		}
		if recursive && static("/") {
			return "rm -r of /"
		}
	}
	return ""
}

// fuzzCorpus is every command of the project's corpora: the redteam
// corpus and its read-only and unsafe sets, the adversarial list and the
// Windows suite.
func fuzzCorpus(t testing.TB) []string {
	t.Helper()
	var out []string
	read := func(name string, each func(line string)) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				each(l)
			}
		}
	}
	red := filepath.Join("..", "redteam", "testdata")
	read(filepath.Join(red, "corpus.txt"), func(l string) {
		_, cmd, ok := strings.Cut(l, ":::")
		if !ok {
			return
		}
		cmd = strings.TrimPrefix(cmd, " ")
		if u, err := strconv.Unquote(cmd); err == nil {
			cmd = u
		}
		out = append(out, cmd)
	})
	for _, name := range []string{"readonly.txt", "unsafe.txt"} {
		read(filepath.Join(red, name), func(l string) { out = append(out, l) })
	}
	read(filepath.Join("testdata", "adversarial.txt"), func(l string) {
		if parts := strings.SplitN(l, "\t", 3); len(parts) == 3 {
			out = append(out, parts[2])
		}
	})
	read(filepath.Join("testdata", "windows_commands.txt"), func(l string) {
		if parts := strings.SplitN(l, " ", 3); len(parts) == 3 {
			out = append(out, parts[2])
		}
	})
	return out
}

func BenchmarkDecideOneLine(b *testing.B) {
	e := newEngine(b, func(o *Options) { o.Approve = []string{"git log *"} })
	cmds := []string{"ls -la", "git log --oneline -10 | head", "grep -rn TODO src && echo done", "timeout 5 make test > /dev/null 2>&1"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		decideCmd(e, cmds[i%len(cmds)], testCC)
	}
}

// BenchmarkDecideLongPipeline: a pipeline of 10,000 stages, which the
// parser nests 10,000 deep, costs in proportion to its length.
func BenchmarkDecideLongPipeline(b *testing.B) {
	e := newEngine(b, nil)
	cmd := strings.Repeat("cat a.txt | ", 9999) + "cat"
	b.ReportAllocs()
	for b.Loop() {
		decideCmd(e, cmd, testCC)
	}
}

func BenchmarkDecide1000Lines(b *testing.B) {
	e := newEngine(b, nil)
	lines := []string{"cd /tmp/build", "grep -rn \"$pattern\" src | sort | uniq -c", "if [ -f x ]; then cat x; fi",
		"for f in *.go; do wc -l \"$f\"; done", "echo $(date +%s) >> /tmp/log", "make -j4 && ./run --fast"}
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		sb.WriteString(lines[i%len(lines)])
		sb.WriteByte('\n')
	}
	script := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		decideCmd(e, script, testCC)
	}
}
