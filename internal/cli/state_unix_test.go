//go:build unix

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/iostreams"
)

// TestStateRefusedSaysWhatToDo: a state directory nb may not make (a HOME
// it cannot write, as a service account's /nonexistent) ends the run with
// an error naming it and saying how to go on: XDG_STATE_HOME or
// --no-history.
func TestStateRefusedSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "locked", "state")
	if os.Geteuid() == 0 {
		// Root writes any directory; the kernel's sysfs takes no new one.
		state = "/sys/nb-test-no-such-state"
		if err := os.Mkdir(state, 0o700); !errors.Is(err, os.ErrPermission) {
			if err == nil {
				os.Remove(state)
			}
			t.Skipf("this system does not refuse %s: %v", state, err)
		}
	} else {
		if err := os.Mkdir(filepath.Join(dir, "locked"), 0o500); err != nil {
			t.Fatal(err)
		}
	}
	io, _, _, errOut := iostreams.Test(map[string]string{
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": state,
		"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "OPENAI_MODEL": "m",
	})
	code := Main([]string{"hi"}, io)
	want := "(nb keeps its state in " + filepath.Join(state, "nb") + ": set XDG_STATE_HOME to a directory you can write, or use --no-history)"
	if code != ExitError || !strings.Contains(errOut.String(), want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, errOut, want)
	}
}

// TestRemovedWorkingDirectory: started in a directory removed since the
// shell entered it, nb says so and what to do.
func TestRemovedWorkingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Getwd(); err == nil {
		t.Skip("this system still names a removed working directory")
	}
	home := t.TempDir()
	io, _, _, errOut := iostreams.Test(map[string]string{"HOME": home})
	code := Main([]string{"tool", "run_cmd", `{"command":"true"}`}, io)
	if want := "nb: working directory: it no longer exists (removed after the shell entered it): cd to one that does\n"; code != ExitError || errOut.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, errOut, want)
	}
}
