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
		if code := finish(io, runPolicy([]string{"check", "--json", "--", cmd}, io, &Options{})); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var d struct {
			Decision string   `json:"decision"`
			Reasons  []string `json:"reasons"`
		}
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if d.Decision != want || want == "ask" && !strings.Contains(strings.Join(d.Reasons, " "), "pwd is not in the command base") {
			t.Errorf("%s for cmd.exe: %+v, want %s", cmd, d, want)
		}
	}
}

// nb policy check --json, with the shell pinned to cmd.exe or PowerShell,
// over the held-out Windows set (../policy/testdata/windows_heldout.txt):
// nothing that writes, is asked or is outside the subset is allowed, every
// dangerous command is warned with default No, and most read-only ones
// are allowed.
func TestWinPolicyCheckHeldOut(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "policy", "testdata", "windows_heldout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := wintest.TempDir(t)
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	shells := map[string]string{"cmd": filepath.Join(sys, "cmd.exe"), "ps": `C:\Program Files\PowerShell\7\pwsh.exe`}
	for name, shell := range shells {
		cfgDir := filepath.Join(dir, name, "nb")
		os.MkdirAll(cfgDir, 0o700)
		cfg, _ := json.Marshal(map[string]any{"terminalIntegration": map[string]any{"shell": shell}})
		if err := os.WriteFile(filepath.Join(cfgDir, "config.json"), cfg, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	reads, allowed := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sh, rest, _ := strings.Cut(line, " ")
		label, cmd, _ := strings.Cut(rest, " ")
		env := map[string]string{"USERPROFILE": dir, "XDG_CONFIG_HOME": filepath.Join(dir, sh), "XDG_STATE_HOME": filepath.Join(dir, "state")}
		io, _, out, errOut := iostreams.Test(env)
		if code := finish(io, runPolicy([]string{"check", "--json", "--", cmd}, io, &Options{})); code != 0 {
			t.Fatalf("%s %q: exit %d: %s", sh, cmd, code, errOut.String())
		}
		var d struct {
			Decision      string `json:"decision"`
			Safety        string `json:"safety"`
			Warn          bool   `json:"warn"`
			DefaultAnswer string `json:"defaultAnswer"`
		}
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		switch label {
		case "read":
			reads++
			if d.Decision == "allow" {
				allowed++
			} else {
				t.Logf("read-only, not allowed: %s %s: %s", sh, cmd, strings.TrimSpace(out.String()))
			}
		case "danger":
			if d.Safety != "dangerous" || !d.Warn || d.DefaultAnswer != "no" {
				t.Errorf("%s %q: %+v, want a dangerous warning", sh, cmd, d)
			}
		default:
			if d.Decision == "allow" {
				t.Errorf("%s %q (%s): allowed", sh, cmd, label)
			}
		}
	}
	t.Logf("%d of %d read-only commands allowed", allowed, reads)
	if allowed*100 < reads*90 {
		t.Errorf("%d of %d read-only commands allowed, want at least 90%%", allowed, reads)
	}
}
