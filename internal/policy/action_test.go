package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestStricter(t *testing.T) {
	allow := &Decision{Decision: Allow, Safety: Safe, Display: "run: bash"}
	deny := &Decision{Decision: Deny, Safety: Dangerous, Display: "input: rm -rf /", Warn: true}
	if got := stricter(allow, deny); got.Decision != Deny || got.Display != "run: bash\ninput: rm -rf /" || !got.Warn {
		t.Fatalf("allow+deny: %+v", got)
	}
	// each warned part keeps its mark, moved with its line
	cmd := &Decision{Decision: Ask, Safety: Dangerous, Display: "run: x", Warn: true, WarnAt: []int{3}}
	in := &Decision{Decision: Ask, Safety: Dangerous, Display: "input → s (bash) delete: y", Warn: true, WarnAt: []int{len("input → s (bash) delete")}}
	if got := marked(stricter(cmd, in)); got != "run ⚠️: x\ninput → s (bash) delete ⚠️: y" {
		t.Errorf("marks of a command and its input: %q", got)
	}
	if got := marked(stricter(allow, in)); got != "run: bash\ninput → s (bash) delete ⚠️: y" {
		t.Errorf("marks of an input after an unwarned command: %q", got)
	}
	if got := stricter(allow, allow); got.Decision != Allow || got.Display != "run: bash" {
		t.Fatalf("allow+allow: %+v", got)
	}
	ask := &Decision{Decision: Ask, Safety: Unknown, Display: "run: x", OfferAlways: true, Rule: "x"}
	got := stricter(ask, deny)
	if got.Decision != Deny || got.Safety != Dangerous || got.OfferAlways || got.Rule != "" || got.DefaultAnswer != No || got.Display != "run: x\ninput: rm -rf /" {
		t.Fatalf("ask+deny: %+v", got)
	}
}

// Every kind of action gets its verdict from Decide; nothing is allowed
// that the engine did not allow.
func TestDecideActions(t *testing.T) {
	e := newEngine(t, nil)
	home := "/home/u"
	where := CommandContext{Cwd: "/home/u/proj", Home: home}
	cases := []struct {
		a    Action
		want Verdict
		by   Decider
	}{
		{Action{Kind: RunCommand, Command: "ls -la", Where: where}, Allow, BySafeList},
		{Action{Kind: RunCommand, Command: "rm -rf build", Where: where}, Ask, ByUser},
		{Action{Kind: RunCommand, Command: "bash", Input: "rm -rf x\n", Program: "bash", Shell: true, Session: "new session", Where: where}, Ask, ByUser},
		{Action{Kind: RunCommand, Command: "tail -f log", Input: "\n", Program: "tail", Session: "new session", Where: where}, Allow, BySafeList},
		{Action{Kind: SessionInput, Session: "term-1", Program: "python3", Input: "import os\n", Where: where}, Ask, ByUser},
		{Action{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, Input: "cat ~/.ssh/id_rsa\n", Where: where}, Ask, ByUser},
		{Action{Kind: ReadSession, Session: "term-1", Program: "bash"}, Allow, ByAction},
		{Action{Kind: ListSessions}, Allow, ByAction},
		{Action{Kind: StopSession, Session: "term-1"}, Allow, ByAction},
		{Action{Kind: SetCwd, Path: "/etc"}, Allow, ByAction},
		{Action{Kind: Describe}, Allow, ByAction},
		{Action{Kind: MCPListResources}, Allow, ByAction},
		{Action{Kind: PathInfo, Path: "/home/u/proj/x", Shown: "x"}, Allow, ByAction},
		{Action{Kind: ReadFile, Path: "/home/u/proj/main.go", Shown: "main.go", Where: where}, Allow, BySafeList},
		{Action{Kind: ReadFile, Path: "/home/u/proj/.env", Shown: ".env", Where: where}, Ask, ByUser},
		{Action{Kind: ReadFile, Path: "/home/u/.aws/config", Shown: "../.aws/config", Where: where}, Ask, ByUser},
		{Action{Kind: ListDir, Path: "/home/u/proj", Shown: ".", Where: where}, Allow, BySafeList},
		{Action{Kind: WriteFile, Path: "/home/u/proj/a.txt", Shown: "a.txt", Content: "x", Where: where}, Ask, ByUser},
		{Action{Kind: MCPTool, Tool: "gh_list_issues", Args: map[string]any{"repo": "x"}}, Ask, ByUser},
		{Action{Kind: MCPTool, Tool: "gh_list_issues", Hint: ToolHint{AlwaysAllow: true}}, Allow, ByRule},
		{Action{Kind: RerunOutside, Command: "ls", Where: where}, Ask, ByUser},
		{Action{Kind: Kind(999)}, Ask, ByUser},
	}
	for _, c := range cases {
		d := e.Decide(c.a)
		if d.Decision != c.want || d.DecidedBy != c.by {
			t.Errorf("%s %q%q: %s by %s, want %s by %s (%q)", c.a.Kind, c.a.Command, c.a.Path, d.Decision, d.DecidedBy, c.want, c.by, d.Reasons)
		}
		if d.Reasons == nil || (d.DefaultAnswer != Yes && d.DefaultAnswer != No) {
			t.Errorf("%s: incomplete decision %+v", c.a.Kind, d)
		}
		if d.Warn && d.DefaultAnswer != No {
			t.Errorf("%s: warned with default %s", c.a.Kind, d.DefaultAnswer)
		}
	}
	e.SetHeadless(true)
	for _, a := range []Action{
		{Kind: WriteFile, Path: "/p/a", Shown: "a"},
		{Kind: ReadFile, Path: "/p/.env", Shown: ".env", Where: where},
		{Kind: RerunOutside, Command: "ls"},
	} {
		if d := e.Decide(a); d.Decision != Deny || d.DecidedBy != ByHeadless || d.Remedy == "" {
			t.Errorf("headless %s: %+v", a.Kind, d)
		}
	}
}

