package approval

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// maxShown bounds what a prompt about a huge call writes to the terminal.
const maxShown = 64 << 10

var (
	decidedMu sync.Mutex
	decided   = map[string]*policy.Decision{}
)

// hugeCall is a call of the command as the real policy engine decides it
// (once per command: a 10 MB one takes seconds under the race detector).
func hugeCall(t *testing.T, command string) *agent.Pending {
	t.Helper()
	decidedMu.Lock()
	d := decided[command]
	if d == nil {
		d = engine(t).Decide(policy.Action{Kind: policy.RunCommand, Command: command, Where: policy.CommandContext{Cwd: "/home/u/p", Home: "/home/u", Facts: policy.NoFacts{}}})
		decided[command] = d
	}
	decidedMu.Unlock()
	if d.Decision != policy.Ask {
		t.Fatalf("decision %s, want ask", d.Decision)
	}
	return &agent.Pending{Call: &tool.Call{ID: "c1", Name: "run_cmd"}, Decision: d}
}

// hugeOneLine is a 10 MB one-line command whose both ends hide escape
// sequences.
func hugeOneLine() string {
	return "mycmd '\x1b[2J HEADMARK \x1b]0;x\x07 " + strings.Repeat("y", 10<<20) + " \x1b[8m TAILMARK'"
}

// hugeScript is a 10 MB script of many lines, escape sequences in the
// first and the last.
func hugeScript() string {
	var b strings.Builder
	b.WriteString("mycmd '\x1b[2J HEADMARK'\n")
	for b.Len() < 10<<20 {
		b.WriteString("mycmd " + strings.Repeat("q", 1000) + "\n")
	}
	b.WriteString("mycmd '\x1b[8m TAILMARK'\n")
	return b.String()
}

// checkBounded asserts a prompt's output is small, shows both ends of the
// command escaped, and says how much is hidden.
func checkBounded(t *testing.T, raw string) {
	t.Helper()
	if len(raw) > maxShown {
		t.Fatalf("the prompt wrote %d bytes, want at most %d", len(raw), maxShown)
	}
	for _, want := range []string{"HEADMARK", "TAILMARK", `\x1b[2J`, `\x1b[8m`, "bytes", "more …", "too large to show here"} {
		if !strings.Contains(raw, want) {
			t.Errorf("prompt lacks %q:\n%s", want, raw)
		}
	}
	for _, bad := range []string{"\x1b[2J", "\x1b[8m", "\x1b]0;", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Errorf("prompt writes the command's raw %q", bad)
		}
	}
}

func TestHugeCommandBoundedAndNotApprovedByEnter(t *testing.T) {
	for name, command := range map[string]string{"one line": hugeOneLine(), "script": hugeScript()} {
		t.Run(name, func(t *testing.T) {
			pd := hugeCall(t, command)
			p, scr := prompter("\r\r", 80)
			defer scr.Close()
			got, err := p.Approve(ctxT(t), []*agent.Pending{pd})
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Approved {
				t.Fatal("Enter approved a command the prompt could not show")
			}
			raw := scr.Raw()
			checkBounded(t, raw)
			if !strings.Contains(raw, "[y]es") || !strings.Contains(raw, "[N]o") {
				t.Errorf("default is not No:\n%s", raw)
			}
			if !strings.Contains(raw, "[?] save full text") {
				t.Errorf("prompt does not offer the full text:\n%s", raw)
			}
		})
	}
}

func TestHugeCommandQuestionMarkSavesAll(t *testing.T) {
	command := hugeScript()
	pd := hugeCall(t, command)
	p, scr := prompter("?y", 80)
	defer scr.Close()
	dir := t.TempDir()
	var saved string
	p.Save = func(text string) (string, error) {
		saved = filepath.Join(dir, "full.txt")
		return saved, os.WriteFile(saved, []byte(text), 0o600)
	}
	got, err := p.Approve(ctxT(t), []*agent.Pending{pd})
	if err != nil || !got[0].Approved {
		t.Fatalf("got %+v, %v", got, err)
	}
	raw := scr.Raw()
	checkBounded(t, raw)
	if saved == "" || !strings.Contains(raw, "saved to "+saved) || !strings.Contains(raw, "less "+saved) {
		t.Fatalf("the prompt does not name the saved file %q:\n%s", saved, raw)
	}
	b, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != command {
		t.Errorf("saved %d bytes, want the whole command (%d bytes)", len(b), len(command))
	}
}

