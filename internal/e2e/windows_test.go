//go:build windows

package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nb-cli/nb/internal/llm/llmtest"
)

// TestWinScripts runs the scripts of testdata/windows with nb.exe (also
// under Wine): the whole chat path on Windows, with cmd.exe as the shell.
func TestWinScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "windows"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("USERPROFILE", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
			if err := os.MkdirAll(filepath.Join(home, "config", "nb"), 0o755); err != nil {
				return err
			}
			return llmtest.TestscriptSetup(env)
		},
		Cmds: commands(),
	})
}