// A deny rule refuses write_file; a warned read of a secret defaults to No.
func TestDecideFileRules(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.Deny = []string{"write_file"} })
	if d := e.Decide(Action{Kind: WriteFile, Path: "/p/a", Shown: "a"}); d.Decision != Deny || d.DecidedBy != ByDenyRule {
		t.Errorf("write_file with deny rule: %+v", d)
	}
	d := e.Decide(Action{Kind: ReadFile, Path: "/p/.env", Shown: ".env", Where: CommandContext{Cwd: "/p"}})
	if !d.Warn || d.DefaultAnswer != No || !strings.HasPrefix(d.Display, "read: .env") {
		t.Errorf("read .env: %+v", d)
	}
}

// The display class is a typed field, not something to parse out of the
// display line.
func TestCategory(t *testing.T) {
	e := newEngine(t, nil)
	for cmd, want := range map[string]Category{
		"echo hi > notes.txt":  CatWrite,
		"echo hi >> notes.txt": CatAppend,
		"cat notes.txt":        CatRead,
		"rm notes.txt":         CatDelete,
		"ls && cat x":          "",
	} {
		if d := decideCmd(e, cmd, testCC); d.Category != want {
			t.Errorf("%q: category %q, want %q (display %q)", cmd, d.Category, want, d.Display)
		}
	}
	if d := e.Decide(Action{Kind: WriteFile, Path: "/p/a", Shown: "a", Content: "x"}); d.Category != CatWrite || !d.Category.Writes() {
		t.Errorf("write_file: %q", d.Category)
	}
	if d := e.Decide(Action{Kind: ListDir, Path: "/p", Shown: "."}); d.Category != "" {
		t.Errorf("list_dir: %q", d.Category)
	}
}

// decideCmd decides command as run_cmd would: through Decide.
func decideCmd(e *Engine, command string, cc CommandContext) *Decision {
	return e.Decide(Action{Kind: RunCommand, Command: command, Where: cc})
}

// decideInput decides text typed into session id, whose foreground
// program is program (a shell when isShell), through Decide.
func decideInput(e *Engine, id, program string, isShell bool, text string, cc CommandContext) *Decision {
	return e.Decide(Action{Kind: SessionInput, Session: id, Program: program, Shell: isShell,
		InShell: isShell, SessionProgram: program, Input: text, Where: cc})
}

// decideTool decides a call of the MCP tool name through Decide.
func decideTool(e *Engine, name string, args map[string]any, hint ToolHint) *Decision {
	return e.Decide(Action{Kind: MCPTool, Tool: name, Args: args, Hint: hint})
}

