package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// TestToolFindsAndMisses: a present tool is found; a missing one fails the
// test under CI=true (checked in a subprocess run of this test binary).
func TestToolFindsAndMisses(t *testing.T) {
	if os.Getenv("NB_TESTENV_CHILD") == "1" {
		Tool(t, "nb-no-such-program")
		return
	}
	if p := Tool(t, "sh"); p == "" {
		t.Fatal("sh not found")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, ci := range []string{"true", ""} {
		cmd := exec.Command(exe, "-test.run=^TestToolFindsAndMisses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "NB_TESTENV_CHILD=1", "CI="+ci)
		out, err := cmd.CombinedOutput()
		failed := err != nil
		if failed != (ci == "true") {
			t.Errorf("CI=%q: child failed=%v, want %v\n%s", ci, failed, ci == "true", out)
		}
	}
}
