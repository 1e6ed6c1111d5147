package gitsnap

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/testenv"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitEnv(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// repoWorld is a repository with committed, modified, untracked and
// ignored files, CRLF text under core.autocrlf, and a clean filter that
// would leave a canary if anything ran it.
func repoWorld(t testing.TB) (dir, canary string) {
	testenv.Tool(t, "git")
	dir = t.TempDir()
	canary = filepath.Join(t.TempDir(), "filter-ran")
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "config", "core.autocrlf", "true")
	gitIn(t, dir, "config", "filter.evil.clean", "touch "+canary+"; cat")
	files := map[string]string{
		"README.md":      "hello\n",
		"src/main.go":    "package main\n",
		"win.txt":        "a\r\nb\r\n",
		".gitignore":     "build/\n",
		".gitattributes": "*.sec filter=evil\n",
		"x.sec":          "sealed\n",
	}
	for p, c := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644))
	}
	gitIn(t, dir, "add", "README.md", "src", "win.txt", ".gitignore", ".gitattributes")
	gitIn(t, dir, "commit", "-qm", "init")
	gitIn(t, dir, "hash-object", "x.sec") // git itself runs the filter: the canary is a real one
	must(t, os.Remove(canary))
	must(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("hello, edited\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("untracked\n"), 0o600))
	must(t, os.MkdirAll(filepath.Join(dir, "build"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "build", "out.o"), []byte{1, 2}, 0o644))
	return dir, canary
}

// workTree is every path of dir outside .git and build/ with its state.
func workTree(t testing.TB, dir string) map[string]changes.State {
	fsys, err := changes.Open(dir)
	must(t, err)
	defer fsys.Close()
	out := map[string]changes.State{}
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "build") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		s, err := fsys.Read(p)
		must(t, err)
		out[p[len(dir):]] = s
		return nil
	}))
	return out
}

func sameTree(t *testing.T, got, want map[string]changes.State) {
	t.Helper()
	for k, w := range want {
		g := got[k]
		if g.Type != w.Type || g.Mode != w.Mode || !bytes.Equal(g.Data, w.Data) {
			t.Errorf("%s: got %s %o %q, want %s %o %q", k, g.Type, g.Mode, g.Data, w.Type, w.Mode, w.Data)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: left behind", k)
		}
	}
}

