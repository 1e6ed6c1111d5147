package policy

import (
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// On Windows, bash (Git Bash) commands name files with drive letters,
// backslashes and any case; secrets stay secrets.
func TestWinSecretPaths(t *testing.T) {
	e := newEngine(t, nil)
	cc := CommandContext{Home: `C:\Users\Me`, Cwd: `C:\Users\Me\proj`, Shell: sysinfo.ShellBash}
	for _, cmd := range []string{
		`cat 'C:\Users\Me\.ssh\id_rsa'`,
		`cat "C:/Users/me/.aws/credentials"`,
		`cat ~/.SSH/config`,
		`cat /c/users/me/.ssh/id_ed25519`,
		`cat '..\.ssh\known_hosts' 'D:\keys\server.PEM'`,
		`cat 'c:\USERS\me\.Git-Credentials'`,
		`grep -r password 'C:\Users\Me'`,
	} {
		if d := e.Command(cmd, cc); d.Decision == Allow {
			t.Errorf("%s: allowed (%s)", cmd, d.DecidedBy)
		}
	}
	for _, cmd := range []string{`cat notes.txt`, `cat 'C:\Users\Me\proj\README.md'`, `ls 'D:\src'`} {
		if d := e.Command(cmd, cc); d.Decision != Allow {
			t.Errorf("%s: %s %v, want allow", cmd, d.Decision, d.Reasons)
		}
	}
}

func TestWinStateDirIsSecret(t *testing.T) {
	e := newEngine(t, nil)
	cc := CommandContext{Home: `C:\Users\Me`, Cwd: `C:\Users\Me\proj`, Shell: sysinfo.ShellBash}
	for _, cmd := range []string{`cat 'C:\Users\Me\AppData\Local\nb\state\audit.jsonl'`, `cat ~/AppData/Roaming/nb/config.json`} {
		if d := e.Command(cmd, cc); d.Decision == Allow {
			t.Errorf("%s: allowed", cmd)
		}
	}
}
