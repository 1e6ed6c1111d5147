package cmdbase_test

import (
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
)

// The examples beside the base are decided by the real engine, with
// nb's default configuration, in a project below a home directory.

// testCC is where the examples are decided.
var testCC = policy.CommandContext{Cwd: "/home/u/proj", Home: "/home/u", Facts: policy.NoFacts{}}

// newEngine is the engine with the default configuration.
func newEngine(t *testing.T) *policy.Engine {
	t.Helper()
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// decideCmd decides cmd as run_cmd would in cc.
func decideCmd(e *policy.Engine, cmd string, cc policy.CommandContext) *policy.Decision {
	return e.Decide(policy.Action{Kind: policy.RunCommand, Command: cmd, Where: cc})
}
