//go:build unix

package runcmd

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirStackAcrossCalls: `cd -` and popd work across run_cmd calls: the
// shell's OLDPWD and pushd stack are carried from one command to the next.
func TestDirStackAcrossCalls(t *testing.T) {
	e := setup(t, nil)
	launch := e.wd.Launch()
	a, b := filepath.Join(launch, "a"), filepath.Join(launch, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct{ command, cwd string }{
		{"cd a", a},
		{"cd -", launch},
		{"cd -", a},
		{"pushd ../b", b},
		{"pushd " + launch, launch},
		{"popd", b},
		{"popd", a},
	}
	for _, s := range steps {
		r, _ := runJSON(t, e, map[string]any{"command": s.command})
		if r.ExitCode != 0 || r.Cwd != s.cwd {
			t.Fatalf("%q: exit %d, cwd %s, want %s (stderr %q)", s.command, r.ExitCode, r.Cwd, s.cwd, r.Stderr)
		}
	}
	// the stack is empty now: popd fails as in one shell
	r, _ := runJSON(t, e, map[string]any{"command": "popd"})
	if r.ExitCode == 0 || r.Cwd != a {
		t.Fatalf("popd on an empty stack: %+v", r)
	}
}
