package cmdbase_test

import (
	"testing"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// TestEntryExamples runs every entry's examples (the Examples of its
// literal) through policy.Engine.Decide with the default configuration:
// a Unix entry's under bash in a project directory, a Windows entry's
// under each shell it belongs to. "warn" is asked with the warning,
// default No and no Always.
func TestEntryExamples(t *testing.T) {
	e := newEngine(t)
	win := func(sh sysinfo.ShellKind) policy.CommandContext {
		return policy.CommandContext{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`, Shell: sh, Facts: policy.NoFacts{}}
	}
	n := 0
	for _, x := range cmdbase.EntryExamples() {
		where := map[string]policy.CommandContext{"bash": testCC}
		if x.Shells != 0 {
			where = map[string]policy.CommandContext{}
			if x.Shells&cmdbase.Cmd != 0 {
				where["cmd.exe"] = win(sysinfo.ShellCmd)
			}
			if x.Shells&cmdbase.PowerShell != 0 {
				where["PowerShell"] = win(sysinfo.ShellPowerShell)
			}
		}
		for sh, cc := range where {
			n++
			d := decideCmd(e, x.Command, cc)
			if got := verdictOf(d); got != x.Want {
				t.Errorf("%s (%s's example, %s): %s, want %s (%s; %q)", x.Command, x.Entry, sh, got, x.Want, d.DecidedBy, d.Reasons)
			}
			if x.Want == "warn" && (d.DefaultAnswer != policy.No || d.OfferAlways) {
				t.Errorf("%s (%s's example, %s): warned with default %s, Always %v", x.Command, x.Entry, sh, d.DefaultAnswer, d.OfferAlways)
			}
		}
	}
	if n == 0 {
		t.Fatal("no entry has examples")
	}
}

// verdictOf is a decision as an example states it.
func verdictOf(d *policy.Decision) string {
	switch {
	case d.Decision == policy.Allow:
		return "allow"
	case d.Decision == policy.Deny:
		return "deny"
	case d.Warn || d.Safety == policy.Dangerous:
		return "warn"
	}
	return "ask"
}