// marked is d's display with the warning sign where WarnAt places it, as
// the prompt draws it (approval.DisplayLine), so tests pin the marks.
func marked(d *Decision) string {
	if !d.Warn && d.Safety != Dangerous {
		return d.Display
	}
	if len(d.WarnAt) == 0 {
		return "⚠️ " + d.Display
	}
	var b strings.Builder
	last := 0
	for _, at := range d.WarnAt {
		if at < last || at > len(d.Display) {
			return fmt.Sprintf("bad marks %v in %q", d.WarnAt, d.Display)
		}
		b.WriteString(d.Display[last:at] + " ⚠️")
		last = at
	}
	return b.String() + d.Display[last:]
}

// edit_file and write_file judge their path as a write: a system path or
// startup file is dangerous, a secret and an entry programs run later are
// protected (asked whatever the approval mode); a plain file is neither.
func TestDecideWritePaths(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.Deny = []string{"edit"} })
	where := CommandContext{Cwd: "/home/u/proj", Home: "/home/u"}
	for _, c := range []struct {
		path      string
		protected bool
		safety    Safety
	}{
		{"/home/u/proj/main.go", false, Unknown},
		{"/home/u/.bashrc", true, Dangerous},
		{"/etc/hosts", true, Dangerous},
		{"/home/u/proj/.git/hooks/pre-commit", true, Dangerous},
		{"/home/u/proj/.env", true, Unknown},
		{"/home/u/proj/.envrc", true, Unknown},
		{"/home/u/proj/sub/.vscode/tasks.json", true, Unknown},
		{"/home/u/proj/.gitattributes", true, Unknown},
	} {
		d := e.Decide(Action{Kind: WriteFile, Path: c.path, Shown: c.path, Content: "x", Where: where})
		if d.Decision != Ask || d.Protected != c.protected || d.Safety != c.safety || !d.Warn {
			t.Errorf("write %s: %s protected=%v safety=%s, want protected=%v safety=%s (%q)", c.path, d.Decision, d.Protected, d.Safety, c.protected, c.safety, d.Reasons)
		}
	}
	d := e.Decide(Action{Kind: EditFile, Path: "/home/u/proj/a.go", Shown: "a.go", Content: "-x\n+y\n", Where: where})
	if d.Decision != Deny || d.DecidedBy != ByDenyRule || !strings.HasPrefix(d.Display, "edit: a.go") {
		t.Errorf("edit_file under deny rule edit: %+v", d)
	}
	e = newEngine(t, nil)
	d = e.Decide(Action{Kind: EditFile, Path: "/home/u/proj/a.go", Shown: "a.go", Content: "-x\n+y\n", Where: where})
	if d.Decision != Ask || d.Category != CatWrite || !strings.Contains(d.Full, "+y") {
		t.Errorf("edit_file: %+v", d)
	}
}

