package runcmd

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// run_cmd's description speaks the language of the shell that runs the
// commands: no grep, heredoc or xxd advice for cmd.exe or PowerShell.
func TestRunCmdDescriptionSpeaksTheShell(t *testing.T) {
	for _, c := range []struct {
		shell     sysinfo.ShellKind
		want, not []string
	}{
		{sysinfo.ShellBash, []string{"heredocs", "grep", "xxd"}, []string{"findstr", "Select-String"}},
		{sysinfo.ShellCmd, []string{"cmd.exe", "findstr", "certutil", "^"}, []string{"grep", "heredocs", "xxd", "bash"}},
		{sysinfo.ShellPowerShell, []string{"PowerShell", "Select-String", "Format-Hex"}, []string{"grep", "heredocs", "xxd", "bash"}},
	} {
		run, _ := New(Options{Hosts: host.NewActive(kindHost{&host.Local{}, c.shell}), Workdir: tool.NewWorkdir("/"), Policy: tooltest.Engine(t, nil)})
		d := run.Spec().Description
		for _, w := range c.want {
			if !strings.Contains(d, w) {
				t.Errorf("%s: the description lacks %q", c.shell, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(d, w) {
				t.Errorf("%s: the description mentions %q", c.shell, w)
			}
		}
	}
}

// kindHost is a host whose shell speaks k.
type kindHost struct {
	host.Host
	k sysinfo.ShellKind
}

func (h kindHost) ShellKind() sysinfo.ShellKind { return h.k }
