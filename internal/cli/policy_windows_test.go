package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/wintest"
)

// nb policy check decides for the shell run_cmd uses, in its language:
// with cmd.exe, `dir` only reads and `pwd` is no command cmd.exe knows.
func TestWinPolicyCheckForCmdExe(t *testing.T) {
	dir := wintest.TempDir(t)
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	cfgDir := filepath.Join(dir, "config", "nb")
	os.MkdirAll(cfgDir, 0o700)
	cfg, _ := json.Marshal(map[string]any{"terminalIntegration": map[string]any{"shell": filepath.Join(sys, "cmd.exe")}})
	if err := os.WriteFile(filepath.Join(cfgDir, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"USERPROFILE": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state")}
	for cmd, want := range map[string]string{"dir /s /b": "allow", "pwd": "ask"} {
		io, _, out, errOut := iostreams.Test(env)
		if code := runPolicy([]string{"check", "--json", "--", cmd}, io, &Options{}); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var d struct {
			Decision string   `json:"decision"`
			Reasons  []string `json:"reasons"`
		}
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if d.Decision != want || want == "ask" && !strings.Contains(strings.Join(d.Reasons, " "), "unknown command: pwd") {
			t.Errorf("%s for cmd.exe: %+v, want %s", cmd, d, want)
		}
	}
}
