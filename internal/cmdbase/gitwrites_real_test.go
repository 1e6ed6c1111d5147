//go:build linux

package cmdbase

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestGitCreatesAgainstRealGit runs git init and git clone as written,
// in a fresh directory holding a repository to clone (src.git) and a
// directory a: every entry they create lies at or below a target
// gitWrites names, or is a directory made on the way to one.
func TestGitCreatesAgainstRealGit(t *testing.T) {
	git := testenv.Tool(t, "git")
	for _, argv := range [][]string{
		{"init"}, {"init", "proj"}, {"init", "x/y/z"}, {"init", "-q", "-b", "main", "p2"}, {"init", "--template=", "p3"},
		{"-C", "a", "init"}, {"-C", "a", "init", "b"}, {"-C", "a", "-C", "b2", "init", "c"},
		{"init", "--separate-git-dir", "s", "w"}, {"init", "--separate-git-dir=s2", "w2"}, {"--git-dir=g", "init"}, {"--git-dir", "g2", "init"},
		{"clone", "-q", "src.git"}, {"clone", "-q", "src.git", "dst"}, {"clone", "-q", "src.git/"}, {"clone", "-q", "./src.git"},
		{"-C", "a", "clone", "-q", "../src.git"}, {"-C", "a", "clone", "-q", "../src.git", "d2"},
		{"clone", "-q", "--separate-git-dir=s3", "src.git", "d3"}, {"clone", "-q", "-o", "up", "src.git", "d4"}, {"clone", "-q", "--", "src.git", "d5"},
	} {
		dir := t.TempDir()
		env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		run := func(args ...string) {
			cmd := exec.Command(git, args...)
			cmd.Dir, cmd.Env = dir, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %q: %v %s", args, err, out)
			}
		}
		run("init", "-q", "--bare", "src.git")
		if err := os.MkdirAll(filepath.Join(dir, "a", "b2"), 0o755); err != nil {
			t.Fatal(err)
		}
		before := map[string]bool{}
		_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, _ error) error { before[p] = true; return nil })
		run(argv...)
		var ws []Word
		for _, a := range argv {
			ws = append(ws, Word{Text: a, Raw: a})
		}
		why, named := gitWrites(ws)
		if why == "" {
			t.Errorf("git %q: no write seen", argv)
			continue
		}
		_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, _ error) error {
			if before[p] {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			for _, n := range named {
				// at or below a target, or a directory made on the way to one
				if rel == n.Text || strings.HasPrefix(rel, n.Text+"/") || strings.HasPrefix(n.Text, rel+"/") {
					return nil
				}
			}
			t.Errorf("git %q created %s; the reader named %q", argv, rel, Texts(named))
			return nil
		})
	}
}