func TestSaveTemp(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	path, err := SaveTemp("rm -rf \x1b[8m/\n")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("mode %v: others can read the saved text", fi.Mode())
	}
	if b, _ := os.ReadFile(path); string(b) != "rm -rf \x1b[8m/\n" {
		t.Errorf("saved %q", b)
	}
}

func TestHugeCallInBatchDefaultsToNo(t *testing.T) {
	small := pending("read: /etc/hosts", "", false)
	p, scr := prompter("\r\r", 80)
	defer scr.Close()
	huge := hugeCall(t, hugeOneLine())
	got, err := p.Approve(ctxT(t), []*agent.Pending{small, huge})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Approved || got[1].Approved {
		t.Fatalf("Enter approved a batch holding a command the prompt could not show: %+v", got)
	}
	raw := scr.Raw()
	checkBounded(t, raw)
	if !strings.Contains(raw, "[y]es to all") || !strings.Contains(raw, "[N]o to all") {
		t.Errorf("batch default is not No:\n%s", raw)
	}
}

// A script longer than the prompt shows but short enough to read is
// printed whole by `?`.
func TestMidSizeScriptQuestionMarkShowsAll(t *testing.T) {
	var lines []string
	for i := 0; i < 60; i++ {
		lines = append(lines, "echo step "+strings.Repeat("z", i%7)+" > out"+string(rune('a'+i%26)))
	}
	lines[30] = "echo MIDDLE-LINE > mid"
	pd := hugeCall(t, strings.Join(lines, "\n"))
	p, scr := prompter("?n\r", 80)
	defer scr.Close()
	if _, err := p.Approve(ctxT(t), []*agent.Pending{pd}); err != nil {
		t.Fatal(err)
	}
	raw := scr.Raw()
	before, after, ok := strings.Cut(raw, "full command:")
	if !ok {
		t.Fatalf("? did not print the full command:\n%s", raw)
	}
	if strings.Contains(before, "MIDDLE-LINE") {
		t.Errorf("the bounded view shows the middle line before ?")
	}
	for _, l := range lines {
		if !strings.Contains(after, l) {
			t.Errorf("? lacks %q", l)
		}
	}
}

func engine(t *testing.T) *policy.Engine {
	t.Helper()
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A 10 MB write_file content and a 10 MB MCP argument get the same
// bounded prompt: Enter declines and ? saves the whole text.
func TestHugeWriteAndToolArguments(t *testing.T) {
	big := "\x1b[2J HEADMARK " + strings.Repeat("w", 10<<20) + " \x1b[8m TAILMARK"
	e := engine(t)
	cases := map[string]*policy.Decision{
		"write_file": e.Decide(policy.Action{Kind: policy.WriteFile, Path: "/home/u/p/f.txt", Shown: "f.txt", Content: big}),
		"mcp":        e.Decide(policy.Action{Kind: policy.MCPTool, Tool: "srv_upload", Args: map[string]any{"data": big}}),
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) {
			if d.Decision != policy.Ask {
				t.Fatalf("decision %s, want ask", d.Decision)
			}
			p, scr := prompter("?\r\r", 80)
			defer scr.Close()
			var saved string
			p.Save = func(text string) (string, error) { saved = text; return "/saved/full.txt", nil }
			got, err := p.Approve(ctxT(t), []*agent.Pending{{Call: &tool.Call{ID: "c1", Name: name}, Decision: d}})
			if err != nil || got[0].Approved {
				t.Fatalf("got %+v, %v: Enter approved a text the prompt could not show", got, err)
			}
			raw := scr.Raw()
			if len(raw) > maxShown {
				t.Fatalf("the prompt wrote %d bytes", len(raw))
			}
			// write_file saves the content as written, an MCP tool its
			// arguments as JSON.
			whole := strings.Contains(saved, big) || len(saved) >= len(big) && strings.Contains(saved, "HEADMARK") && strings.Contains(saved, "TAILMARK")
			if !whole || !strings.Contains(raw, "saved to /saved/full.txt") {
				t.Errorf("? saved %d bytes (want all %d) or did not name the file:\n%s", len(saved), len(big), raw)
			}
			for _, bad := range []string{"\x1b[2J", "\x1b[8m"} {
				if strings.Contains(raw, bad) {
					t.Errorf("prompt writes the raw %q", bad)
				}
			}
		})
	}
}

