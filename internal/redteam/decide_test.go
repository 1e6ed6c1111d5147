package redteam

import "github.com/nb-cli/nb/internal/policy"

// decide decides command as run_cmd does: through Engine.Decide.
func decide(e *policy.Engine, command string, cc policy.CommandContext) *policy.Decision {
	return e.Decide(policy.Action{Kind: policy.RunCommand, Command: command, Where: cc})
}

// decideInput decides text typed into session id, whose foreground
// program is program (a shell when isShell), through Engine.Decide.
func decideInput(e *policy.Engine, id, program string, isShell bool, text string, cc policy.CommandContext) *policy.Decision {
	return e.Decide(policy.Action{Kind: policy.SessionInput, Session: id, Program: program, Shell: isShell,
		InShell: isShell, SessionProgram: program, Input: text, Where: cc})
}
