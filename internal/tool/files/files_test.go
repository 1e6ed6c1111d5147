package files

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

var update = flag.Bool("update", false, "rewrite golden files")

type env struct {
	root, outside string
	tools         map[string]tool.Tool
	wd            *tool.Workdir
}

func setup(t *testing.T) *env {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside, filepath.Join(root, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("top secret\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello\nworld\n"), 0o640))
	must(t, os.Symlink(outside, filepath.Join(root, "escape")))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "secret-link")))
	must(t, os.Symlink(filepath.Join(outside, "nothing-yet"), filepath.Join(root, "dangling")))
	must(t, os.Symlink("hello.txt", filepath.Join(root, "inside-link")))
	roots, err := NewRoots(root)
	must(t, err)
	t.Cleanup(func() { roots.Close() })
	wd := tool.NewWorkdir(root)
	e := &env{root: roots.Dirs()[0], outside: outside, tools: map[string]tool.Tool{}, wd: wd}
	for _, tl := range New(Options{Roots: roots, Policy: tooltest.Engine(t, nil), MaxReadBytes: 64}) {
		e.tools[tl.Spec().Name] = tl
	}
	return e
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (e *env) call(t *testing.T, name string, args any) (*policy.Decision, *tool.Result, error) {
	t.Helper()
	return tooltest.Call(t, e.tools[name], tool.At{Cwd: e.wd.Cwd()}, args)
}

