package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A descriptor nb inherited from whatever started it (here fd 9 of a
// child run of this test: a file holding a canary, opened for reading and
// writing) does not reach a sandboxed command: neither through
// /proc/self/fd nor by its number.
func TestInheritedFilesNotPassed(t *testing.T) {
	if os.Getenv("NBT_INHERITED_CHILD") == "1" {
		inheritedChild(t)
		return
	}
	mechanisms(t)
	canary := filepath.Join(t.TempDir(), "inherited")
	mustWrite(t, canary, "CANARY-INHERITED")
	f, err := os.OpenFile(canary, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInheritedFilesNotPassed$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "NBT_INHERITED_CHILD=1")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	// fd 9, open across exec (the sandbox passes its own from fd 3 on)
	cmd.ExtraFiles = []*os.File{null, null, null, null, null, null, f}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%v\n%s", err, out)
	}
	if b, _ := os.ReadFile(canary); string(b) != "CANARY-INHERITED" {
		t.Errorf("the inherited file was written from the sandbox: %q", b)
	}
}

func inheritedChild(t *testing.T) {
	if b, err := exec.Command("sh", "-c", "cat <&9").Output(); err != nil || string(b) != "CANARY-INHERITED" {
		t.Fatalf("fd 9 is not inherited by this process's programs to begin with: %v %q", err, b)
	}
	for _, mech := range withPlain(mechanisms(t)) {
		for _, ro := range []bool{true, false} {
			w := newWorld(t)
			var h *Host
			if ro {
				h = newROHost(t, w, mech, nil)
			} else {
				h = newHost(t, w, mech, false)
			}
			out, errs, _ := sh(t, h, w.ws, "cat <&9; cat /proc/self/fd/9; ls -l /proc/self/fd/; echo x >&9")
			if strings.Contains(out, "CANARY") || strings.Contains(out, "inherited") {
				t.Errorf("%s (read-only %v): the inherited descriptor reached the command:\n%s\n%s", mech, ro, out, errs)
			}
		}
	}
}
