package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/testenv"
)

// gitIn runs git in dir with a private configuration.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// saveIn saves a conversation in launch's history, as nb does.
func saveIn(t *testing.T, launch string) {
	t.Helper()
	h, err := OpenHistory(launch, t.TempDir(), fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for range 2 {
		if err := h.Save([]llm.Message{{Role: llm.RoleUser, Text: "hi"}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHistoryExcludedFromGit: in a git work tree, below its root too, in a
// linked worktree and in a submodule (both have a .git file), the saved
// history leaves git status clean, through the repository's local exclude
// file (never a committed one), added once.
func TestHistoryExcludedFromGit(t *testing.T) {
	testenv.Tool(t, "git")
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	gitIn(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, "sub", "f.txt"), []byte("x\n"), 0o644)
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "one")
	lib := filepath.Join(root, "lib")
	os.MkdirAll(lib, 0o755)
	gitIn(t, lib, "init", "-q")
	os.WriteFile(filepath.Join(lib, "l.txt"), []byte("x\n"), 0o644)
	gitIn(t, lib, "add", ".")
	gitIn(t, lib, "commit", "-qm", "lib")
	gitIn(t, repo, "submodule", "-q", "add", lib, "lib")
	gitIn(t, repo, "commit", "-qm", "submodule")
	wt := filepath.Join(root, "wt")
	gitIn(t, repo, "worktree", "add", "-q", wt)

	for _, launch := range []string{repo, filepath.Join(repo, "sub"), wt, filepath.Join(repo, "lib")} {
		saveIn(t, launch)
		if _, err := os.Stat(filepath.Join(launch, HistoryFile)); err != nil {
			t.Fatal(err)
		}
		if st := gitIn(t, launch, "status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("%s: git status shows\n%s", launch, st)
		}
	}
	if st := gitIn(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("a committed file changed:\n%s", st)
	}
	data, err := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if err != nil || strings.Count(string(data), excludePattern) != 1 {
		t.Errorf("exclude file, once: %q %v", data, err)
	}
	sub, err := os.ReadFile(filepath.Join(repo, ".git", "modules", "lib", "info", "exclude"))
	if err != nil || !strings.Contains(string(sub), excludePattern) {
		t.Errorf("the submodule's exclude file: %q %v", sub, err)
	}
	// Outside a repository nothing happens.
	plain := t.TempDir()
	if err := ExcludeFromGit(filepath.Join(plain, HistoryFile)); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(plain); len(entries) != 0 {
		t.Errorf("outside a repository: %v", entries)
	}
}

// TestExcludeLeavesAnIgnoredHistory: a history the repository ignores
// already (its .gitignore) adds nothing to the exclude file.
func TestExcludeLeavesAnIgnoredHistory(t *testing.T) {
	testenv.Tool(t, "git")
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q")
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(".nb_*\n"), 0o644)
	before, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	saveIn(t, repo)
	after, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if string(before) != string(after) {
		t.Errorf("exclude file changed: %q", after)
	}
}
