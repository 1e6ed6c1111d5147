// Package testenv decides what a test does when a tool it needs is not on
// the machine: with CI=true it fails, so a missing install step cannot pass
// unnoticed; on a developer's machine it is skipped, saying why.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// Missing ends the test because something it needs is not there: a failure
// in CI, a skip elsewhere.
func Missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why + " (required in CI)")
	}
	t.Skip(why)
}

// Tool returns the path of the named program, or ends the test through
// Missing.
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" not installed")
	}
	return p
}
