package fsfacts_test

import "github.com/nb-cli/nb/internal/policy"

// decide decides command as run_cmd does: through Engine.Decide.
func decide(e *policy.Engine, command string, cc policy.CommandContext) *policy.Decision {
	return e.Decide(policy.Action{Kind: policy.RunCommand, Command: command, Where: cc})
}
