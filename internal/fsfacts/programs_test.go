package fsfacts

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLocalProgram(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"findstr.bat", "git.CMD", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "where.exe"), 0o700) // a directory is no program
	d := Disk{}
	for name, want := range map[string]bool{"findstr": true, "git": true, "tasklist": false, "where": false, "notes": false, `..\x`: false} {
		if got := d.LocalProgram(dir, name); got != want {
			t.Errorf("LocalProgram(%s) = %v, want %v", name, got, want)
		}
	}
}
