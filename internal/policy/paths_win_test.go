package policy

import (
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// useWindowsPaths makes the test see paths as on Windows, whatever system
// it runs on (on Windows, under Wine, it changes nothing).
func useWindowsPaths(t *testing.T) {
	saved := windowsPaths
	windowsPaths = true
	t.Cleanup(func() { windowsPaths = saved })
}

// On Windows, bash (Git Bash) commands name files with drive letters,
// backslashes and any case; secrets stay secrets.
func TestWinSecretPaths(t *testing.T) {
	useWindowsPaths(t)
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
		`cat '.env::$DATA'`, `cat '.env. '`, `cat 'C:\Users\Me\.aws:$I30:$INDEX_ALLOCATION\credentials'`, `cat 'C:\Users\Me\AWS~1\CREDEN~1'`,
	} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%s: allowed (%s)", cmd, d.DecidedBy)
		}
	}
	for _, cmd := range []string{`cat notes.txt`, `cat 'C:\Users\Me\proj\README.md'`, `ls 'D:\src'`, `cat 'notes.txt::$DATA'`, `cat 'notes~1.txt' 'HEAD~1'`} {
		if d := decideCmd(e, cmd, cc); d.Decision != Allow {
			t.Errorf("%s: %s %v, want allow", cmd, d.Decision, d.Reasons)
		}
	}
}

func TestWinStateDirIsSecret(t *testing.T) {
	useWindowsPaths(t)
	e := newEngine(t, nil)
	cc := CommandContext{Home: `C:\Users\Me`, Cwd: `C:\Users\Me\proj`, Shell: sysinfo.ShellBash}
	for _, cmd := range []string{`cat 'C:\Users\Me\AppData\Local\nb\state\audit.jsonl'`, `cat ~/AppData/Roaming/nb/config.json`} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%s: allowed", cmd)
		}
	}
}

// A deny rule naming a Windows path denies that file however a command
// spells it: backslashes in the rule are separators, not bash escapes, and
// drive letters, separators and case are normalised on both sides.
func TestWinDenyRulesMatchWindowsPaths(t *testing.T) {
	useWindowsPaths(t)
	cc := CommandContext{Home: `C:\Users\Me`, Cwd: `C:\Users\Me\proj`, Shell: sysinfo.ShellBash}
	for _, rule := range []string{
		`cat C:\Users\Me\proj\blocked.txt`,
		`cat 'C:\Users\Me\proj\blocked.txt'`,
		`cat "C:\Users\Me\proj\blocked.txt"`,
		`cat c:/users/me/proj/BLOCKED.txt`,
		`cat C:\Users\Me\proj\*.txt`,
	} {
		e := newEngine(t, func(o *Options) { o.Approval.Deny = []string{rule} })
		for _, cmd := range []string{
			`cat 'C:\Users\Me\proj\blocked.txt'`,
			`cat "c:\users\me\PROJ\blocked.txt"`,
			`cat C:/Users/Me/proj/blocked.txt`,
			`cat /c/users/me/proj/blocked.txt`,
		} {
			if d := decideCmd(e, cmd, cc); d.Decision != Deny {
				t.Errorf("deny %s: %s gets %s %v", rule, cmd, d.Decision, d.Reasons)
			}
		}
		// The decision for the file tools goes through the same rules.
		if d := e.Decide(Action{Kind: ReadFile, Path: `C:\Users\Me\proj\blocked.txt`, Shown: "blocked.txt", Where: cc}); d.Decision != Deny {
			t.Errorf("deny %s: read_file gets %s", rule, d.Decision)
		}
		if d := decideCmd(e, `cat 'C:\Users\Me\proj\other.md'`, cc); d.Decision == Deny {
			t.Errorf("deny %s: denies another file", rule)
		}
	}
	// Grants are not widened by the normalisation: they match as written.
	e := newEngine(t, func(o *Options) { o.Approval.Allow = []string{`rm C:\Users\Me\x.bin`} })
	if d := decideCmd(e, `rm 'C:\Users\Me\x.bin'`, cc); d.Decision != Allow {
		t.Errorf("grant does not match its own file: %+v", d)
	}
	if d := decideCmd(e, `rm 'C:\Users\Me\X.BIN'`, cc); d.Decision == Allow {
		t.Errorf("grant matched another spelling: %+v", d)
	}
}

// winCanon names each file as Windows opens it, mid-path as at the end,
// and leaves plain names (a.txt, ..) as they are.
func TestWinCanon(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\Me\a.txt`:                         "/c/users/me/a.txt",
		`C:\Users\Me\.aws. \config`:                 "/c/users/me/.aws/config",
		`C:\Users\Me\.aws:$I30:$INDEX_ALLOCATION\x`: "/c/users/me/.aws/x",
		`.env::$DATA`:                               ".env",
		`.env. . `:                                  ".env",
		`..\x\.\y`:                                  "../x/./y",
		`c:x.`:                                      "c:x",
		`d:`:                                        "/d",
	} {
		if got := winCanon(in); got != want {
			t.Errorf("winCanon(%q) = %q, want %q", in, got, want)
		}
	}
}