func TestEscapesRefused(t *testing.T) {
	e := setup(t)
	cases := []struct{ tool, path string }{
		{"read_file", "../outside/secret.txt"},
		{"read_file", "sub/../../outside/secret.txt"},
		{"read_file", filepath.Join(e.outside, "secret.txt")},
		{"read_file", "/etc/passwd"},
		{"read_file", "escape/secret.txt"},
		{"read_file", "secret-link"},
		{"list_dir", "escape"},
		{"list_dir", ".."},
		{"path_info", "escape/secret.txt"},
		{"write_file", "escape/new.txt"},
		{"write_file", "dangling"},
		{"write_file", "../outside/new.txt"},
		{"write_file", "escape/deeper/new.txt"},
	}
	for _, c := range cases {
		args := map[string]any{"path": c.path, "content": "x"}
		if c.tool != "write_file" {
			delete(args, "content")
		}
		d, res, err := e.call(t, c.tool, args)
		if err == nil || d != nil {
			t.Errorf("%s %s: review allowed it: %+v", c.tool, c.path, d)
		} else if !strings.Contains(err.Error(), "outside the allowed roots") {
			t.Errorf("%s %s: review error %q does not say why", c.tool, c.path, err)
		}
		if !res.IsError || strings.Contains(res.Content, "top secret") {
			t.Errorf("%s %s: run did not refuse: %q", c.tool, c.path, res.Content)
		}
	}
	for _, p := range []string{"new.txt", "nothing-yet"} {
		if _, err := os.Lstat(filepath.Join(e.outside, p)); err == nil {
			t.Errorf("a file was created outside the root: %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(e.outside, "deeper")); err == nil {
		t.Errorf("a directory was created outside the root")
	}
}

// A path that cannot be resolved is refused with an error naming it, as
// the model gave it.
func TestUnresolvablePathNamed(t *testing.T) {
	e := setup(t)
	must(t, os.Symlink("loop", filepath.Join(e.root, "loop")))
	for path, why := range map[string]string{
		"hello.txt/x": "not a directory",
		"loop/x":      "too many links",
	} {
		for name, args := range map[string]map[string]any{
			"write_file": {"path": path, "content": "x"},
			"read_file":  {"path": path},
			"edit_file":  {"path": path, "oldText": "a", "newText": "b"},
		} {
			_, _, err := e.call(t, name, args)
			if err == nil || !strings.HasPrefix(err.Error(), path+":") || !strings.Contains(err.Error(), why) {
				t.Errorf("%s %s: %v, want an error naming the path and saying %q", name, path, err, why)
			}
		}
	}
}

func TestSymlinkInsideAllowed(t *testing.T) {
	e := setup(t)
	d, res, err := e.call(t, "read_file", map[string]any{"path": "inside-link"})
	must(t, err)
	if d.Decision != policy.Allow || res.Content != "hello\nworld\n" {
		t.Fatalf("decision %v, content %q", d.Decision, res.Content)
	}
}

func TestReadLimitsAndLines(t *testing.T) {
	e := setup(t)
	big := strings.Repeat("line of text\n", 20)
	must(t, os.WriteFile(filepath.Join(e.root, "big.txt"), []byte(big), 0o644))
	_, res, _ := e.call(t, "read_file", map[string]any{"path": "big.txt"})
	if !res.IsError || !strings.Contains(res.Content, "over the 64 B limit") || !strings.Contains(res.Content, "startLine") {
		t.Fatalf("big read: %q", res.Content)
	}
	_, res, _ = e.call(t, "read_file", map[string]any{"path": "big.txt", "startLine": 3, "lineCount": 2})
	if res.IsError || res.Content != "line of text\nline of text\n" {
		t.Fatalf("line read: %q", res.Content)
	}
	_, res, _ = e.call(t, "read_file", map[string]any{"path": "big.txt", "startLine": 2})
	if !strings.Contains(res.Content, "continue with startLine 6") {
		t.Fatalf("partial read: %q", res.Content)
	}
	must(t, os.WriteFile(filepath.Join(e.root, "bin"), []byte("ab\x00cd"), 0o644))
	_, res, _ = e.call(t, "read_file", map[string]any{"path": "bin"})
	if !strings.Contains(res.Content, "binary file bin, 5 B") {
		t.Fatalf("binary: %q", res.Content)
	}
	must(t, os.WriteFile(filepath.Join(e.root, "latin1"), []byte("caf\xe9\n"), 0o644))
	_, res, _ = e.call(t, "read_file", map[string]any{"path": "latin1"})
	if !strings.Contains(res.Content, "binary file") {
		t.Fatalf("invalid utf-8: %q", res.Content)
	}
	_, res, _ = e.call(t, "read_file", map[string]any{"path": "sub"})
	if !res.IsError || !strings.Contains(res.Content, "list_dir") {
		t.Fatalf("dir: %q", res.Content)
	}
}

func TestWriteAtomicKeepsMode(t *testing.T) {
	e := setup(t)
	d, res, err := e.call(t, "write_file", map[string]any{"path": "hello.txt", "content": "new\n"})
	must(t, err)
	if d.Decision != policy.Ask || !d.Warn || d.DefaultAnswer != "no" || d.OfferAlways || d.Display != "write: hello.txt" || !strings.Contains(d.Full, "new\n") {
		t.Fatalf("write decision: %+v", d)
	}
	if res.IsError || !strings.HasPrefix(res.Content, "overwrote") {
		t.Fatalf("write: %q", res.Content)
	}
	fi, err := os.Stat(filepath.Join(e.root, "hello.txt"))
	must(t, err)
	if fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", fi.Mode().Perm())
	}
	_, res, _ = e.call(t, "write_file", map[string]any{"path": "a/b/c.txt", "content": ""})
	if res.IsError {
		t.Fatal(res.Content)
	}
	if b, err := os.ReadFile(filepath.Join(e.root, "a/b/c.txt")); err != nil || len(b) != 0 {
		t.Fatalf("nested write: %q %v", b, err)
	}
	ents, _ := os.ReadDir(e.root)
	for _, en := range ents {
		if strings.Contains(en.Name(), ".tmp") || strings.Contains(en.Name(), ".nb") {
			t.Errorf("temporary file left: %s", en.Name())
		}
	}
	_, _, err = e.call(t, "write_file", map[string]any{"path": "x.txt"})
	if err == nil || !strings.Contains(err.Error(), "content is required") {
		t.Fatalf("missing content: %v", err)
	}
}

func TestListAndInfo(t *testing.T) {
	e := setup(t)
	_, res, err := e.call(t, "list_dir", map[string]any{})
	must(t, err)
	for _, want := range []string{"hello.txt\t12 B", "sub/", "escape -> " + e.outside} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("list_dir lacks %q:\n%s", want, res.Content)
		}
	}
	_, res, err = e.call(t, "path_info", map[string]any{"path": "inside-link"})
	must(t, err)
	var info Info
	must(t, json.Unmarshal([]byte(res.Content), &info))
	if !info.Exists || info.Type != "file" || info.Size != 12 || info.Symlink != "hello.txt" || info.Resolved != filepath.Join(e.root, "hello.txt") {
		t.Fatalf("info: %+v", info)
	}
	_, res, _ = e.call(t, "path_info", map[string]any{"path": "missing/x"})
	must(t, json.Unmarshal([]byte(res.Content), &info))
	if info.Exists {
		t.Fatalf("missing path exists: %+v", info)
	}
	// Relative paths follow the working directory.
	e.wd.SetCwd(filepath.Join(e.root, "sub"))
	_, res, _ = e.call(t, "path_info", map[string]any{"path": "../hello.txt"})
	must(t, json.Unmarshal([]byte(res.Content), &info))
	if !info.Exists {
		t.Fatalf("relative to cwd: %+v", info)
	}
}

