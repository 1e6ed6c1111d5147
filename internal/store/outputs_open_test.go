package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/wintest"
)

// Closing one output prunes the directory but never removes an output
// still being written: Windows cannot remove an open file, and the path of
// that output is about to be handed to the model.
func TestWinOutputsPruneKeepsOpenFiles(t *testing.T) {
	state := wintest.TempDir(t)
	o := NewOutputs(state, 1, 1<<20)
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	o.Now = func() time.Time { tick = tick.Add(time.Second); return tick }
	stderr, err := o.Create("stderr")
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := o.Create("stdout")
	if err != nil {
		t.Fatal(err)
	}
	stderr.WriteString("err\n")
	stdout.WriteString("out\n")
	if err := stdout.Close(); err != nil {
		t.Fatalf("close while another output is open: %v", err)
	}
	if _, err := os.Stat(stderr.Name()); err != nil {
		t.Fatalf("the open output was pruned: %v", err)
	}
	if err := stderr.Close(); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(filepath.Join(state, "outputs"))
	if len(left) != 1 {
		t.Fatalf("%d outputs left, want the newest only", len(left))
	}
}
