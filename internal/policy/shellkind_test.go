package policy

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// Commands for cmd.exe and PowerShell are analysed in their own language:
// the same text can mean something else there (pwd is not a cmd.exe
// command, Get-ChildItem is not a program), and rules and deny rules
// apply to both.
func TestWinShellsAnalysed(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.Approve = []string{"git push *"}
		o.Approval.Deny = []string{"rm -rf *"}
	})
	cc := func(sh sysinfo.ShellKind) CommandContext {
		return CommandContext{Cwd: `C:\work`, Home: `C:\Users\u`, Shell: sh, Facts: NoFacts{}}
	}
	for _, c := range []struct {
		sh   sysinfo.ShellKind
		cmd  string
		want Verdict
		by   Decider
	}{
		{sysinfo.ShellCmd, "dir", Allow, BySafeList},
		{sysinfo.ShellCmd, "echo hi", Allow, BySafeList},
		{sysinfo.ShellCmd, "pwd", Ask, ByUser},
		{sysinfo.ShellCmd, "Get-ChildItem", Ask, ByUser},
		{sysinfo.ShellCmd, "git push origin main", Allow, ByFlag},
		{sysinfo.ShellPowerShell, "Get-ChildItem", Allow, BySafeList},
		{sysinfo.ShellPowerShell, "pwd", Allow, BySafeList},
		{sysinfo.ShellPowerShell, "git push origin main", Allow, ByFlag},
		{sysinfo.ShellPowerShell, "rm -rf C:\\x", Deny, ByDenyRule},
		{sysinfo.ShellPowerShell, "Remove-Item -rf C:\\x", Deny, ByDenyRule},
		{sysinfo.ShellCmd, "powershell -c rm -rf C:\\x", Deny, ByDenyRule},
	} {
		d := decideCmd(e, c.cmd, cc(c.sh))
		if d.Decision != c.want || d.DecidedBy != c.by {
			t.Errorf("%s %q: %s by %s (%q), want %s by %s", c.sh, c.cmd, d.Decision, d.DecidedBy, d.Reasons, c.want, c.by)
		}
	}
	// the same commands for bash are still decided by the bash analysis
	for _, sh := range []sysinfo.ShellKind{sysinfo.ShellPOSIX, sysinfo.ShellBash} {
		if d := decideCmd(e, "ls", CommandContext{Cwd: "/work", Home: "/home/u", Shell: sh}); d.Decision != Allow {
			t.Errorf("%s ls: %s, want allow", sh, d.Decision)
		}
		if d := decideCmd(e, "Get-ChildItem", CommandContext{Cwd: "/work", Home: "/home/u", Shell: sh}); d.Decision == Allow {
			t.Errorf("%s Get-ChildItem: allowed", sh)
		}
	}
	d := decideCmd(e, "Get-ChildItem | ForEach-Object { $_ }", cc(sysinfo.ShellPowerShell))
	if d.Decision != Ask || !strings.Contains(strings.Join(d.Reasons, "\n"), "script block") {
		t.Errorf("a script block: %s %q", d.Decision, d.Reasons)
	}
}
