package fsfacts

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestPlainNames: a name that word splitting, globbing or xargs would
// change, anywhere below the tree, makes it not plain; links are not
// followed, as find does not follow them.
func TestPlainNames(t *testing.T) {
	mk := func(t *testing.T, paths ...string) string {
		t.Helper()
		root := t.TempDir()
		for _, p := range paths {
			full := filepath.Join(root, p)
			if strings.HasSuffix(p, "/") {
				if err := os.MkdirAll(full, 0o755); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	for _, c := range []struct {
		paths []string
		plain bool
	}{
		{[]string{"a.txt", "src/main.go", "docs/x-y_z.md", "é/ü.txt"}, true},
		{[]string{"src/a b.txt"}, false},
		{[]string{"a ../.ssh/id_rsa"}, false},
		{[]string{"src/-rf"}, false},
		{[]string{"x*"}, false},
		{[]string{".?"}, false},
		{[]string{"[ab]"}, false},
		{[]string{"it's"}, false},
		{[]string{`a"b`}, false},
		{[]string{`a\b`}, false},
		{[]string{"a\tb"}, false},
		{[]string{"a\nb"}, false},
		{[]string{"deep/er/still/a b/"}, false},
	} {
		root := mk(t, c.paths...)
		if got := (Disk{}).PlainNames(root); got != c.plain {
			t.Errorf("%q: PlainNames = %v, want %v", c.paths, got, c.plain)
		}
	}
	root := mk(t, "a.txt")
	outside := mk(t, "odd name.txt")
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if !(Disk{}).PlainNames(root) {
		t.Errorf("a link to a directory with odd names was followed")
	}
	if (Disk{}).PlainNames(filepath.Join(root, "missing")) {
		t.Errorf("a missing directory is plain")
	}
	big := mk(t, "a", "b", "c", "d")
	if (Disk{MaxEntries: 3}).PlainNames(big) {
		t.Errorf("a tree beyond the budget is plain")
	}
}

// TestPlainNamesAgainstXargs: in the hostile tree the fact refuses, real
// find | xargs turns a name into a path outside it; in a plain tree each
// name arrives whole.
func TestPlainNamesAgainstXargs(t *testing.T) {
	testenv.Tool(t, "find")
	testenv.Tool(t, "xargs")
	args := func(dir string) []string {
		cmd := exec.Command("sh", "-c", `find . -type f | xargs printf '%s\n'`)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	hostile := t.TempDir()
	if err := os.MkdirAll(filepath.Join(hostile, "a ..", ".ssh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hostile, "a ..", ".ssh", "id_rsa"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := args(hostile); !slices.Contains(got, "../.ssh/id_rsa") {
		t.Fatalf("xargs gave %q; the hostile tree did not split as expected", got)
	}
	if (Disk{}).PlainNames(hostile) {
		t.Fatalf("the hostile tree is plain")
	}
	plain := t.TempDir()
	for _, p := range []string{"a.txt", "src/b.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(plain, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plain, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := args(plain)
	slices.Sort(got)
	if !(Disk{}).PlainNames(plain) || !slices.Equal(got, []string{"./a.txt", "./src/b.go"}) {
		t.Fatalf("plain tree: xargs gave %q", got)
	}
}
