package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOutputsPrune(t *testing.T) {
	state := t.TempDir()
	o := NewOutputs(state, 3, 1000)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	o.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
	var names []string
	for i := 0; i < 5; i++ {
		f, err := o.Create("stdout")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(strings.Repeat("x", 100))
		mod := clock
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(f.Name(), mod, mod)
		names = append(names, f.Name())
		if fi, err := os.Stat(f.Name()); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("new output %s: %v %v", f.Name(), fi, err)
		}
		if filepath.Dir(f.Name()) != filepath.Join(state, "outputs") {
			t.Fatalf("output in %s", f.Name())
		}
	}
	if err := o.Prune(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(o.Dir)
	if len(entries) != 3 {
		t.Fatalf("want 3 files, have %d", len(entries))
	}
	for _, n := range names[:2] {
		if _, err := os.Stat(n); !os.IsNotExist(err) {
			t.Errorf("oldest %s not removed", n)
		}
	}
	// size bound: one big file pushes out the others but is itself kept
	f, _ := o.Create("stderr")
	f.WriteString(strings.Repeat("y", 5000))
	f.Close()
	entries, _ = os.ReadDir(o.Dir)
	if len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), "stderr.txt") {
		t.Fatalf("want only the newest big file, have %v", entries)
	}
	if o.MaxFileBytes() != 250 {
		t.Fatalf("MaxFileBytes %d", o.MaxFileBytes())
	}
}

// TestOutputsPruneByAge: outputs older than MaxAge go, also when the
// directory is merely opened, and also the newest one.
func TestOutputsPruneByAge(t *testing.T) {
	state := t.TempDir()
	dir := filepath.Join(state, "outputs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old, fresh := filepath.Join(dir, "old-stdout.txt"), filepath.Join(dir, "fresh-stdout.txt")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sixty := time.Now().Add(-60 * 24 * time.Hour)
	if err := os.Chtimes(old, sixty, sixty); err != nil {
		t.Fatal(err)
	}
	NewOutputs(state, 50, 1<<20)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a 60-day-old output was kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh output was removed: %v", err)
	}
	// the newest file goes too once it is too old
	o := NewOutputs(state, 50, 1<<20)
	o.MaxAge = time.Minute
	o.Now = func() time.Time { return time.Now().Add(time.Hour) }
	if err := o.Prune(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}
