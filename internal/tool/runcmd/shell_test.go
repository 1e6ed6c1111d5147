package runcmd

import (
	"context"
	"encoding/json"
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

// For cmd.exe and PowerShell the review predicts only that the session
// stays; a command that may move it (Set-Location, cd, pushd) ends the
// segment, so what follows is reviewed where it really left the shell.
func TestCwdAfterWindowsShells(t *testing.T) {
	for _, c := range []struct {
		shell sysinfo.ShellKind
		cmd   string
		stays bool
	}{
		{sysinfo.ShellPowerShell, "Get-ChildItem", true},
		{sysinfo.ShellPowerShell, `Set-Location C:\`, false},
		{sysinfo.ShellPowerShell, `sl ..`, false},
		{sysinfo.ShellCmd, "dir /b", true},
		{sysinfo.ShellCmd, `cd /d C:\x`, false},
		{sysinfo.ShellCmd, `dir & pushd C:\x`, false},
	} {
		run, _ := New(Options{Hosts: host.NewActive(kindHost{&host.Local{}, c.shell}), Workdir: tool.NewWorkdir("/"), Policy: tooltest.Engine(t, nil)})
		args, _ := json.Marshal(map[string]string{"command": c.cmd})
		at := tool.At{Cwd: "/work"}
		inv, err := run.Review(context.Background(), &tool.Call{Args: args}, at)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if c.stays {
			want = at.Cwd
		}
		if inv.CwdAfter != want {
			t.Errorf("%s %q: CwdAfter %q, want %q", c.shell, c.cmd, inv.CwdAfter, want)
		}
	}
}
