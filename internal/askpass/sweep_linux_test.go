package askpass

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The private directories of an nb that was killed are removed by the next
// one; those of a live nb, and other names, are left alone.
func TestPrivateDirSweepsTheDead(t *testing.T) {
	parent := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(parent, fmt.Sprintf("%s%d-1", dirPrefix, gone.Process.Pid))
	alive := filepath.Join(parent, fmt.Sprintf("%s%d-2", dirPrefix, os.Getppid()))
	other := filepath.Join(parent, dirPrefix+"x")
	for _, d := range []string{dead, alive, other} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	d, err := privateDir([]string{parent})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(d), fmt.Sprintf("%s%d-", dirPrefix, os.Getpid())) {
		t.Errorf("made %s", d)
	}
	if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the private directory: %v %v", fi, err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Error("the dead nb's directory is still there")
	}
	for _, keep := range []string{alive, other} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed", keep)
		}
	}
}