// operations stand for a command the user approved: every kind of change
// a command makes to files git shows.
func operations(t testing.TB, dir string) {
	j := func(p string) string { return filepath.Join(dir, p) }
	must(t, os.WriteFile(j("src/main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	must(t, os.Remove(j("README.md")))
	must(t, os.Rename(j("notes.txt"), j("docs/notes.txt")))
	must(t, os.WriteFile(j("win.txt"), []byte("a\r\nB\r\n"), 0o644))
	must(t, os.Chmod(j("src/main.go"), 0o755))
	must(t, os.WriteFile(j("ünïcode ☃.txt"), []byte("snow\n"), 0o644))
	must(t, os.Symlink("src/main.go", j("link")))
	must(t, os.WriteFile(j("x.sec"), []byte("sealed, changed\n"), 0o644))
	must(t, os.WriteFile(j("build/out.o"), []byte{9}, 0o644)) // ignored: not tracked
}

// A command's changes in a work tree become a set that, journalled and
// undone, gives back the tree byte for byte (CRLF under core.autocrlf,
// modes, links, unicode names, renames); the snapshot ran no filter and
// touched no ref, no index, no history.
func TestSnapshotUndoRoundTrip(t *testing.T) {
	dir, canary := repoWorld(t)
	must(t, os.MkdirAll(filepath.Join(dir, "docs"), 0o755))
	orig := workTree(t, dir)
	refs := gitIn(t, dir, "for-each-ref")
	index, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	status := gitIn(t, dir, "status", "--porcelain")

	tr := &Tracker{}
	ctx := context.Background()
	after, err := tr.Before(ctx, filepath.Join(dir, "src"))
	must(t, err)
	if after == nil {
		t.Fatal("no snapshot in a work tree")
	}
	operations(t, dir)
	set, err := after(ctx)
	must(t, err)
	kinds := map[string]changes.Kind{}
	for _, f := range set.Visible() {
		kinds[f.Path[len(dir):]] = f.Kind()
	}
	want := map[string]changes.Kind{"/src/main.go": changes.Modified, "/README.md": changes.Deleted, "/docs/notes.txt": changes.Renamed,
		"/win.txt": changes.Modified, "/ünïcode ☃.txt": changes.Created, "/link": changes.Created, "/x.sec": changes.Modified}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("changes %v, want %v", kinds, want)
	}
	if _, err := os.Stat(canary); err == nil {
		t.Error("the snapshot ran the repository's clean filter")
	}
	if gitIn(t, dir, "for-each-ref") != refs {
		t.Error("the snapshot changed the refs")
	}
	if now, _ := os.ReadFile(filepath.Join(dir, ".git", "index")); !bytes.Equal(now, index) {
		t.Error("the snapshot changed the index")
	}

	j, err := changes.OpenJournal(t.TempDir(), nil)
	must(t, err)
	_, err = j.Record("run_cmd", "run: make", set)
	must(t, err)
	fsys, err := changes.Open(dir)
	must(t, err)
	defer fsys.Close()
	if _, err := j.Undo(fsys); err != nil {
		t.Fatal(err)
	}
	got := workTree(t, dir)
	delete(got, "/docs") // the directory the command's rename needed stays
	sameTree(t, got, orig)
	if s := gitIn(t, dir, "status", "--porcelain"); s != status {
		t.Errorf("git status after undo:\n%s\nwant\n%s", s, status)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "build", "out.o")); !bytes.Equal(b, []byte{9}) {
		t.Error("undo touched an ignored file")
	}
}

// Outside a work tree there is no snapshot, and git is not even run.
func TestNoRepository(t *testing.T) {
	tr := &Tracker{Git: "/nonexistent/git"}
	after, err := tr.Before(context.Background(), t.TempDir())
	if after != nil || err != nil {
		t.Fatalf("snapshot outside a repository: %v", err)
	}
}

// The stat cache spares unchanged files but never hides a change: a
// file rewritten with the same size and a forced old mtime is still seen
// (its ctime moved).
func TestStatCacheSeesRewrites(t *testing.T) {
	dir, _ := repoWorld(t)
	tr := &Tracker{Now: func() time.Time { return time.Now().Add(time.Hour) }} // everything is old enough to cache
	ctx := context.Background()
	s1, err := tr.Take(ctx, dir)
	must(t, err)
	p := filepath.Join(dir, "src", "main.go")
	fi, _ := os.Stat(p)
	must(t, os.WriteFile(p, []byte("package MAIN\n"), 0o644))
	must(t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
	s2, err := tr.Take(ctx, dir)
	must(t, err)
	set, err := tr.Diff(ctx, s1, s2)
	must(t, err)
	if set == nil || len(set.Files) != 1 || !strings.HasSuffix(set.Files[0].Path, "main.go") || string(set.Files[0].Before.Data) != "package main\n" {
		t.Fatalf("rewrite with the same size and mtime: %+v", set)
	}
}

// BenchmarkSnapshot is the undo snapshot's cost in a repository of 10,000
// files: the first (every file hashed) and the next (stat cache).
func BenchmarkSnapshot(b *testing.B) {
	testenv.Tool(b, "git")
	dir := b.TempDir()
	gitIn(b, dir, "init", "-q")
	for i := 0; i < 10000; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f%05d.txt", i))
		if i < 100 {
			must(b, os.MkdirAll(filepath.Dir(p), 0o755))
		}
		must(b, os.WriteFile(p, []byte(strings.Repeat(fmt.Sprintf("line %d\n", i), 20)), 0o644))
	}
	gitIn(b, dir, "add", ".")
	gitIn(b, dir, "commit", "-qm", "init")
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			tr := &Tracker{Now: func() time.Time { return time.Now().Add(time.Hour) }}
			if _, err := tr.Take(ctx, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		tr := &Tracker{Now: func() time.Time { return time.Now().Add(time.Hour) }}
		if _, err := tr.Take(ctx, dir); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := tr.Take(ctx, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
