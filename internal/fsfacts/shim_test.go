//go:build unix

package fsfacts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A program that a version manager's shim stands for (volta's bin, a
// link to volta-shim, mise's shims) may fetch and run the release a
// project pins: the fact says so for the name the shell would run first,
// and nothing for programs found elsewhere first or not shimmed.
func TestShimOf(t *testing.T) {
	home := t.TempDir()
	volta := filepath.Join(home, ".volta", "bin")
	mise := filepath.Join(home, ".local", "share", "mise", "shims")
	other := filepath.Join(home, "tools")
	linked := filepath.Join(home, "bin")
	for _, d := range []string{volta, mise, other, linked} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := func(p string) {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe(filepath.Join(volta, "node"))
	exe(filepath.Join(mise, "python3"))
	exe(filepath.Join(other, "python3")) // on PATH after mise
	exe(filepath.Join(other, "jq"))
	exe(filepath.Join(home, "volta-shim"))
	if err := os.Symlink(filepath.Join(home, "volta-shim"), filepath.Join(linked, "npm")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mise, "ruby"), []byte("not executable"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := strings.Join([]string{"relative", volta, mise, other, linked}, string(os.PathListSeparator))
	for prog, want := range map[string]string{"node": "volta", "python3": "mise", "npm": "volta", "jq": "", "ruby": "", "nosuch": ""} {
		got := shimOf(prog, path)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want+"'s shim") {
			t.Errorf("%s: %q, want %s", prog, got, want)
		}
	}
	// the shell runs the first found: a python3 before mise's is not its shim
	first := strings.Join([]string{other, mise}, string(os.PathListSeparator))
	if got := shimOf("python3", first+string(os.PathListSeparator)+"/mise-named-dir"); got != "" {
		t.Errorf("python3 found first outside mise: %q", got)
	}
	// no manager on PATH: nothing is looked up
	if got := shimOf("node", other); got != "" {
		t.Errorf("no manager on PATH: %q", got)
	}
	// Disk asks it of the process's PATH
	t.Setenv("PATH", path)
	if got := (Disk{}).Toolchain("node", t.TempDir()); !strings.Contains(got, "volta") {
		t.Errorf("Disk.Toolchain(node) = %q", got)
	}
}
