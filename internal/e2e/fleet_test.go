package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nb-cli/nb/internal/fleet/fleettest"
	"github.com/nb-cli/nb/internal/llm/llmtest"
)

// TestFleetScripts runs testdata/fleet against three real OpenSSH hosts
// (web-01 … web-03, one sshd on three loopback ports): each script's
// $HOME/.ssh/config names them.
func TestFleetScripts(t *testing.T) {
	ft := fleettest.Start(t, 3)
	cfg, err := os.ReadFile(ft.Config)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/fleet",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := env.WorkDir + "/home"
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", home+"/.config")
			env.Setenv("XDG_STATE_HOME", home+"/.local/state")
			env.Setenv("TERM", "xterm-256color")
			env.Setenv("SSH_AUTH_SOCK", "")
			for _, d := range []string{".config/nb", ".ssh"} {
				if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
					return err
				}
			}
			if err := os.WriteFile(filepath.Join(home, ".ssh", "config"), cfg, 0o600); err != nil {
				return err
			}
			return llmtest.TestscriptSetup(env)
		},
		Cmds: commands(),
	})
}
