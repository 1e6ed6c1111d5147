package fsfacts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// globTree builds a directory holding a file named like an option, a
// secret file, hidden files and ordinary ones.
func globTree(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("file names such as -delete and bash's globbing are Unix ones")
	}
	dir := t.TempDir()
	for _, f := range []string{"a.txt", "b.txt", "README.md", "notes.md", "src/main.go", "src/util.go",
		"src/.hidden.go", "docs/x.md", "img/logo.gif", "-delete", ".env", "c1.log", "c2.log", "cA.log"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGlobMatchesBash holds Disk.Glob to what bash itself generates for the
// same pattern in the same directory (default options); the only extra
// words allowed are . and .. (which bash before 5.2 generates for .*).
func TestGlobMatchesBash(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	dir := globTree(t)
	d := fsfacts.Disk{}
	for _, pat := range []string{"*", "*.txt", "*.md", "src/*.go", "src/.*", "*/*.md", "*/*", "c[0-9].log",
		"c[!0-9].log", "c[^0-9].log", "?.txt", "*.none", "nodir/*.go", ".*", ".e*", "*/x.md", "*/nothing",
		"-*", "README.m?", "*/", "src/*/", ".*/", "*/*/", "img/*", "[a-b].txt", dir + "/*.txt", dir + "/src/*"} {
		got, complete := d.Glob(dir, pat)
		if !complete {
			t.Errorf("Glob(%q) incomplete", pat)
			continue
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `for w in `+pat+`; do printf '%s\n' "$w"; done`)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C", "PATH=" + os.Getenv("PATH")}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(want) == 1 && want[0] == pat {
			want = nil // no match: bash passes the pattern itself
		}
		var extra []string
		for _, g := range got {
			if !slices.Contains(want, g) {
				extra = append(extra, g)
			}
		}
		for _, x := range extra {
			if b := filepath.Base(x); b != "." && b != ".." {
				t.Errorf("Glob(%q) = %q, bash %q", pat, got, want)
				break
			}
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("Glob(%q) = %q misses %q (bash %q)", pat, got, w, want)
			}
		}
	}
	// patterns not modelled, and too large a tree, are not known
	for _, pat := range []string{"[[:alpha:]].txt", "a[", "*//x", "[]a].txt"} {
		if _, complete := d.Glob(dir, pat); complete {
			t.Errorf("Glob(%q) complete", pat)
		}
	}
	if _, complete := (fsfacts.Disk{MaxEntries: 3}).Glob(dir, "*"); complete {
		t.Errorf("Glob over the entry budget complete")
	}
}

// TestGlobDecisions decides commands with unquoted globs in a real
// directory: the words bash would pass are judged.
func TestGlobDecisions(t *testing.T) {
	dir := globTree(t)
	safe := t.TempDir()
	for _, f := range []string{"a.txt", "b.md"} {
		if err := os.WriteFile(filepath.Join(safe, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keys := t.TempDir()
	for _, f := range []string{"id_rsa", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(keys, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linked := t.TempDir()
	if err := os.Symlink(filepath.Join(keys, "id_rsa"), filepath.Join(linked, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir   string
		cmd   string
		allow bool
	}{
		{dir, "ls *.gif", true},
		{dir, "ls -d */", true},            // no match: passed as written
		{dir, "ls img/*.gif", true},        // one match
		{dir, "cat *.md", true},            // README.md notes.md
		{dir, "wc -l src/*.go", true},      // .hidden.go is not matched
		{dir, "find . -name *.log", true},  // find . -name c1.log c2.log cA.log: find refuses the extra names
		{safe, "find . -name *.txt", true}, // find . -name a.txt
		{safe, "find . -name *.go", true},  // no match: find . -name '*.go'
		{dir, "ls *", false},               // -delete would be an option
		{dir, "find *", false},             // find -delete … deletes
		{dir, "cat -- *", false},           // still matches -delete: asked, the rule does not look at --
		{dir, "cat .e*", false},            // .env
		{dir, "grep x .*", false},          // .env
		{keys, "cat *", false},             // id_rsa
		{keys, "ls *", false},              // id_rsa
		{keys, "cat *.txt", true},
		{linked, "cat *.txt", false},         // notes.txt leads to id_rsa            // notes.txt
		{safe, "cat [[:alpha:]].txt", false}, // not modelled: unknown
		{safe, "cat id_*", false},            // no match, but may name a key when it runs
	} {
		cc := policy.CommandContext{Cwd: filepath.ToSlash(c.dir), Home: "/nonexistent-home", Facts: fsfacts.Disk{}}
		if d := decide(e, c.cmd, cc); (d.Decision == policy.Allow) != c.allow {
			t.Errorf("%s in %s: %v (%v), want allow=%v", c.cmd, c.dir, d.Decision, d.Reasons, c.allow)
		}
	}
	cc := policy.CommandContext{Cwd: filepath.ToSlash(dir), Home: "/nonexistent-home", Facts: fsfacts.Disk{MaxEntries: 3}}
	if d := decide(e, "cat *.md", cc); d.Decision == policy.Allow {
		t.Errorf("a glob over too many entries allowed")
	}
}
