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
