package policy

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// Commands for cmd.exe and PowerShell are asked even when the bash
// analysis would allow them: the same text means something else there.
func TestNonBashShellsAreAsked(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.Approve = []string{"git status"}
		o.Approval.Deny = []string{"rm -rf *"}
	})
	for _, sh := range []sysinfo.ShellKind{sysinfo.ShellCmd, sysinfo.ShellPowerShell} {
		for _, cmd := range []string{"ls", "echo hi", "git status", "pwd", "Get-ChildItem", "dir C:\\"} {
			cc := CommandContext{Cwd: "/work", Home: "/home/u", Shell: sh}
			d := e.Command(cmd, cc)
			if d.Decision != Ask || d.OfferAlways || d.Rule != "" {
				t.Errorf("%s %q: %s (offer always %v, rule %q), want ask without Always", sh, cmd, d.Decision, d.OfferAlways, d.Rule)
			}
			if !strings.Contains(strings.Join(d.Reasons, "\n"), "not analysed") {
				t.Errorf("%s %q: reasons %q do not say why", sh, cmd, d.Reasons)
			}
		}
		if d := e.Command("rm -rf /tmp/x", CommandContext{Cwd: "/work", Home: "/home/u", Shell: sh}); d.Decision != Deny {
			t.Errorf("%s: a deny rule no longer denies: %s", sh, d.Decision)
		}
	}
	// the same commands for bash are still decided by the analysis
	for _, sh := range []sysinfo.ShellKind{sysinfo.ShellPOSIX, sysinfo.ShellBash} {
		if d := e.Command("ls", CommandContext{Cwd: "/work", Home: "/home/u", Shell: sh}); d.Decision != Allow {
			t.Errorf("%s ls: %s, want allow", sh, d.Decision)
		}
	}
}
