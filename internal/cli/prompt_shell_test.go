package cli

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// The system prompt speaks the language of the shell that runs commands.
func TestPromptSpeaksTheShell(t *testing.T) {
	for k, c := range map[sysinfo.ShellKind]struct{ want, not string }{
		sysinfo.ShellBash:       {"ls, cat, grep", "Get-ChildItem"},
		sysinfo.ShellCmd:        {"dir, type, findstr", "grep"},
		sysinfo.ShellPowerShell: {"Get-ChildItem, Get-Content", "grep"},
	} {
		p := promptFor(k)
		if !strings.Contains(p, c.want) || strings.Contains(p, c.not) || strings.Contains(p, "{{") {
			t.Errorf("%s: prompt %q", k, p)
		}
	}
}