// A 10 MB description (the model's stated intent) shows a few lines.
func TestHugeDescriptionBounded(t *testing.T) {
	desc := "INTENT " + strings.Repeat("words and \x1b[2J more ", 10<<20/20)
	for _, batch := range [][]*agent.Pending{
		{pending("run: make", desc, false)},
		{pending("run: make", desc, false), pending("run: make test", desc, false)},
	} {
		p, scr := prompter("n\r", 80)
		if _, err := p.Approve(ctxT(t), batch); err != nil {
			t.Fatal(err)
		}
		raw := scr.Raw()
		scr.Close()
		if len(raw) > 8<<10 || !strings.Contains(raw, "INTENT") || strings.Contains(raw, "\x1b[2J") {
			t.Errorf("prompt wrote %d bytes: %.300q", len(raw), raw)
		}
	}
}

// Always is not offered for a rule too long to show.
func TestHugeRuleNotOffered(t *testing.T) {
	pd := pending("run: mycmd x", "", false)
	pd.Decision.Rule = "mycmd " + strings.Repeat("r", 1<<20)
	p, scr := prompter("a\x1b", 80)
	defer scr.Close()
	got, err := p.Approve(ctxT(t), []*agent.Pending{pd})
	if err != nil || got[0].Approved || got[0].Always {
		t.Fatalf("got %+v, %v", got, err)
	}
	if raw := scr.Raw(); strings.Contains(raw, "[a]lways") || len(raw) > 8<<10 {
		t.Errorf("prompt (%d bytes) offers Always for a 1 MB rule", len(raw))
	}
}

// Without a Save of its own the prompt saves to the temporary directory
// and removes the file once answered.
func TestHugeSavedToTempAndRemoved(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	command := hugeScript()
	pd := hugeCall(t, command)
	var during []byte
	p, scr := prompter("?", 80)
	defer scr.Close()
	keys := &afterKeys{first: "?", then: "n\r", at: func() {
		raw := scr.Raw()
		i := strings.Index(raw, "saved to ")
		if i < 0 {
			return
		}
		path := strings.Fields(raw[i+len("saved to "):])[0]
		during, _ = os.ReadFile(path)
	}}
	p.In = keys
	if _, err := p.Approve(ctxT(t), []*agent.Pending{pd}); err != nil {
		t.Fatal(err)
	}
	if string(during) != command {
		t.Errorf("while asking, the saved file held %d bytes, want the %d of the command", len(during), len(command))
	}
	left, _ := os.ReadDir(os.Getenv("TMPDIR"))
	if len(left) != 0 {
		t.Errorf("files left after the answer: %v", left)
	}
}

// afterKeys delivers first, calls at, then delivers then.
type afterKeys struct {
	first, then string
	at          func()
	n           int
}

func (k *afterKeys) Read(b []byte) (int, error) {
	k.n++
	switch k.n {
	case 1:
		return copy(b, k.first), nil
	case 2:
		k.at()
		return copy(b, k.then), nil
	}
	return 0, io.EOF
}
