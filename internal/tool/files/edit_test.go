package files

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

func edit(path, old, new string) map[string]any {
	return map[string]any{"path": path, "oldText": old, "newText": new}
}

// An edit replaces exactly the text, is decided as an edit with its diff,
// keeps the file's mode, and leaves no temporary file.
func TestEditFile(t *testing.T) {
	e := setup(t)
	p := filepath.Join(e.root, "hello.txt")
	d, res, err := e.call(t, "edit_file", edit("hello.txt", "world", "there"))
	must(t, err)
	if d.Decision != policy.Ask || !d.Warn || d.Display != "edit: hello.txt" || !strings.Contains(d.Full, "-world\n+there\n") {
		t.Fatalf("edit decision: %+v", d)
	}
	if res.IsError || !strings.Contains(res.Content, "replaced 1 occurrence (+1 -1 lines)") {
		t.Fatalf("edit: %q", res.Content)
	}
	if res.Changes == nil || len(res.Changes.Files) != 1 || res.Changes.Files[0].Kind() != changes.Modified {
		t.Fatalf("edit changes: %+v", res.Changes)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "hello\nthere\n" {
		t.Fatalf("file = %q", got)
	}
	if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(e.root)
	for _, en := range ents {
		if strings.HasPrefix(en.Name(), ".hello") {
			t.Errorf("temporary file left: %s", en.Name())
		}
	}
}

// CRLF line ends and a byte order mark are kept: the model's \n text
// matches the file's \r\n lines and the new text is written with \r\n.
func TestEditKeepsLineEndsAndBOM(t *testing.T) {
	e := setup(t)
	p := filepath.Join(e.root, "win.txt")
	must(t, os.WriteFile(p, []byte("\xEF\xBB\xBFone\r\ntwo\r\nthree\r\n"), 0o644))
	_, res, err := e.call(t, "edit_file", edit("win.txt", "one\ntwo\n", "one\nTWO\nand a half\n"))
	must(t, err)
	if res.IsError {
		t.Fatal(res.Content)
	}
	got, _ := os.ReadFile(p)
	if want := "\xEF\xBB\xBFone\r\nTWO\r\nand a half\r\nthree\r\n"; string(got) != want {
		t.Fatalf("file = %q, want %q", got, want)
	}
	// write_file over it keeps them too, unless the content has its own
	_, res, err = e.call(t, "write_file", map[string]any{"path": "win.txt", "content": "a\nb\n"})
	must(t, err)
	got, _ = os.ReadFile(p)
	if want := "\xEF\xBB\xBFa\r\nb\r\n"; res.IsError || string(got) != want {
		t.Fatalf("rewrite = %q, want %q (%s)", got, want, res.Content)
	}
}

// The model's mistakes get errors it can act on: the closest lines, the
// lines of every occurrence, a hint for whitespace.
func TestEditErrors(t *testing.T) {
	e := setup(t)
	must(t, os.WriteFile(filepath.Join(e.root, "code.go"), []byte("func main() {\n\tfmt.Println(\"hi\")\n\tfmt.Println(\"hi\")\n}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(e.root, "bin"), []byte("a\x00b"), 0o644))
	for _, c := range []struct {
		args any
		want string
	}{
		{edit("code.go", "fmt.Println(\"hi\")", "x"), "occurs 2 times (at lines 2, 3)"},
		{edit("code.go", "fmt.Printn(\"hi\")", "x"), "closest to its first line are:\n     2: \tfmt.Println(\"hi\")"},
		{edit("code.go", "func  main()  {\n    fmt.Println(\"hi\")", "x"), "other whitespace is at line 1"},
		{edit("code.go", "zzzz", "x"), "no line of the file is close"},
		{edit("code.go", "", "x"), "oldText is empty"},
		{edit("code.go", "main", "main"), "the same"},
		{edit("missing.go", "a", "b"), "does not exist"},
		{edit("sub", "a", "b"), "is a dir"},
		{edit("bin", "a", "b"), "binary"},
		{map[string]any{"path": "code.go", "oldText": "a"}, "oldText and newText are required"},
	} {
		_, _, err := e.call(t, "edit_file", c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	_, res, err := e.call(t, "edit_file", map[string]any{"path": "code.go", "oldText": "\"hi\"", "newText": "\"hello\"", "replaceAll": true})
	must(t, err)
	got, _ := os.ReadFile(filepath.Join(e.root, "code.go"))
	if res.IsError || strings.Count(string(got), "hello") != 2 || !strings.Contains(res.Content, "replaced 2 occurrences") {
		t.Fatalf("replaceAll: %q %s", got, res.Content)
	}
}

// A file changed between the review (the diff the user saw) and the run is
// not overwritten: the edit is refused, naming the file.
func TestEditRefusesAfterConcurrentChange(t *testing.T) {
	e := setup(t)
	p := filepath.Join(e.root, "hello.txt")
	for _, name := range []string{"edit_file", "write_file"} {
		args := map[string]any{"path": "hello.txt", "content": "mine\n"}
		if name == "edit_file" {
			args = edit("hello.txt", "hello", "bye")
		}
		must(t, os.WriteFile(p, []byte("hello\nworld\n"), 0o644))
		inv, err := tooltest.Review(t, e.tools[name], tool.At{Cwd: e.root}, args)
		must(t, err)
		must(t, os.WriteFile(p, []byte("hello\nsomeone else\n"), 0o644))
		res, err := inv.Run(context.Background())
		must(t, err)
		if !res.IsError || !strings.Contains(res.Content, "hello.txt changed on disk") {
			t.Errorf("%s after a concurrent change: %s", name, res.Content)
		}
		if got, _ := os.ReadFile(p); string(got) != "hello\nsomeone else\n" {
			t.Errorf("%s overwrote the other change: %q", name, got)
		}
	}
}

// The path is judged as a write: a secret or an entry programs run later
// is protected; a file outside the roots is refused at review.
func TestEditJudgedAsWrite(t *testing.T) {
	e := setup(t)
	must(t, os.WriteFile(filepath.Join(e.root, ".env"), []byte("A=1\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(e.root, ".envrc"), []byte("use nix\n"), 0o644))
	for _, name := range []string{".env", ".envrc"} {
		inv, err := tooltest.Review(t, e.tools["edit_file"], tool.At{Cwd: e.root}, edit(name, "1", "2"))
		if name == ".envrc" {
			inv, err = tooltest.Review(t, e.tools["edit_file"], tool.At{Cwd: e.root}, edit(name, "nix", "flake"))
		}
		must(t, err)
		if !inv.Decision.Protected || inv.Decision.Decision != policy.Ask {
			t.Errorf("edit %s: %+v", name, inv.Decision)
		}
	}
	if _, _, err := e.call(t, "edit_file", edit("escape/secret.txt", "top", "x")); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("edit outside the roots: %v", err)
	}
}
