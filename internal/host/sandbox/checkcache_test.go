package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/testenv"
)

// A mechanism checked once is not started again by the next New, until
// its program changes or a run finds it cannot start.
func TestCheckCache(t *testing.T) {
	proctest.Check(t)
	real := testenv.Tool(t, "bwrap")
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	wrapper := filepath.Join(dir, "bwrap")
	write := func(extra string) {
		script := "#!/bin/sh\necho run >> " + log + "\n" + extra + "exec " + real + " \"$@\"\n"
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runs := func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "run")
	}
	write("")
	cache := filepath.Join(dir, "state", "sandbox-checks")
	ws := t.TempDir()
	newHost := func() *Host {
		h, err := New(Options{Mechanism: MechanismBwrap, Bwrap: wrapper, LaunchDir: ws, Home: t.TempDir(), CheckCache: cache, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h
	}
	newHost()
	if n := runs(); n != 1 {
		t.Fatalf("first New started bubblewrap %d times", n)
	}
	h := newHost()
	if n := runs(); n != 1 {
		t.Fatalf("a checked mechanism was checked again (%d runs)", n)
	}
	// A run that finds it cannot start forgets the answer.
	write("echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1\n")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if ex, err := h.Run(ctx, &host.Command{Script: "true", Dir: ws}); err != nil || ex.Code != 1 {
		t.Fatalf("broken run: %+v %v", ex, err)
	}
	if _, err := New(Options{Mechanism: MechanismBwrap, Bwrap: wrapper, LaunchDir: ws, Home: t.TempDir(), CheckCache: cache}); err == nil {
		t.Fatal("a broken mechanism was taken from the cache")
	}
	// Changed back (a new program): checked again, and kept.
	write("")
	before := runs()
	newHost()
	newHost()
	if n := runs() - before; n != 1 {
		t.Errorf("after a change, %d checks", n)
	}
}
