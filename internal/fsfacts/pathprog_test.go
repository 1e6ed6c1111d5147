package fsfacts

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestPathProgramAgainstBash: a relative PATH entry makes bash run a
// file of the directory it runs in; PathProgram says so exactly when
// bash does (checked by running bash with each PATH).
func TestPathProgramAgainstBash(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bash's PATH search")
	}
	bash := testenv.Tool(t, "bash")
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	for _, d := range []string{"repo/node_modules/.bin", "repo/bin", "sys"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, out string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\necho "+out+"\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("sys/tool", "system", 0o755)
	write("repo/node_modules/.bin/tool", "repo", 0o755)
	write("repo/tool", "repo", 0o755)
	write("repo/bin/plain", "repo", 0o644) // not executable: bash skips it
	sys := filepath.Join(dir, "sys")
	for _, tc := range []struct{ path, name string }{
		{sys, "tool"},
		{"node_modules/.bin:" + sys, "tool"},
		{sys + ":node_modules/.bin", "tool"},
		{":" + sys, "tool"},
		{sys + ":", "tool"},
		{".:" + sys, "tool"},
		{"bin:" + sys, "plain"},
		{"node_modules/.bin:" + sys, "echo"},
	} {
		why := pathProgram(tc.path, repo, tc.name)
		cmd := exec.Command(bash, "-c", tc.name+" 2>/dev/null; true")
		cmd.Dir = repo
		cmd.Env = []string{"PATH=" + tc.path}
		out, _ := cmd.Output()
		ranRepo := strings.TrimSpace(string(out)) == "repo"
		if ranRepo != (why != "") {
			t.Errorf("PATH=%s %s: bash ran the repository's file: %v; PathProgram says %q", tc.path, tc.name, ranRepo, why)
		}
	}
}
