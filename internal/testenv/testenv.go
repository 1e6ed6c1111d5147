// Package testenv decides what a test does when a tool it needs is not on
// the machine: with CI=true it fails, so a missing install step cannot pass
// unnoticed; on a developer's machine it is skipped, saying why.
package testenv

import (
	"os"
	"os/exec"
)

// T is what Missing needs of a test: a testing.TB, or a testscript's T
// (testscript.TestScript.T), so scripts end the same way.
type T interface {
	Fatal(args ...any)
	Skip(args ...any)
}

// Missing ends the test because something it needs is not there: a failure
// in CI, a skip elsewhere.
func Missing(t T, why string) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if os.Getenv("CI") == "true" {
		t.Fatal(why + " (required in CI)")
	}
	t.Skip(why)
}

// Tool returns the path of the named program, or ends the test through
// Missing.
func Tool(t T, name string) string {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" not installed")
	}
	return p
}

// Unavailable skips a test whose tool CI cannot have either (a container
// engine: the test machines run no Docker daemon), saying why. It is the
// one exception to Missing, named so that every use can be found.
func Unavailable(t T, why string) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	t.Skip(why + " (not available in CI either)")
}
