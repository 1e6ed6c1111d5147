package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func paths(files []File) string {
	var p []string
	for _, f := range files {
		p = append(p, f.Path)
	}
	return strings.Join(p, "\n")
}

func TestFindOrderAndScope(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	leaf := filepath.Join(repo, "a", "b")
	global := filepath.Join(top, "config")
	write(t, filepath.Join(top, FileName), "outside")
	write(t, filepath.Join(repo, ".git"), "gitdir: elsewhere") // a worktree's .git file
	write(t, filepath.Join(repo, FileName), "root")
	write(t, filepath.Join(repo, "a", "b", FileName), "leaf")
	write(t, filepath.Join(global, FileName), "global")
	files, warnings := Find(leaf, global, "", DefaultMaxBytes)
	want := strings.Join([]string{filepath.Join(global, FileName), filepath.Join(repo, FileName), filepath.Join(leaf, FileName)}, "\n")
	if got := paths(files); got != want || len(warnings) != 0 {
		t.Fatalf("files\n%s\nwant\n%s (warnings %v)", got, want, warnings)
	}
	if !files[0].Global || files[1].Global {
		t.Errorf("global flags: %+v", files)
	}
	s := Section(files)
	if !(strings.Index(s, "global") < strings.Index(s, "root") && strings.Index(s, "root") < strings.Index(s, "leaf")) || strings.Contains(s, "outside") {
		t.Errorf("section order:\n%s", s)
	}
	if !strings.Contains(s, "do not approve commands") {
		t.Errorf("the section must tell the model the files approve nothing:\n%s", s)
	}

	// outside a repository: only the directory's own file
	plain := filepath.Join(top, "plain", "x")
	write(t, filepath.Join(top, "plain", FileName), "parent")
	write(t, filepath.Join(plain, FileName), "own")
	files, _ = Find(plain, "", "", DefaultMaxBytes)
	if got := paths(files); got != filepath.Join(plain, FileName) {
		t.Errorf("outside a repository: %s", got)
	}
	// the config directory inside the chain is read once
	files, _ = Find(repo, repo, "", DefaultMaxBytes)
	if len(files) != 1 || files[0].Global {
		t.Errorf("config dir = repo: %+v", files)
	}
}

func TestFindCap(t *testing.T) {
	repo := t.TempDir()
	write(t, filepath.Join(repo, ".git", "HEAD"), "ref")
	write(t, filepath.Join(repo, FileName), strings.Repeat("r", 60))
	sub := filepath.Join(repo, "sub")
	write(t, filepath.Join(sub, FileName), strings.Repeat("line\n", 20)+"é") // 102 bytes
	files, _ := Find(sub, "", "", 120)
	if len(files) != 2 {
		t.Fatalf("files %+v", files)
	}
	root, leaf := files[0], files[1]
	if leaf.Cut || leaf.Size != 102 || len(leaf.Text) != 102 {
		t.Errorf("the most specific file is served first and whole: %+v", leaf)
	}
	if !root.Cut || len(root.Text) != 18 || root.Size != 60 {
		t.Errorf("root gets what is left: %d bytes, %+v", len(root.Text), root)
	}
	total := 0
	for _, f := range files {
		total += len(f.Text)
	}
	if total > 120 {
		t.Errorf("total %d over the cap", total)
	}
	if !strings.Contains(Section(files), "cut: 18 of 60 bytes included") {
		t.Errorf("the prompt says the file was cut:\n%s", Section(files))
	}
	// a cut never splits a rune, and prefers a line end
	if got := cut("ab\nc"+"é", 5); got != "ab\nc" {
		t.Errorf("cut = %q", got)
	}
	if got := cut("line one\nline two", 11); got != "line one\n" {
		t.Errorf("cut at a line = %q", got)
	}
}

func TestFindSkipsUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	files, warnings := Find(dir, "", "", DefaultMaxBytes)
	if len(files) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0], "not a regular file") {
		t.Errorf("a directory named AGENTS.md: %v, %v", files, warnings)
	}
	bin := t.TempDir()
	write(t, filepath.Join(bin, FileName), "a\x00b")
	if files, warnings := Find(bin, "", "", DefaultMaxBytes); len(files) != 0 || len(warnings) != 1 {
		t.Errorf("binary AGENTS.md: %v, %v", files, warnings)
	}
}

