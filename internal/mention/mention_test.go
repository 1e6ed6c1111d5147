package mention

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

func write(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// In a git work tree the files are git's: tracked and untracked ones, the
// ignored ones (by .gitignore, nested too) left out.
func TestFilesRespectGitignore(t *testing.T) {
	testenv.Tool(t, "git")
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	write(t, dir, "src/main.go", "README.md", ".env", "build/out.bin", "web/node_modules/x/index.js", "web/app.js", "web/.gitignore", "notes/todo.txt")
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".env\nbuild/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "web", ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", "src/main.go", "README.md")
	run("commit", "-q", "-m", "x")
	got, err := Files(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{".gitignore", "README.md", "notes/todo.txt", "src/main.go", "web/.gitignore", "web/app.js"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
}

func TestFilesWithoutGit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.txt", "sub/b.txt", ".hidden/c.txt", "node_modules/d.js")
	got, err := Files(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if want := []string{"a.txt", "sub/b.txt"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
}

func TestMatchIsFuzzyAndRanked(t *testing.T) {
	files := []string{"internal/cli/chat.go", "internal/lineedit/lineedit.go", "docs/ui.md", "internal/cli/input.go", "cmd/nb/main.go", "README.md"}
	if got := Match(files, "lineed", 3); len(got) == 0 || got[0] != "internal/lineedit/lineedit.go" {
		t.Errorf("lineed: %q", got)
	}
	if got := Match(files, "clichat", 3); len(got) == 0 || got[0] != "internal/cli/chat.go" {
		t.Errorf("clichat (a subsequence across the path): %q", got)
	}
	if got := Match(files, "README", 3); len(got) == 0 || got[0] != "README.md" {
		t.Errorf("README: %q", got)
	}
	if got := Match(files, "input", 3); len(got) == 0 || got[0] != "internal/cli/input.go" {
		t.Errorf("input: %q", got)
	}
	if got := Match(files, "zzz", 3); len(got) != 0 {
		t.Errorf("zzz matched %q", got)
	}
	if got := Match(files, "", 2); len(got) != 2 || got[0] != "README.md" {
		t.Errorf("empty query: %q", got)
	}
}

func TestFindAndWord(t *testing.T) {
	got := Find("see @src/main.go, and (@docs/ui.md). mail me at a@b.com @")
	want := []Mention{{"src/main.go", 4, 16}, {"docs/ui.md", 23, 34}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Find = %+v, want %+v", got, want)
	}
	if s, q, ok := Word("look at @src/ma", 15); !ok || s != 8 || q != "src/ma" {
		t.Errorf("Word = %d %q %v", s, q, ok)
	}
	if _, _, ok := Word("a@b", 3); ok {
		t.Error("an address is no mention")
	}
	if _, _, ok := Word("look at", 7); ok {
		t.Error("no @ at all")
	}
}

// TestFilesRunNothingOfTheRepository: listing a repository's files for
// completion runs nothing its configuration names: its core.fsmonitor
// hook, which plain git ls-files --others runs (the control), stays idle.
func TestFilesRunNothingOfTheRepository(t *testing.T) {
	testenv.Tool(t, "git")
	dir := t.TempDir()
	canary := filepath.Join(t.TempDir(), "canary")
	hook := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+canary+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	write(t, dir, "a.txt")
	git("add", "a.txt")
	git("config", "core.fsmonitor", hook)
	git("ls-files", "--others")
	if _, err := os.Stat(canary); err != nil {
		t.Fatal("control: git ls-files --others did not run the repository's fsmonitor hook")
	}
	os.Remove(canary)
	files, err := Files(context.Background(), dir)
	if err != nil || !reflect.DeepEqual(files, []string{"a.txt"}) {
		t.Fatalf("files %q, %v", files, err)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("listing the files ran the repository's core.fsmonitor")
	}
}
