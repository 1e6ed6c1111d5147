// Package testenv decides what a test does when a tool it needs is not on
// the machine: with CI=true it fails, so a missing install step cannot pass
// unnoticed; on a developer's machine it is skipped, saying why. It also
// runs a test again in a fresh process (FreshProcess) and checks what a
// package imports (ImportsOnly).
package testenv

import (
	"os"
	"os/exec"
	"testing"
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

// freshVar names the environment variable under which a test binary,
// run again by FreshProcess, is the fresh process of the test it names.
const freshVar = "NB_TEST_FRESH_PROCESS"

// FreshProcess runs the test t again in a new process of its test binary,
// where nothing but package initialisation ran before it, and fails t if
// that run fails. It returns true in that new process, where the test's
// body is to run, and false in the first one:
//
//	if !testenv.FreshProcess(t) { return }
func FreshProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(freshVar) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), freshVar+"="+t.Name())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fresh process: %v\n%s", err, out)
	}
	return false
}
