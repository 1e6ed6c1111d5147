//go:build unix

package files

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFIFORefused: read_file of a FIFO inside a root answers at once
// with an error naming it, instead of waiting for a writer forever.
func TestReadFIFORefused(t *testing.T) {
	e := setup(t)
	must(t, syscall.Mkfifo(filepath.Join(e.root, "pipe"), 0o600))
	_, res, err := e.call(t, "read_file", map[string]any{"path": "pipe"})
	must(t, err)
	if !res.IsError || !strings.Contains(res.Content, "is a FIFO (named pipe): not a regular file") {
		t.Fatalf("FIFO read: %+v", res)
	}
}
