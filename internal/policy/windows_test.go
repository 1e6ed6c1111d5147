package policy

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// winCC is where the Windows suite's commands run.
func winCC(sh sysinfo.ShellKind) CommandContext {
	return CommandContext{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`, Shell: sh, Facts: NoFacts{}}
}

type winCase struct {
	shell sysinfo.ShellKind
	label string
	cmd   string
	line  int
}

// loadWinSuite reads a labelled set of Windows commands (testdata/NAME):
// one per line, "cmd" or "ps", a label, the command.
func loadWinSuite(t *testing.T, name string) []winCase {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []winCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		sh, rest, _ := strings.Cut(line, " ")
		label, cmd, _ := strings.Cut(rest, " ")
		k := sysinfo.ShellCmd
		if sh == "ps" {
			k = sysinfo.ShellPowerShell
		}
		out = append(out, winCase{k, label, cmd, n})
	}
	return out
}

// TestWinCommandSuite runs the labelled PowerShell and cmd.exe commands
// (read-only, writing, dangerous, asked, outside the subset) through
// Decide, natively and, in CI, under Wine.
func TestWinCommandSuite(t *testing.T) {
	e := newEngine(t, nil)
	cases := loadWinSuite(t, "windows_commands.txt")
	if len(cases) < 150 {
		t.Fatalf("the suite has %d commands, want at least 150", len(cases))
	}
	for _, c := range cases {
		d := e.Decide(Action{Kind: RunCommand, Command: c.cmd, Where: winCC(c.shell)})
		bad := ""
		switch c.label {
		case "allow":
			if d.Decision != Allow {
				bad = "want allow"
			}
		case "write":
			if d.Decision != Ask || !d.Warn || d.Safety == Dangerous || d.DefaultAnswer != No || d.OfferAlways {
				bad = "want ask, warned, not dangerous, default No, no Always"
			}
		case "danger":
			if d.Decision != Ask || !d.Warn || d.Safety != Dangerous || d.DefaultAnswer != No || d.OfferAlways || len(d.WarnAt) == 0 || !strings.Contains(marked(d), "⚠️") {
				bad = "want ask, dangerous, ⚠️, default No, no Always"
			}
		case "ask":
			if d.Decision != Ask || d.Safety == Dangerous {
				bad = "want ask, not dangerous"
			}
		case "outside":
			if d.Decision != Ask || !strings.Contains(strings.Join(d.Reasons, "\n"), "outside the plain") || d.OfferAlways {
				bad = "want ask, outside the subset, no Always"
			}
		default:
			t.Fatalf("line %d: unknown label %q", c.line, c.label)
		}
		if bad != "" {
			t.Errorf("line %d %s %q: %s safety=%s warn=%v default=%s always=%v display=%q reasons=%q: %s",
				c.line, c.shell, c.cmd, d.Decision, d.Safety, d.Warn, d.DefaultAnswer, d.OfferAlways, d.Display, d.Reasons, bad)
		}
	}
}

// A deny rule denies every spelling of the command the parsers can see:
// carets, @, switches glued to the name, cmd /c, if …, case, aliases and
// canonical cmdlet names, nested shells.
func TestWinDenyEverySpelling(t *testing.T) {
	useWindowsPaths(t)
	e := newEngine(t, func(o *Options) { o.Approval.Deny = []string{"rd *", "Remove-Item *", "reg delete *", "rm -rf *"} })
	for _, c := range []struct {
		sh  sysinfo.ShellKind
		cmd string
	}{
		{sysinfo.ShellCmd, `rd /s /q C:\x`}, {sysinfo.ShellCmd, `r^d /s /q C:\x`}, {sysinfo.ShellCmd, `cmd /c rd /s /q C:\x`},
		{sysinfo.ShellCmd, `rd/s/q C:\x`}, {sysinfo.ShellCmd, `@rd /s /q C:\x`}, {sysinfo.ShellCmd, `if 1==1 rd /s /q C:\x`},
		{sysinfo.ShellCmd, `RD /S /Q C:\x`}, {sysinfo.ShellCmd, `rmdir /s /q C:\x`}, {sysinfo.ShellCmd, `dir & rd x`},
		{sysinfo.ShellCmd, `cmd /d /s /c "echo a && rd x"`}, {sysinfo.ShellCmd, `rd,/s,/q,x`}, {sysinfo.ShellCmd, `if exist x (rd x)`},
		{sysinfo.ShellCmd, `for %i in (a) do rd %i`}, {sysinfo.ShellCmd, `powershell -c Remove-Item x`},
		{sysinfo.ShellCmd, `REG DELETE HKLM\Software\x /f`}, {sysinfo.ShellCmd, `C:\Windows\System32\reg.exe delete HKCU\x`},
		{sysinfo.ShellPowerShell, `Remove-Item x`}, {sysinfo.ShellPowerShell, `rm x`}, {sysinfo.ShellPowerShell, `del x`},
		{sysinfo.ShellPowerShell, `ri x`}, {sysinfo.ShellPowerShell, `remove-item x`}, {sysinfo.ShellPowerShell, `rd x`},
		{sysinfo.ShellPowerShell, `gci | Remove-Item`}, {sysinfo.ShellPowerShell, `gci | % { Remove-Item $_ }`},
		{sysinfo.ShellPowerShell, `cmd /c rd /s /q C:\x`}, {sysinfo.ShellPowerShell, `Microsoft.PowerShell.Management\Remove-Item x`},
		// dot-sourcing, powershell.exe's abbreviated parameters
		{sysinfo.ShellPowerShell, `. Remove-Item x`}, {sysinfo.ShellPowerShell, `. ri x`},
		{sysinfo.ShellCmd, `powershell -Exec Bypass -W Hidden -c Remove-Item x`}, {sysinfo.ShellCmd, `powershell –c Remove-Item x`},
		// cmd.exe's switches glued together
		{sysinfo.ShellCmd, `cmd /crd x`}, {sysinfo.ShellCmd, `cmd /d/c rd x`}, {sysinfo.ShellPowerShell, `cmd /q/crd x`},
		{sysinfo.ShellCmd, `for /f %i in ('rd x') do echo %i`}, {sysinfo.ShellCmd, "for /f \"usebackq\" %i in (`rd x`) do echo %i"},
		{sysinfo.ShellPowerShell, `Start-Process cmd "/c rd x"`}, {sysinfo.ShellCmd, `start /b "t" rd x`},
		{sysinfo.ShellPowerShell, `iex 'Remove-Item x'`}, {sysinfo.ShellPowerShell, `cmd --% /c rd x`},
		{sysinfo.ShellCmd, `%COMSPEC% /c rd x`}, {sysinfo.ShellPowerShell, `& $env:ComSpec /c rd x`},
		{sysinfo.ShellCmd, `wsl rm -rf /x`}, {sysinfo.ShellCmd, `schtasks /create /tn t /tr "rd x" /sc once`},
		{sysinfo.ShellPowerShell, `wmic process call create 'cmd /c rd x'`},
		{sysinfo.ShellPowerShell, "Set-Alias ls Remove-Item\nls x"},
	} {
		if d := decideCmd(e, c.cmd, winCC(c.sh)); d.Decision != Deny {
			t.Errorf("%s %q: %s %q, want deny", c.sh, c.cmd, d.Decision, d.Reasons)
		}
	}
	for _, c := range []string{`dir`, `type rd.txt`, `echo rd`} {
		if d := decideCmd(e, c, winCC(sysinfo.ShellCmd)); d.Decision == Deny {
			t.Errorf("%q: denied", c)
		}
	}
}

// --approve, allow rules and grants work for both shells, and a headless
// run gets a remedy it can use; what only reads needs no rule at all.
func TestWinApproveAndHeadless(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Headless = true })
	for _, c := range []struct {
		sh  sysinfo.ShellKind
		cmd string
	}{{sysinfo.ShellCmd, "dir"}, {sysinfo.ShellPowerShell, "Get-ChildItem"}, {sysinfo.ShellCmd, "type README.md | findstr x"}} {
		if d := decideCmd(e, c.cmd, winCC(c.sh)); d.Decision != Allow {
			t.Errorf("headless %s %q: %s %q", c.sh, c.cmd, d.Decision, d.Reasons)
		}
	}
	for _, c := range []struct {
		sh     sysinfo.ShellKind
		cmd    string
		remedy string
	}{
		// quoted for the shell nb is run from: cmd.exe takes double quotes
		{sysinfo.ShellCmd, "git push origin main", `re-run with --approve "git push *"`},
		{sysinfo.ShellCmd, "sc stop spooler", `re-run with --approve "sc stop *"`},
		{sysinfo.ShellPowerShell, "Stop-Process -Name node", "re-run with --approve 'Stop-Process -Name node'"},
		{sysinfo.ShellPowerShell, "Remove-Item x.txt", "re-run with --approve 'Remove-Item x.txt'"},
		{sysinfo.ShellPowerShell, "gci | % { $_ }", remedyInteractive},
		{sysinfo.ShellPowerShell, "Invoke-WebRequest https://example.com", "re-run with --approve 'Invoke-WebRequest https://example.com'"},
	} {
		d := decideCmd(e, c.cmd, winCC(c.sh))
		if d.Decision != Deny || d.DecidedBy != ByHeadless || d.Remedy != c.remedy {
			t.Errorf("headless %s %q: %s by %s, remedy %q, want %q", c.sh, c.cmd, d.Decision, d.DecidedBy, d.Remedy, c.remedy)
		}
	}
	approved := newEngine(t, func(o *Options) {
		o.Headless = true
		o.Approve = []string{"git push *", "sc stop *", "Stop-Process -Name node", "Remove-Item x.txt", "Remove-Item *"}
	})
	for _, c := range []struct {
		sh   sysinfo.ShellKind
		cmd  string
		want Verdict
	}{
		{sysinfo.ShellCmd, "git push origin main", Allow},
		{sysinfo.ShellPowerShell, "git push origin main", Allow},
		{sysinfo.ShellCmd, "SC STOP spooler", Allow},
		{sysinfo.ShellPowerShell, "stop-process -name node", Allow},
		{sysinfo.ShellPowerShell, "Stop-Process -Name node; Remove-Item x.txt", Allow},
		// a rule with * never approves what is dangerous or writes
		{sysinfo.ShellPowerShell, "Remove-Item y.txt", Deny},
		{sysinfo.ShellPowerShell, "Remove-Item x.txt -Recurse", Deny},
		// nor a command outside the subset, nor a write by redirection
		{sysinfo.ShellPowerShell, "Stop-Process -Name $n", Deny},
		{sysinfo.ShellCmd, "sc stop spooler > out.txt", Deny},
		{sysinfo.ShellCmd, "sc stop spooler & sc delete spooler", Deny},
	} {
		d := decideCmd(approved, c.cmd, winCC(c.sh))
		if d.Decision != c.want {
			t.Errorf("approved %s %q: %s %q, want %s", c.sh, c.cmd, d.Decision, d.Reasons, c.want)
		}
	}
	// no "Always" for what talks to the network or runs code
	for _, c := range []string{"Invoke-WebRequest https://example.com", "Start-Process notepad", "Import-Module x"} {
		if d := decideCmd(newEngine(t, nil), c, winCC(sysinfo.ShellPowerShell)); d.OfferAlways {
			t.Errorf("%q: Always offered (%q)", c, d.Rule)
		}
	}
	// grants ("Always") too
	g := newEngine(t, nil)
	d := decideCmd(g, "sc stop spooler", winCC(sysinfo.ShellCmd))
	if !d.OfferAlways || d.Rule != "sc stop *" {
		t.Fatalf("Always: offer %v rule %q", d.OfferAlways, d.Rule)
	}
	if err := g.Grant(d, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if d := decideCmd(g, "sc stop spooler", winCC(sysinfo.ShellCmd)); d.Decision != Allow || d.DecidedBy != ByGrant {
		t.Errorf("after the grant: %s by %s", d.Decision, d.DecidedBy)
	}
}

// Secret paths are secrets in every Windows spelling.
func TestWinSecretSpellings(t *testing.T) {
	useWindowsPaths(t)
	e := newEngine(t, nil)
	for _, c := range []struct {
		sh  sysinfo.ShellKind
		cmd string
	}{
		{sysinfo.ShellCmd, `type %USERPROFILE%\.ssh\id_rsa`}, {sysinfo.ShellCmd, `type C:\USERS\ME\.SSH\ID_RSA`},
		{sysinfo.ShellCmd, `type ..\.aws\credentials`}, {sysinfo.ShellCmd, `type c:/users/me/.git-credentials`},
		{sysinfo.ShellCmd, `findstr x %HOMEDRIVE%%HOMEPATH%\.kube\config`}, {sysinfo.ShellCmd, `type .env.local`},
		{sysinfo.ShellCmd, `more < C:\Users\me\.ssh\id_ed25519`}, {sysinfo.ShellCmd, `dir /s C:\Users\me\.ssh & type C:\Users\me\.netrc`},
		{sysinfo.ShellCmd, `type C:\Users\me\AppData\Roaming\Microsoft\Windows\PowerShell\PSReadLine\ConsoleHost_history.txt`},
		{sysinfo.ShellPowerShell, `Get-Content ~\.ssh\id_rsa`}, {sysinfo.ShellPowerShell, `gc $HOME\.aws\credentials`},
		{sysinfo.ShellPowerShell, `gc $env:USERPROFILE\.docker\config.json`}, {sysinfo.ShellPowerShell, `Select-String key C:\Users\me\.ssh\*`},
		{sysinfo.ShellPowerShell, `Get-ChildItem C:\Users\me -Recurse | Select-String password`},
		{sysinfo.ShellPowerShell, `Get-Content server.pem`}, {sysinfo.ShellPowerShell, `Get-ChildItem Env:`},
		{sysinfo.ShellPowerShell, `Format-Hex C:\Windows\System32\config\SAM`},
		// names as Windows opens them: a stream suffix is the file's own
		// data, trailing dots and spaces are dropped, an 8.3 alias may be
		// any long name of its directory
		{sysinfo.ShellCmd, `type .env::$DATA`}, {sysinfo.ShellCmd, `type .env:x`}, {sysinfo.ShellCmd, `type ".env "`},
		{sysinfo.ShellCmd, `type ".env. . "`}, {sysinfo.ShellCmd, `type C:\Users\me\.aws::$INDEX_ALLOCATION\credentials`},
		{sysinfo.ShellCmd, `type C:\Users\me\.aws:$I30:$INDEX_ALLOCATION\config`}, {sysinfo.ShellCmd, `type "C:\Users\me\.aws. \config"`},
		{sysinfo.ShellCmd, `type C:\Users\me\AWS~1\CREDEN~1`}, {sysinfo.ShellCmd, `type ENV~1`}, {sysinfo.ShellCmd, `more < ENV~2.LOC`},
		{sysinfo.ShellPowerShell, `Get-Content ".env "`}, {sysinfo.ShellPowerShell, `Get-Content 'C:\Users\me\.ssh\id_ed25519::$DATA'`},
		{sysinfo.ShellPowerShell, `gc ENV~1`},
		// a secret location of the home directory whose names say nothing
		{sysinfo.ShellCmd, `type %USERPROFILE%\.config\doctl\config.yaml`}, {sysinfo.ShellPowerShell, `gc ~\.config\doctl\config.yaml`},
	} {
		if d := decideCmd(e, c.cmd, winCC(c.sh)); d.Decision == Allow {
			t.Errorf("%s %q: allowed", c.sh, c.cmd)
		} else if d.OfferAlways && strings.Contains(strings.Join(d.Reasons, " "), "sensitive") {
			t.Errorf("%s %q: Always offered for a secret", c.sh, c.cmd)
		}
	}
}

// A recursive read of a tree that holds secret files asks; the same
// read of a clean tree is allowed.
func TestWinTreeFacts(t *testing.T) {
	e := newEngine(t, nil)
	cc := winCC(sysinfo.ShellPowerShell)
	cc.Facts = winFacts{"config/.env"}
	for _, cmd := range []string{`Get-ChildItem -Recurse | Select-String TODO`, `gci src -r | sls x`} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%q in a tree with .env: allowed", cmd)
		}
		if d := decideCmd(e, cmd, winCC(sysinfo.ShellPowerShell)); d.Decision != Allow {
			t.Errorf("%q in a clean tree: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	cmdcc := winCC(sysinfo.ShellCmd)
	cmdcc.Facts = winFacts{".env"}
	if d := decideCmd(e, `findstr /s password *.*`, cmdcc); d.Decision == Allow {
		t.Errorf("findstr /s in a tree with .env: allowed")
	}
	cmdcc.Facts = nil
	if d := decideCmd(e, `findstr /s password *.*`, cmdcc); d.Decision == Allow {
		t.Errorf("findstr /s with no facts: allowed")
	}
}

// winFacts reports the same secret files below every directory.
type winFacts []string

func (f winFacts) SecretFiles(string) ([]string, bool) { return f, true }
func (winFacts) GitRepo(string) (GitRepo, bool)        { return GitRepo{}, true }
func (winFacts) GitSecrets(string) ([]string, bool)    { return nil, true }
func (winFacts) Toolchain(string, string) string       { return "" }
func (winFacts) Resolve(p string) (string, PathState)  { return NoFacts{}.Resolve(p) }
func (winFacts) Glob(string, string) ([]string, bool)  { return nil, true }
func (winFacts) SecretContent(string) bool             { return false }
func (winFacts) PlainNames(string) bool                { return false }
func (winFacts) PathProgram(string, string) string     { return "" }
func (winFacts) LocalProgram(string, string) bool      { return false }
func (winFacts) Links(string) (string, bool)           { return "", false }

// Input typed into a PowerShell or cmd.exe session is judged in that
// shell's language, whatever the host's shell.
func TestWinSessionInput(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.Deny = []string{"rd *"} })
	where := winCC(sysinfo.ShellBash) // the host's shell is not the session's
	for _, c := range []struct {
		program, input string
		want           Verdict
		danger         bool
	}{
		{"powershell", "Get-ChildItem\r", Allow, false},
		{"pwsh.exe", "Get-Process | Sort-Object CPU\r", Allow, false},
		// rd is PowerShell's alias of Remove-Item: the rule denies it there too
		{"powershell", "Remove-Item C:\\x -Recurse\r", Deny, true},
		{"powershell", "Clear-Disk 1\r", Ask, true},
		{"powershell", "Format-Volume -DriveLetter D\r", Ask, true},
		{"cmd", "dir /b\r", Allow, false},
		{"cmd.exe", "r^d /s /q C:\\x\r", Deny, true},
		{"cmd", "cmd /c rd x\r", Deny, false},
		{"cmd", "del /s *.tmp\r", Ask, true},
	} {
		d := e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: c.program, Shell: true, InShell: true,
			SessionProgram: c.program, Input: c.input, Where: where})
		if d.Decision != c.want || c.danger != (d.Safety == Dangerous) {
			t.Errorf("%s %q: %s %s %q, want %s dangerous=%v", c.program, c.input, d.Decision, d.Safety, d.Reasons, c.want, c.danger)
		}
	}
}

// The user's dangerousCommands and warnPatterns apply to cmd.exe and
// PowerShell commands, on every spelling.
func TestWinConfiguredLists(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.Approval.DangerousCommands = []string{"Stop-Process", "taskkill"}
		o.WarnPatterns = []string{"git push"}
		o.Approve = []string{"git push *"}
	})
	for _, c := range []struct {
		sh  sysinfo.ShellKind
		cmd string
	}{
		{sysinfo.ShellPowerShell, "Stop-Process -Name node"}, {sysinfo.ShellPowerShell, "kill 42"},
		{sysinfo.ShellCmd, "taskkill /im node.exe"}, {sysinfo.ShellCmd, "cmd /c TASKKILL /f /im x.exe"},
	} {
		if d := decideCmd(e, c.cmd, winCC(c.sh)); d.Safety != Dangerous || !d.Warn || d.Decision == Allow {
			t.Errorf("%s %q: %s %s warn=%v", c.sh, c.cmd, d.Decision, d.Safety, d.Warn)
		}
	}
	// a warn pattern is never waved through by a rule with *
	if d := decideCmd(e, "git push origin main", winCC(sysinfo.ShellPowerShell)); d.Decision == Allow || !d.Warn {
		t.Errorf("git push under a warn pattern: %s warn=%v", d.Decision, d.Warn)
	}
}

// Pipe patterns of warnPatterns and dangerousCommands ("A | B") match
// cmd.exe and PowerShell pipelines, under any spelling and case of either
// side, and only where B reads A's output.
func TestWinConfiguredPipePatterns(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.WarnPatterns = []string{"Get-Content | Select-String", "type | findstr", "> C:\\logs", ">> D:\\audit"}
		o.Approval.DangerousCommands = []string{"Get-ChildItem | Remove-Item"}
	})
	for _, c := range []struct {
		sh        sysinfo.ShellKind
		cmd       string
		warn, dng bool
	}{
		{sysinfo.ShellPowerShell, "Get-Content a.txt | Select-String x", true, false},
		{sysinfo.ShellPowerShell, "gc a.txt | sls x", true, false},
		{sysinfo.ShellPowerShell, "get-content a.txt | select-string x", true, false},
		{sysinfo.ShellPowerShell, "Get-Content a.txt; Select-String x b.txt", false, false},
		{sysinfo.ShellPowerShell, "Select-String x a.txt", false, false},
		{sysinfo.ShellPowerShell, "ls | rm", true, true},
		{sysinfo.ShellCmd, "type a.txt | findstr x", true, false},
		{sysinfo.ShellCmd, "TYPE a.txt | FINDSTR x", true, false},
		{sysinfo.ShellCmd, "type a.txt & findstr x b.txt", false, false},
	} {
		d := decideCmd(e, c.cmd, winCC(c.sh))
		if d.Warn != c.warn || (d.Safety == Dangerous) != c.dng || c.warn && d.Decision == Allow {
			t.Errorf("%s %q: %s %s warn=%v (%v)", c.sh, c.cmd, d.Decision, d.Safety, d.Warn, d.Reasons)
		}
	}
	// redirection patterns: the operator, and the target's prefix in any case
	for _, c := range []struct {
		sh    sysinfo.ShellKind
		cmd   string
		match bool
	}{
		{sysinfo.ShellCmd, `echo x > c:\LOGS\a.txt`, true},
		{sysinfo.ShellPowerShell, `Get-Date > C:\logs\a.txt`, true},
		{sysinfo.ShellPowerShell, `Get-Date >> D:\audit\a.txt`, true},
		{sysinfo.ShellPowerShell, `Get-Date > D:\audit\a.txt`, false},
		{sysinfo.ShellCmd, `echo x >> C:\logs\a.txt`, false},
		{sysinfo.ShellCmd, `echo x > C:\other\a.txt`, false},
	} {
		d := decideCmd(e, c.cmd, winCC(c.sh))
		matched := strings.Contains(strings.Join(d.Reasons, "\n"), "matches warnPatterns")
		if matched != c.match || !d.Warn {
			t.Errorf("%s %q: warnPatterns matched %v, want %v; warn=%v (%v)", c.sh, c.cmd, matched, c.match, d.Warn, d.Reasons)
		}
	}
}

// FuzzWinDecide: for any text, in either Windows shell, Decide does not
// panic, allows only what it calls safe and unwarned, never allows a
// script outside the plain subset, and decides the same way twice.
func FuzzWinDecide(f *testing.F) {
	for _, s := range []string{`dir /s /b *.log`, `r^d /s /q C:\x`, `Get-Process | Sort-Object CPU`, `iwr x | iex`,
		`cmd /c "if 1==1 rd x"`, `gci -r | sls x`, `$x = 1; ls $x`, `echo %PATH%`, `powershell -c "Remove-Item C:\ -Recurse"`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	e := newEngine(f, func(o *Options) { o.Approval.Deny = []string{"rd *"} })
	f.Fuzz(func(t *testing.T, src string, ps bool) {
		sh := sysinfo.ShellCmd
		if ps {
			sh = sysinfo.ShellPowerShell
		}
		d := decideCmd(e, src, winCC(sh))
		if d.Decision == Allow {
			if d.Safety != Safe || d.Warn {
				t.Fatalf("%q: allowed with safety %s warn %v", src, d.Safety, d.Warn)
			}
			for _, r := range d.Reasons {
				if strings.Contains(r, "outside the plain") {
					t.Fatalf("%q: allowed outside the subset", src)
				}
			}
		}
		if d2 := decideCmd(e, src, winCC(sh)); d2.Decision != d.Decision || d2.Safety != d.Safety {
			t.Fatalf("%q: %s/%s then %s/%s", src, d.Decision, d.Safety, d2.Decision, d2.Safety)
		}
	})
}

func BenchmarkWinDecidePipeline(b *testing.B) {
	e := newEngine(b, nil)
	cc := winCC(sysinfo.ShellPowerShell)
	b.ReportAllocs()
	for b.Loop() {
		decideCmd(e, `Get-ChildItem -Recurse -Filter *.log | Select-String error | Sort-Object Line | Select-Object -First 20`, cc)
	}
}

// A 1,000-line script of three commands a line, for each shell.
func BenchmarkWinDecide1000Lines(b *testing.B) {
	for _, c := range []struct {
		name string
		sh   sysinfo.ShellKind
		line string
	}{
		{"cmd", sysinfo.ShellCmd, "type README.md | findstr /i error & dir /b src\n"},
		{"powershell", sysinfo.ShellPowerShell, "Get-Content README.md | Select-String error; Get-ChildItem -Name src\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := newEngine(b, nil)
			cc := winCC(c.sh)
			script := strings.Repeat(c.line, 1000)
			if d := decideCmd(e, script, cc); d.Decision != Allow {
				b.Fatalf("%s %q", d.Decision, d.Reasons) // the whole script is judged
			}
			b.ReportAllocs()
			for b.Loop() {
				decideCmd(e, script, cc)
			}
		})
	}
}

// approval.safeCommands adds and removes readers for both shells.
func TestWinSafeCommandsConfig(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.SafeCommands = []string{"MyTool", "!dir", "!Get-ChildItem"} })
	for _, c := range []struct {
		sh   sysinfo.ShellKind
		cmd  string
		want Verdict
	}{
		{sysinfo.ShellCmd, "mytool --list", Allow}, {sysinfo.ShellPowerShell, "mytool.exe", Allow},
		{sysinfo.ShellCmd, "dir", Ask}, {sysinfo.ShellPowerShell, "Get-ChildItem", Ask}, {sysinfo.ShellPowerShell, "gci", Ask},
		{sysinfo.ShellCmd, "type x.txt", Allow}, {sysinfo.ShellCmd, `C:\\tmp\\mytool.exe`, Ask},
	} {
		if d := decideCmd(e, c.cmd, winCC(c.sh)); d.Decision != c.want {
			t.Errorf("%s %q: %s %q, want %s", c.sh, c.cmd, d.Decision, d.Reasons, c.want)
		}
	}
}

// cmd.exe runs a program of the current directory before the system's:
// a repository's own findstr.bat or git.cmd is never run as the known one.
func TestWinLocalProgramShadows(t *testing.T) {
	e := newEngine(t, nil)
	cc := winCC(sysinfo.ShellCmd)
	cc.Facts = localProgs{"findstr": true, "git": true}
	for _, cmd := range []string{"findstr x a.txt", "git status", "type a.txt | findstr x"} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%q with a local program: allowed", cmd)
		}
	}
	for _, cmd := range []string{"dir", "type a.txt", "tasklist"} {
		if d := decideCmd(e, cmd, cc); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// PowerShell does not look in the current directory
	cc.Shell = sysinfo.ShellPowerShell
	if d := decideCmd(e, "findstr x a.txt", cc); d.Decision != Allow {
		t.Errorf("PowerShell findstr: %s %q", d.Decision, d.Reasons)
	}
	// without facts, a program cmd.exe may find in the directory is asked
	cc = winCC(sysinfo.ShellCmd)
	cc.Facts = nil
	if d := decideCmd(e, "findstr x a.txt", cc); d.Decision == Allow {
		t.Errorf("findstr with no facts: allowed")
	}
}

type localProgs map[string]bool

func (localProgs) SecretFiles(string) ([]string, bool)  { return nil, true }
func (localProgs) GitRepo(string) (GitRepo, bool)       { return GitRepo{}, true }
func (localProgs) GitSecrets(string) ([]string, bool)   { return nil, true }
func (localProgs) Toolchain(string, string) string      { return "" }
func (localProgs) SecretContent(string) bool            { return false }
func (localProgs) Resolve(p string) (string, PathState) { return p, PathExists }
func (localProgs) Glob(string, string) ([]string, bool) { return nil, true }
func (l localProgs) LocalProgram(dir, name string) bool { return l[name] }
func (localProgs) PlainNames(string) bool               { return false }
func (localProgs) PathProgram(string, string) string    { return "" }
func (localProgs) Links(string) (string, bool)          { return "", false }

// A command whose names are removed from the safe list more than once
// (dir is Get-ChildItem's alias) gets the same reason on every engine:
// the first of its names, as written before the canonical name.
func TestWinRemovedSafeReasonStable(t *testing.T) {
	for range 20 {
		e := newEngine(t, func(o *Options) { o.Approval.SafeCommands = []string{"!Get-ChildItem", "!DIR", "!dir"} })
		for cmd, want := range map[string]string{"dir": "DIR is removed", "gci": "Get-ChildItem is removed", "Get-ChildItem": "Get-ChildItem is removed"} {
			d := decideCmd(e, cmd, winCC(sysinfo.ShellPowerShell))
			if d.Decision != Ask || len(d.Reasons) == 0 || !strings.HasPrefix(d.Reasons[0], want) {
				t.Fatalf("%q: %s %q, want a reason starting %q", cmd, d.Decision, d.Reasons, want)
			}
		}
	}
}

// A PowerShell pipeline goes on over a line that ends with | or (7) the
// next line's leading |: what the last command changes comes from the
// first.
func TestWinPipelineOverLines(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{"Get-ChildItem C:\\Windows |\n  Remove-Item", "Get-ChildItem C:\\Windows\n  | Remove-Item",
		"Get-ChildItem C:\\Windows |\r\n\r\n Remove-Item"} {
		d := e.Decide(Action{Kind: RunCommand, Command: cmd, Where: winCC(sysinfo.ShellPowerShell)})
		if d.Safety != Dangerous || !d.Warn {
			t.Errorf("%q: %s %s %q, want a dangerous warning", cmd, d.Decision, d.Safety, d.Reasons)
		}
	}
	d := e.Decide(Action{Kind: RunCommand, Command: "Get-ChildItem |\n  Select-Object -First 3", Where: winCC(sysinfo.ShellPowerShell)})
	if d.Decision != Allow {
		t.Errorf("a read-only pipeline over two lines: %s %q", d.Decision, d.Reasons)
	}
}

// cmd.exe joins a line that ends with a caret to the next one: the
// command is read whole, outside the subset.
func TestWinCaretJoinsLines(t *testing.T) {
	e := newEngine(t, nil)
	d := e.Decide(Action{Kind: RunCommand, Command: "rd ^\n/s /q C:\\x", Where: winCC(sysinfo.ShellCmd)})
	if d.Safety != Dangerous || !strings.Contains(strings.Join(d.Reasons, "\n"), "caret continuing") {
		t.Errorf("rd ^⏎/s /q: %s %s %q, want a dangerous warning outside the subset", d.Decision, d.Safety, d.Reasons)
	}
	if d := e.Decide(Action{Kind: RunCommand, Command: "dir ^\n/b", Where: winCC(sysinfo.ShellCmd)}); d.Decision == Allow {
		t.Errorf("dir ^⏎/b: allowed")
	}
}

// A drive letter alone moves the shell: where it ends is not known
// before it runs.
func TestWinDriveLetterMoves(t *testing.T) {
	e := newEngine(t, nil)
	for _, sh := range []sysinfo.ShellKind{sysinfo.ShellCmd, sysinfo.ShellPowerShell} {
		d := e.Decide(Action{Kind: RunCommand, Command: "D:", Where: winCC(sh)})
		if d.DirAfter.Known {
			t.Errorf("%s D:: the directory after is known (%+v)", sh, d.DirAfter)
		}
	}
}

// A command is explained, warned about and given rules in its own
// shell's language: PowerShell's Remove-Item -Recurse matches the warn
// pattern written for it, reasons show paths as written (no doubled
// backslashes), and Always rules and remedies are quoted as the shell
// reads them and work once granted.
func TestWinOwnLanguage(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []struct {
		sh      sysinfo.ShellKind
		cmd     string
		pattern string
	}{
		{sysinfo.ShellPowerShell, `Remove-Item -Recurse -Force C:\Users\me\proj\build`, "Remove-Item -Recurse"},
		{sysinfo.ShellPowerShell, `ri .\build -r -fo`, "Remove-Item -Recurse"},
		{sysinfo.ShellCmd, `rd /s /q C:\Users\me\proj\build`, "rd /s"},
		{sysinfo.ShellCmd, `RMDIR /S build`, "rd /s"},
		{sysinfo.ShellCmd, `del /s /q *.tmp`, "del /s"},
	} {
		d := decideCmd(e, c.cmd, winCC(c.sh))
		why := strings.Join(d.Reasons, "\n")
		if !d.Warn || !strings.Contains(why, `matches warnPatterns "`+c.pattern+`"`) && !strings.Contains(why, "dangerous") {
			t.Errorf("%s %q: warn=%v reasons %q, want the pattern %q", c.sh, c.cmd, d.Warn, d.Reasons, c.pattern)
		}
		if strings.Contains(why, `\\`) || strings.Contains(why, `"rm -rf"`) {
			t.Errorf("%s %q: reasons %q are not in the shell's own words", c.sh, c.cmd, d.Reasons)
		}
	}
	for _, c := range []struct {
		sh         sysinfo.ShellKind
		cmd, rule  string
		sameAgain  string // another spelling the granted rule covers
		notCovered string
	}{
		{sysinfo.ShellCmd, `taskkill /im "my app.exe"`, `taskkill /im "my app.exe"`, `TASKKILL /IM "my app.exe"`, `taskkill /im other.exe`},
		{sysinfo.ShellPowerShell, `Stop-Process -Name 'my app'`, `Stop-Process -Name 'my app'`, `stop-process -name "my app"`, `Stop-Process -Name other`},
	} {
		d := decideCmd(e, c.cmd, winCC(c.sh))
		if !d.OfferAlways || d.Rule != c.rule {
			t.Errorf("%s %q: Always %v rule %q, want %q", c.sh, c.cmd, d.OfferAlways, d.Rule, c.rule)
			continue
		}
		g := newEngine(t, nil)
		if err := g.Grant(d, ScopeSession); err != nil {
			t.Fatal(err)
		}
		for cmd, want := range map[string]Verdict{c.cmd: Allow, c.sameAgain: Allow, c.notCovered: Ask} {
			if d := decideCmd(g, cmd, winCC(c.sh)); d.Decision != want {
				t.Errorf("%s %q after granting %q: %s, want %s", c.sh, cmd, c.rule, d.Decision, want)
			}
		}
	}
	// a remedy is quoted for the shell: PowerShell doubles a quote
	h := newEngine(t, func(o *Options) { o.Headless = true })
	if d := decideCmd(h, `Stop-Process -Name "it's"`, winCC(sysinfo.ShellPowerShell)); d.Remedy != `re-run with --approve 'Stop-Process -Name ''it''''s'''` {
		t.Errorf("PowerShell remedy %q", d.Remedy)
	}
	// an argument is no command: a method's arguments are values
	d := decideCmd(e, `[Environment]::GetEnvironmentVariable('Path', 'Machine')`, winCC(sysinfo.ShellPowerShell))
	for _, r := range d.Reasons {
		if strings.Contains(strings.ToLower(r), "path is") || strings.Contains(r, "unknown command") {
			t.Errorf("an argument called a command: %q", d.Reasons)
		}
	}
}

// What shows variables that may hold secrets is asked and never offers
// Always; in either shell.
func TestWinSecretReadersNoAlways(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []struct {
		sh  sysinfo.ShellKind
		cmd string
	}{
		{sysinfo.ShellCmd, "set AWS"}, {sysinfo.ShellCmd, "set"}, {sysinfo.ShellCmd, "set GITHUB_TOKEN"},
		{sysinfo.ShellPowerShell, "Get-ChildItem Env:*KEY*"}, {sysinfo.ShellPowerShell, "gci env:AWS*"},
		{sysinfo.ShellPowerShell, "dir Env:"}, {sysinfo.ShellPowerShell, "Get-Item Env:GITHUB_TOKEN"},
	} {
		d := decideCmd(e, c.cmd, winCC(c.sh))
		if d.Decision == Allow || d.OfferAlways {
			t.Errorf("%s %q: %s, Always %v (%q)", c.sh, c.cmd, d.Decision, d.OfferAlways, d.Rule)
		}
	}
}
