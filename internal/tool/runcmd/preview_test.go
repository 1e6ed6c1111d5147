package runcmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// fakeView is a previewer whose "overlay" is directories the test fills:
// what the command would have written, a write to /tmp, a refusal of the
// sandbox; it records whether it ran.
type fakeView struct {
	t        *testing.T
	ws       string
	write    map[string]string // upper entries to create
	tmpWrite bool
	exit     host.Exit
	skipped  []string
	ran      int
	places   changes.Places
}

func (f *fakeView) preview(_ context.Context, c *host.Command, places changes.Places) (*changes.Overlay, *host.Exit, error) {
	f.ran++
	f.places = places
	up, tmp := f.t.TempDir(), f.t.TempDir()
	for name, content := range f.write {
		p := filepath.Join(up, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	if f.tmpWrite {
		os.WriteFile(filepath.Join(tmp, "scratch"), []byte("x"), 0o644)
	}
	c.Stdout.Write([]byte("previewed output\n"))
	ex := f.exit
	return &changes.Overlay{Uppers: map[string]string{f.ws: up}, Tmp: tmp, Skipped: f.skipped}, &ex, nil
}

func previewKit(t *testing.T, v *fakeView, approve ...string) (tool.Tool, string) {
	t.Helper()
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	v.t, v.ws = t, ws
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("beta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	local := &host.Local{}
	t.Cleanup(func() { local.Close() })
	run, _ := New(Options{Hosts: host.NewActive(local), Workdir: tool.NewWorkdir(ws),
		Policy: tooltest.Engine(t, func(o *policy.Options) { o.Approve = approve }), Config: config.Default().TerminalIntegration,
		Getenv: func(string) string { return "" }, Preview: v.preview})
	return run, ws
}

func reviewCmd(t *testing.T, run tool.Tool, ws, command string) *tool.Invocation {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"command": command})
	inv, err := run.Review(context.Background(), &tool.Call{ID: "c", Name: "run_cmd", Args: args}, tool.At{Cwd: ws})
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

// A command that only writes and is asked gets a preview when the agent
// asks for it: the changes and the output go to the approval, and Run
// applies them without running the command (which the fake never ran for
// real); a file changed meanwhile refuses the whole change.
func TestPreviewAppliesWithoutRunning(t *testing.T) {
	v := &fakeView{write: map[string]string{"notes.txt": "BETA\n", "new/made.txt": "made\n"}}
	run, ws := previewKit(t, v)
	inv := reviewCmd(t, run, ws, "sed -i s/beta/BETA/ notes.txt && mkdir new && echo made > new/made.txt")
	if inv.Preview == nil || v.ran != 0 {
		t.Fatalf("no preview offered, or it ran at review (%d)", v.ran)
	}
	inv.Preview(context.Background())
	if inv.Changes == nil || len(inv.Changes.Visible()) != 3 || !strings.Contains(inv.Changes.Output, "previewed output") {
		t.Fatalf("changes after the preview: %+v", inv.Changes)
	}
	if !strings.Contains(strings.Join(inv.Decision.Reasons, "; "), "previewed in a copy-on-write view") {
		t.Errorf("reasons: %q", inv.Decision.Reasons)
	}
	res, err := inv.Run(context.Background())
	if err != nil || res.IsError || !strings.Contains(res.Content, "nb applied the 3 file changes") || res.Changes == nil {
		t.Fatalf("apply: %+v %v", res, err)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "new", "made.txt")); string(got) != "made\n" {
		t.Errorf("new/made.txt = %q", got)
	}
	if v.ran != 1 {
		t.Errorf("the command ran %d times in the view", v.ran)
	}

	// a file changed between the preview and the approval
	v.write = map[string]string{"notes.txt": "gamma\n"}
	inv = reviewCmd(t, run, ws, "sed -i s/BETA/gamma/ notes.txt")
	inv.Preview(context.Background())
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("by hand\n"), 0o644)
	res, _ = inv.Run(context.Background())
	if !res.IsError || !strings.Contains(res.Content, "notes.txt changed on disk since the preview") {
		t.Fatalf("apply after a change on disk: %s", res.Content)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "notes.txt")); string(got) != "by hand\n" {
		t.Errorf("notes.txt = %q", got)
	}
}