// TestFindOtherAssistantsFiles: a directory without AGENTS.md contributes
// its CLAUDE.md, else its GEMINI.md; one with AGENTS.md only that; the
// global directory only AGENTS.md.
func TestFindOtherAssistantsFiles(t *testing.T) {
	for _, c := range []struct {
		present []string
		want    string
	}{
		{[]string{"CLAUDE.md"}, "CLAUDE.md"},
		{[]string{"GEMINI.md"}, "GEMINI.md"},
		{[]string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}, "AGENTS.md"},
		{[]string{"CLAUDE.md", "GEMINI.md"}, "CLAUDE.md"},
		{[]string{"AGENTS.md", "GEMINI.md"}, "AGENTS.md"},
	} {
		dir := t.TempDir()
		for _, n := range c.present {
			write(t, filepath.Join(dir, n), "from "+n)
		}
		files, _ := Find(dir, "", "", DefaultMaxBytes)
		if len(files) != 1 || filepath.Base(files[0].Path) != c.want || files[0].Text != "from "+c.want {
			t.Errorf("%v: got %+v, want only %s", c.present, files, c.want)
		}
	}

	// across a repository each directory picks its own; the global
	// directory's CLAUDE.md is not nb's
	top := t.TempDir()
	repo, global := filepath.Join(top, "repo"), filepath.Join(top, "config")
	leaf := filepath.Join(repo, "leaf")
	write(t, filepath.Join(repo, ".git", "HEAD"), "ref")
	write(t, filepath.Join(repo, "CLAUDE.md"), "root claude")
	write(t, filepath.Join(leaf, "AGENTS.md"), "leaf agents")
	write(t, filepath.Join(leaf, "GEMINI.md"), "leaf gemini")
	write(t, filepath.Join(global, "CLAUDE.md"), "global claude")
	files, _ := Find(leaf, global, "", DefaultMaxBytes)
	want := filepath.Join(repo, "CLAUDE.md") + "\n" + filepath.Join(leaf, "AGENTS.md")
	if got := paths(files); got != want {
		t.Errorf("files\n%s\nwant\n%s", got, want)
	}
	s := Section(files)
	if !strings.Contains(s, "root claude") || strings.Contains(s, "leaf gemini") || strings.Contains(s, "global claude") {
		t.Errorf("section:\n%s", s)
	}

	// an unreadable AGENTS.md still shadows the directory's CLAUDE.md
	odd := t.TempDir()
	if err := os.Mkdir(filepath.Join(odd, "AGENTS.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(odd, "CLAUDE.md"), "claude")
	if files, warnings := Find(odd, "", "", DefaultMaxBytes); len(files) != 0 || len(warnings) != 1 {
		t.Errorf("AGENTS.md directory: %+v, %v", files, warnings)
	}
}

// TestFindGlobalKeepsItsShare: a huge project file cannot push the user's
// global instructions out; the global file keeps up to half the budget, and
// what the project leaves unused.
func TestFindGlobalKeepsItsShare(t *testing.T) {
	const max = DefaultMaxBytes
	setup := func(globalSize, projectSize int, projectName string) []File {
		t.Helper()
		top := t.TempDir()
		project, global := filepath.Join(top, "p"), filepath.Join(top, "config")
		write(t, filepath.Join(global, FileName), strings.Repeat("g\n", globalSize/2))
		write(t, filepath.Join(project, projectName), strings.Repeat("p\n", projectSize/2))
		files, _ := Find(project, global, "", max)
		if len(files) != 2 || !files[0].Global {
			t.Fatalf("files %+v", files)
		}
		total := len(files[0].Text) + len(files[1].Text)
		if total > max {
			t.Errorf("total %d over the cap %d", total, max)
		}
		return files
	}
	// a 1 MB project file (AGENTS.md or CLAUDE.md): the global one stays whole
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		files := setup(2048, 1<<20, name)
		if g := files[0]; g.Cut || len(g.Text) != 2048 {
			t.Errorf("%s of 1 MB: global cut to %d bytes (cut %v), want all 2048", name, len(g.Text), g.Cut)
		}
		if p := files[1]; !p.Cut || len(p.Text) != max-2048 {
			t.Errorf("%s of 1 MB: project got %d bytes, want %d", name, len(p.Text), max-2048)
		}
	}
	// both huge: half each
	files := setup(1<<20, 1<<20, FileName)
	if len(files[0].Text) != max/2 || len(files[1].Text) != max/2 {
		t.Errorf("both huge: global %d, project %d, want %d each", len(files[0].Text), len(files[1].Text), max/2)
	}
	// a huge global file and a small project: the project stays whole, the
	// global file gets the rest
	files = setup(1<<20, 1000, FileName)
	if files[1].Cut || len(files[1].Text) != 1000 || len(files[0].Text) != max-1000 {
		t.Errorf("huge global: global %d, project %d (cut %v)", len(files[0].Text), len(files[1].Text), files[1].Cut)
	}
}