// In the workspace edit mode an edit inside the workspace is allowed
// (decided by the mode); outside it, of a protected path, or under a deny
// rule, it is asked or refused as before.
func TestEditModeWorkspace(t *testing.T) {
	e := newEngine(t, nil)
	where := CommandContext{Cwd: "/home/u/proj", Home: "/home/u"}
	edit := func(p string) *Decision {
		return e.Decide(Action{Kind: EditFile, Path: p, Shown: p, Content: "-a\n+b\n", Where: where})
	}
	if d := edit("/home/u/proj/main.go"); d.Decision != Ask {
		t.Fatalf("ask mode: %s", d.Decision)
	}
	e.SetEditsIn("/home/u/proj")
	for p, want := range map[string]Verdict{
		"/home/u/proj/main.go":        Allow,
		"/home/u/proj/sub/x.txt":      Allow,
		"/home/u/proj":                Ask,
		"/home/u/project2/x":          Ask,
		"/home/u/proj/../other/x":     Ask,
		"/home/u/proj/.env":           Ask,
		"/home/u/proj/.envrc":         Ask,
		"/home/u/proj/.git/config":    Ask,
		"/home/u/proj/.vscode/a.json": Ask,
		"/etc/passwd":                 Ask,
	} {
		d := edit(p)
		if d.Decision != want || (want == Allow) != (d.DecidedBy == ByEditMode) {
			t.Errorf("%s: %s by %s, want %s", p, d.Decision, d.DecidedBy, want)
		}
	}
	if d := e.Decide(Action{Kind: WriteFile, Path: "/home/u/proj/new.txt", Shown: "new.txt", Content: "x", Where: where}); d.Decision != Allow {
		t.Errorf("write in the workspace: %s", d.Decision)
	}
	e.SetHeadless(true)
	if d := edit("/home/u/proj/main.go"); d.Decision != Allow {
		t.Errorf("headless edit in the workspace: %s", d.Decision)
	}
	if d := edit("/home/u/proj/.env"); d.Decision != Deny || d.DecidedBy != ByHeadless {
		t.Errorf("headless edit of a secret: %s by %s", d.Decision, d.DecidedBy)
	}
	e = newEngine(t, func(o *Options) { o.Approval.Deny = []string{"edit_file"} })
	e.SetEditsIn("/home/u/proj")
	if d := edit("/home/u/proj/main.go"); d.Decision != Deny {
		t.Errorf("deny rule in the workspace mode: %s", d.Decision)
	}
	e.SetEditsIn("")
	if d := newEngine(t, nil).Decide(Action{Kind: EditFile, Path: "/home/u/proj/a", Shown: "a", Where: where}); d.Decision != Ask {
		t.Errorf("after the mode is off: %s", d.Decision)
	}
}

// OnlyWrites says which commands only write files, with nothing else nb
// knows of: those may be previewed.
func TestOnlyWrites(t *testing.T) {
	e := newEngine(t, nil)
	for cmd, want := range map[string]bool{
		"sed -i s/a/b/ f.txt":                true,
		"echo hi > notes.txt":                true,
		"mkdir -p d && mv a d/ && rm -r old": true,
		"find . -name '*.o' | xargs rm":      true,
		"timeout 5 cp a b":                   true,
		"ls":                                 false, // read-only
		"curl -o x https://example.com":      false, // network
		"cp a b && git push":                 false, // another effect
		"make":                               false,
		"$CMD x":                             false, // dynamic
		"rm $(cat list)":                     true,
		"echo $API_TOKEN > t":                false, // a secret
		"python3 -c 'open(\"x\",\"w\")'":     false,
		"sed -i s/a/b/ f.txt; kill -9 1":     false,
		"cp a b | nc example.com 80":         false,
		"bash -c 'rm x'":                     true,
		"sudo rm x":                          false,
		"tee out.txt < in.txt":               true,
		"ln -s target link && chmod 755 run": true,
	} {
		if d := decideCmd(e, cmd, testCC); d.OnlyWrites != want {
			t.Errorf("%q: OnlyWrites %v, want %v (%q)", cmd, d.OnlyWrites, want, d.Reasons)
		}
	}
}

// A command that only writes files names the places it may write, for
// the preview to overlay: its writing commands' operands and its
// redirections, as the directories they run in make them.
func TestOnlyWritesPaths(t *testing.T) {
	e := newEngine(t, nil)
	for cmd, want := range map[string][]string{
		"sed -i s/a/b/ ~/notes/todo.txt":     {"/home/u/notes/todo.txt", "/home/u/proj/s/a/b"},
		"cp x /srv/data/":                    {"/home/u/proj/x", "/srv/data"},
		"cd /var/x && echo hi > ../y.txt":    {"/home/u/y.txt", "/var/y.txt"},
		"cat /etc/hosts > out.txt":           {"/home/u/proj/out.txt"},
		"cp --target-directory=/opt/d a":     {"/home/u/proj/a", "/opt/d"},
		"rm /data/logs/*.log":                {"/data/logs"},
		"cd /data && rm *.log":               {"/data", "/home/u/proj"},
		"rm $(cat list)":                     nil,
		"ls":                                 nil, // not OnlyWrites
		"mv a b && mv ~/inbox/c ~/archive/c": {"/home/u/archive/c", "/home/u/inbox/c", "/home/u/proj/a", "/home/u/proj/b"},
	} {
		if d := decideCmd(e, cmd, testCC); !slices.Equal(d.Paths, want) {
			t.Errorf("%q: Paths %q, want %q", cmd, d.Paths, want)
		}
	}
}