// Where the preview cannot stand for the command, the question is
// today's, saying why: the sandbox refused part of it, it wrote to /tmp,
// it did not finish. Commands that do more than write, or that are not
// asked, get no preview at all.
func TestNoPreviewSaysWhy(t *testing.T) {
	for _, c := range []struct {
		view *fakeView
		why  string
	}{
		{&fakeView{exit: host.Exit{Code: 1, Sandboxed: true}}, "no preview: in the preview the sandbox refused part of it"},
		{&fakeView{exit: host.Exit{Code: 1, Sandboxed: true}, skipped: []string{"/etc/x: a system path"}}, "no preview: it failed in the preview, and it names places the preview cannot make writable (/etc/x: a system path)"},
		{&fakeView{exit: host.Exit{Code: 2}, skipped: []string{"/srv/x: a system path"}}, "no preview: it failed in the preview, and it names places the preview cannot make writable (/srv/x: a system path)"},
		{&fakeView{tmpWrite: true}, "no preview: it writes outside the workspace (/tmp/scratch)"},
		{&fakeView{exit: host.Exit{TimedOut: true, Duration: time.Second}}, "no preview: it did not finish in the preview"},
	} {
		run, ws := previewKit(t, c.view)
		inv := reviewCmd(t, run, ws, "cp notes.txt copy.txt")
		inv.Preview(context.Background())
		if inv.Changes != nil || !strings.Contains(strings.Join(inv.Decision.Reasons, "; "), c.why) {
			t.Errorf("%s: changes %v, reasons %q", c.why, inv.Changes, inv.Decision.Reasons)
		}
	}
	v := &fakeView{}
	run, ws := previewKit(t, v, "cp *")
	for _, cmd := range []string{"curl -o x https://example.com", "ls", "cp notes.txt copy.txt"} {
		if inv := reviewCmd(t, run, ws, cmd); inv.Preview != nil {
			t.Errorf("%q: a preview for a command that is %s", cmd, inv.Decision.Decision)
		}
	}
}

// The preview is told the places the command names, and the policy's
// protected places are refused as places to overlay: a secret, a system
// path. A previewed change to a protected file says so in the question.
func TestPreviewPlaces(t *testing.T) {
	home, _ := filepath.EvalSymlinks(t.TempDir())
	v := &fakeView{write: map[string]string{".envrc": "export X=1\n"}}
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	v.t, v.ws = t, ws
	local := &host.Local{}
	t.Cleanup(func() { local.Close() })
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	run, _ := New(Options{Hosts: host.NewActive(local), Workdir: tool.NewWorkdir(ws),
		Policy: tooltest.Engine(t, nil), Config: config.Default().TerminalIntegration, Getenv: getenv, Preview: v.preview})
	inv := reviewCmd(t, run, ws, "sed -i s/a/b/ ~/notes/todo.txt")
	if inv.Preview == nil {
		t.Fatalf("no preview: %q", inv.Decision.Reasons)
	}
	inv.Preview(context.Background())
	want := filepath.Join(home, "notes", "todo.txt")
	if !slices.Contains(v.places.Named, want) {
		t.Errorf("places named %q, want %s among them", v.places.Named, want)
	}
	for dir, refused := range map[string]bool{
		filepath.Join(home, "notes"): false, ws: false,
		filepath.Join(home, ".ssh"): true, "/etc": true, "/usr/lib": true, filepath.Join(ws, ".git"): true,
	} {
		if why := v.places.Refuse(dir); (why != "") != refused {
			t.Errorf("Refuse(%s) = %q, want refused %v", dir, why, refused)
		}
	}
	if r := strings.Join(inv.Decision.Reasons, "; "); !strings.Contains(r, "it changes .envrc: ") {
		t.Errorf("a protected file changed in the preview is not said: %q", r)
	}
}
