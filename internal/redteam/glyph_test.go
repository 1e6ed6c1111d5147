package redteam

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// warnSign is the glyph only the prompt draws (approval.DisplayLine).
const warnSign = "⚠"

// TestNoGlyphLeavesPolicy runs every corpus the project keeps through
// Engine.Decide, as a command, as input typed into a shell and a REPL
// session (also at a program's question), on a fleet and with input for a
// new session, and fails when any text of a decision holds the warning
// sign: a decision says that it warns with Warn, Safety and WarnAt, and
// the sign is drawn outside the policy.
func TestNoGlyphLeavesPolicy(t *testing.T) {
	cc := policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}}
	bad := 0
	check := func(src, cmd string, a policy.Action, d *policy.Decision) {
		t.Helper()
		fields := map[string]string{"Display": d.Display, "Full": d.Full, "Remedy": d.Remedy, "Rule": d.Rule, "Subject": d.Subject,
			"Reasons": strings.Join(d.Reasons, "\n")}
		for name, v := range fields {
			if strings.Contains(v, warnSign) && bad < 20 {
				bad++
				t.Errorf("%s: %s %q: %s holds the warning sign: %q", src, a.Kind, cmd, name, v)
			}
		}
	}
	decideAll := func(src string, e *policy.Engine, cmd string) {
		t.Helper()
		actions := []policy.Action{
			{Kind: policy.RunCommand, Command: cmd, Where: cc},
			{Kind: policy.RunCommand, Command: cmd, Hosts: []string{"web-01", "web-02"}, Selection: "@web", Where: cc},
			{Kind: policy.RunCommand, Command: "bash", Program: "bash", Shell: true, Input: cmd + "\n", Where: cc},
			{Kind: policy.SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Input: cmd + "\n", Where: cc},
			{Kind: policy.SessionInput, Session: "term-1", Program: "apt", InShell: true, SessionProgram: "bash", Prompt: policy.Question, PromptText: "Continue?", Input: cmd + "\n", Where: cc},
			{Kind: policy.SessionInput, Session: "term-2", Program: "python3", Input: cmd + "\n", Where: cc},
			{Kind: policy.SessionInput, Session: "term-2", Program: "python3", Prompt: policy.Question, PromptText: "Continue?", Input: cmd + "\n", Where: cc},
			{Kind: policy.RerunOutside, Command: cmd, Where: cc},
		}
		for _, a := range actions {
			check(src, cmd, a, e.Decide(a))
		}
	}
	for _, c := range loadCorpus(t) {
		e, err := newEngine(c)
		if err != nil {
			continue // a case whose pattern is refused (TestCorpus checks why)
		}
		decideAll("corpus"+caseOptions(c), e, c.command)
	}
	e, err := newEngine(&corpusCase{})
	if err != nil {
		t.Fatal(err)
	}
	headless, err := newEngine(&corpusCase{headless: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"readonly.txt", "unsafe.txt"} {
		for _, cmd := range readLines(t, name) {
			decideAll(name, e, cmd)
			decideAll(name+" headless", headless, cmd)
		}
	}
	for _, c := range policyAdversarial(t) {
		decideAll("adversarial", e, c.command)
		decideAll("adversarial headless", headless, c.command)
	}
	for _, in := range sessionMustAsk {
		decideAll("session", e, in)
	}
	for _, seq := range sessionSequences {
		decideAll("session", e, seq[0]+"\n"+seq[1])
	}
	for _, c := range windowsCorpus(t) {
		for _, eng := range []*policy.Engine{e, headless} {
			a := policy.Action{Kind: policy.RunCommand, Command: c.cmd,
				Where: policy.CommandContext{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`, Shell: c.shell, Facts: policy.NoFacts{}}}
			check("windows", c.cmd, a, eng.Decide(a))
		}
	}
}

type windowsCase struct {
	shell sysinfo.ShellKind
	cmd   string
}

// windowsCorpus reads the commands of internal/policy's Windows suite
// (SHELL <space> LABEL <space> COMMAND).
func windowsCorpus(t *testing.T) []windowsCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "policy", "testdata", "windows_commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []windowsCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		parts := strings.SplitN(l, " ", 3)
		if len(parts) != 3 {
			continue
		}
		sh := sysinfo.ShellCmd
		if parts[0] == "ps" {
			sh = sysinfo.ShellPowerShell
		}
		out = append(out, windowsCase{sh, parts[2]})
	}
	if len(out) == 0 {
		t.Fatal("no Windows commands read")
	}
	return out
}
