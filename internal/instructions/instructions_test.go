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
	files, warnings := Find(leaf, global, DefaultMaxBytes)
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
	files, _ = Find(plain, "", DefaultMaxBytes)
	if got := paths(files); got != filepath.Join(plain, FileName) {
		t.Errorf("outside a repository: %s", got)
	}
	// the config directory inside the chain is read once
	files, _ = Find(repo, repo, DefaultMaxBytes)
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
	files, _ := Find(sub, "", 120)
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
	files, warnings := Find(dir, "", DefaultMaxBytes)
	if len(files) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0], "not a regular file") {
		t.Errorf("a directory named AGENTS.md: %v, %v", files, warnings)
	}
	bin := t.TempDir()
	write(t, filepath.Join(bin, FileName), "a\x00b")
	if files, warnings := Find(bin, "", DefaultMaxBytes); len(files) != 0 || len(warnings) != 1 {
		t.Errorf("binary AGENTS.md: %v, %v", files, warnings)
	}
}