func TestSensitiveReadAsks(t *testing.T) {
	e := setup(t)
	must(t, os.WriteFile(filepath.Join(e.root, ".env"), []byte("TOKEN=x\n"), 0o600))
	d, _, err := e.call(t, "read_file", map[string]any{"path": ".env"})
	must(t, err)
	if d.Decision != policy.Ask || !d.Warn {
		t.Fatalf(".env read decision: %+v", d)
	}
}

func TestSpecsGolden(t *testing.T) {
	roots, err := NewRoots(t.TempDir())
	must(t, err)
	t.Cleanup(func() { roots.Close() })
	var specs []any
	for _, tl := range New(Options{Roots: roots, Policy: tooltest.Engine(t, nil)}) {
		s := tl.Spec()
		var schema any
		must(t, json.Unmarshal(s.Schema, &schema))
		specs = append(specs, map[string]any{"name": s.Name, "description": s.Description, "schema": schema})
	}
	got, _ := json.MarshalIndent(specs, "", "  ")
	golden := filepath.Join("testdata", "specs.golden.json")
	if *update {
		must(t, os.MkdirAll("testdata", 0o755))
		must(t, os.WriteFile(golden, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(golden)
	must(t, err)
	if strings.TrimSpace(string(want)) != string(got) {
		t.Fatalf("tool specs changed; run go test -update if intended\n%s", got)
	}
}

// With nb's policy engine, reads are decided like `cat PATH`: deny rules and
// the engine's sensitive paths apply. Part of the Windows suite: there the
// deny rule names the file with a drive letter and backslashes.
func TestWinReadsThroughPolicy(t *testing.T) {
	base := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(base, ".aws"), 0o700))
	must(t, os.WriteFile(filepath.Join(base, ".aws", "config"), []byte("x"), 0o600))
	must(t, os.WriteFile(filepath.Join(base, "server.pem"), []byte("x"), 0o600))
	must(t, os.WriteFile(filepath.Join(base, "plain.txt"), []byte("x"), 0o600))
	must(t, os.WriteFile(filepath.Join(base, "blocked.txt"), []byte("x"), 0o600))
	engine, err := policy.New(policy.Options{Approval: config.Default().Approval})
	must(t, err)
	roots, err := NewRoots(base)
	must(t, err)
	t.Cleanup(func() { roots.Close() }) // Windows removes no directory a root holds open
	engine2, err := policy.New(policy.Options{Approval: config.Approval{AutoApproveSafe: true, Deny: []string{"cat " + filepath.Join(roots.Dirs()[0], "blocked.txt")}}})
	must(t, err)
	for _, c := range []struct {
		engine *policy.Engine
		path   string
		want   policy.Verdict
	}{
		{engine, "plain.txt", policy.Allow},
		{engine, ".aws/config", policy.Ask},
		{engine, "server.pem", policy.Ask},
		{engine2, "blocked.txt", policy.Deny},
		{engine2, "plain.txt", policy.Allow},
	} {
		tools := New(Options{Roots: roots, Policy: c.engine, Home: base})
		raw, _ := json.Marshal(map[string]any{"path": c.path})
		inv, err := tools[0].Review(context.Background(), &tool.Call{Args: raw}, tool.At{Cwd: base})
		must(t, err)
		if d := inv.Decision; d.Decision != c.want || d.Display != "read: "+c.path {
			t.Errorf("%s: %s %q, want %s", c.path, inv.Decision.Decision, inv.Decision.Display, c.want)
		}
	}
}
