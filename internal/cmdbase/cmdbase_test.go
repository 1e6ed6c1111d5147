package cmdbase

import (
	"strings"
	"testing"
)

func args(s string) []Arg {
	var out []Arg
	for _, f := range strings.Fields(s) {
		out = append(out, Arg{Text: f})
	}
	return out
}

// Examples beside the data: each family's entries with what they must do.
func TestJudgeExamples(t *testing.T) {
	for _, c := range []struct {
		sh   Shells
		line string
		want Effect
	}{
		// cmd_builtins.go
		{Cmd, "dir /s /b", Reads}, {Cmd, "type a.txt", Reads}, {Cmd, "DIR", Reads}, {Cmd, "set", Reads},
		{Cmd, "date", Changes}, {Cmd, "date /t", Reads}, {Cmd, "time /T", Reads}, {Cmd, "path", Reads},
		{Cmd, "path C:\\x", Changes}, {Cmd, "del x", Writes}, {Cmd, "del /s x", Dangerous}, {Cmd, "erase /S x", Dangerous},
		{Cmd, "rd x", Writes}, {Cmd, "rmdir /s /q x", Dangerous}, {Cmd, "copy a b", Writes}, {Cmd, "md x", Writes},
		{Cmd, "start x", Runs}, {Cmd, "Get-ChildItem", Unknown},
		// win_programs.go
		{Cmd, "findstr /s x *.go", Reads}, {Both, "findstr.exe x a", Reads}, {Cmd, `C:\Windows\System32\findstr.exe x a`, Reads},
		{Cmd, "sort a", Reads}, {Cmd, "sort a /o b", Writes}, {Cmd, "tasklist", Reads}, {Cmd, "ipconfig /all", Reads},
		{Cmd, "ipconfig /release", Changes}, {Cmd, "reg query HKCU\\x", Reads}, {Cmd, "reg delete HKLM\\x /f", Dangerous},
		{Cmd, "reg frobnicate x", Unknown}, {Cmd, "sc query", Reads}, {Cmd, "sc", Reads}, {Cmd, "sc stop x", Changes},
		{Cmd, "sc delete x", Dangerous}, {Cmd, "net user", Reads}, {Cmd, "net user x y /add", Dangerous},
		{Cmd, "net localgroup administrators x /add", Dangerous}, {Cmd, "vssadmin list shadows", Reads},
		{Cmd, "vssadmin delete shadows /all", Dangerous}, {Cmd, "cipher", Reads}, {Cmd, "cipher /w:C:\\", Dangerous},
		{Cmd, "format D:", Dangerous}, {Cmd, "diskpart", Dangerous}, {Cmd, "bcdedit /enum", Reads}, {Cmd, "bcdedit /set x y", Dangerous}, {Cmd, "bcdedit /enum /set x y", Dangerous}, {Cmd, "sort a /O b", Writes},
		{Cmd, "takeown /f x", Dangerous}, {Cmd, "icacls x", Reads}, {Cmd, "icacls x /grant Everyone:F", Dangerous},
		{Cmd, "wmic process list", Reads}, {Cmd, "wmic shadowcopy delete", Dangerous}, {Cmd, "netsh interface show interface", Reads},
		{Cmd, "netsh advfirewall set allprofiles state off", Dangerous}, {Cmd, "shutdown /s", Dangerous}, {Cmd, "shutdown /a", Dangerous},
		{Cmd, "certutil -hashfile x SHA256", Reads}, {Cmd, "certutil -urlcache -f http://x y", Sends},
		{Cmd, "robocopy a b", Writes}, {Cmd, "robocopy a b /MIR", Dangerous}, {Cmd, "ping x", Sends}, {Cmd, "schtasks /query", Reads},
		{Cmd, "schtasks /create /tn x", Changes},
		{Cmd, "schtasks /create /tn x /sc onlogon", Dangerous}, {Cmd, "schtasks /create /tn x /rl HIGHEST", Dangerous}, {Cmd, "schtasks /create /tn x /ru system", Dangerous},
		{Cmd, "setx A b", Changes}, {Cmd, "setx A b /M", Dangerous}, {Cmd, "netsh advfirewall firewall add rule name=x action=allow", Dangerous},
		{Cmd, "set AWS", Reads}, {Cmd, "set A=b", Changes}, {Cmd, "set /a x=1", Changes}, {Cmd, "assoc .txt", Reads}, {Cmd, "assoc .txt=x", Changes},
		{Cmd, "winget list", Reads}, {Cmd, "winget install x", Runs}, {Cmd, "winget uninstall x", Dangerous}, {Cmd, "winget search x", Sends},
		{PowerShell, "Remove-CimInstance -InputObject x", Dangerous}, {PowerShell, "rwmi x", Dangerous},
		{PowerShell, "New-NetFirewallRule -DisplayName x -Action Allow", Dangerous}, {PowerShell, "New-NetFirewallRule -DisplayName x -Action Block", Changes},
		{PowerShell, "Register-ScheduledTask -TaskName x -RunLevel Highest", Dangerous}, {PowerShell, "Register-ScheduledTask -TaskName x", Changes}, {Cmd, "w32tm /query /status", Reads}, {Cmd, "w32tm /resync", Changes},
		{Cmd, "klist", Reads}, {Cmd, "klist purge", Changes}, {Cmd, "cmdkey /list", Reads}, {Cmd, "cmdkey /add:x /user:u /pass:p", Changes},
		{Cmd, "net user me", Reads}, {Cmd, "net user me NewPass", Dangerous}, {Cmd, "attrib x", Reads}, {Cmd, "attrib +h x", Writes},
		{Cmd, "attrib -r x", Writes}, {Cmd, "fsutil fsinfo drives", Reads}, {Cmd, "fsutil file setzerodata x", Unknown},
		{Cmd, "tasklist /s srv", Sends}, {Cmd, "wmic /node:srv process list", Sends}, {Cmd, "wmic /output:x process get name", Writes},
		{Cmd, "wmic os get caption /format:list", Reads}, {Cmd, "wmic os get caption /format:http://x/y.xsl", Dangerous},
		{Cmd, "schtasks /delete /tn x", Dangerous}, {Cmd, "mshta http://x/y.hta", Dangerous}, {Cmd, "mshta x.hta", Runs},
		{Cmd, `regsvr32 /i:\\x\y scrobj.dll`, Dangerous}, {Cmd, "netsh interface set interface x disable", Dangerous},
		{PowerShell, "icacls x /grant Everyone:F", Dangerous}, {PowerShell, "Get-Service -ComputerName srv", Sends},
		{PowerShell, "Get-Service -Name x", Reads}, {PowerShell, "Storage\\Format-Volume", Dangerous},
		{PowerShell, "$PSVersionTable.PSVersion", Reads}, {PowerShell, "Get-MpPreference", Reads},
		{PowerShell, "Get-CimInstance Win32_Product", Changes}, {PowerShell, "Get-WmiObject -Query SELECT_*_FROM_Win32_Product", Changes},
		{Cmd, "wmic product get name", Changes}, {Cmd, "rd /?", Reads}, {Cmd, "format /?", Reads}, {PowerShell, "Remove-Item -?", Reads},
		{Cmd, "help dir", Reads}, {Cmd, "rd /? x", Writes}, {Cmd, "net accounts", Reads}, {Cmd, "net accounts /minpwlen:0", Dangerous},
		{Cmd, "net user me /comment:x", Changes}, {Cmd, "net user me /domain", Reads}, {Cmd, "net share docs=C:\\x", Changes},
		{Cmd, "gpresult /r", Reads}, {Cmd, "gpresult /h x.html", Writes}, {Cmd, "findstr /f:list.txt x", Reads},
		{Cmd, "cmdkey /delete:x", Dangerous}, {PowerShell, "Get-WindowsFeature", Reads}, {PowerShell, "Get-PSSessionConfiguration", Reads}, {Cmd, "chkdsk", Reads}, {Cmd, "chkdsk C: /f", Dangerous},
		// ps_read.go
		{PowerShell, "Get-ChildItem -Recurse", Reads}, {PowerShell, "gci", Reads}, {PowerShell, "ls", Reads}, {PowerShell, "dir", Reads},
		{PowerShell, "get-content a -Tail 5", Reads}, {PowerShell, "Microsoft.PowerShell.Management\\Get-ChildItem", Reads},
		{PowerShell, "Select-String x a", Reads}, {PowerShell, "sort", Reads}, {PowerShell, "where", Reads}, {PowerShell, "fc", Reads},
		{PowerShell, "ForEach-Object Delete", Runs}, {PowerShell, "Get-Help x -Online", Runs}, {PowerShell, "Tee-Object x", Writes},
		{PowerShell, "Tee-Object -Variable x", Reads}, {PowerShell, "Get-Credential", Changes}, {PowerShell, "Test-Connection x", Sends},
		// ps_write.go
		{PowerShell, "Remove-Item x", Writes}, {PowerShell, "rm x -r", Dangerous}, {PowerShell, "del x -Recurse -Force", Dangerous},
		{PowerShell, "Remove-Item x -rec", Dangerous}, {PowerShell, "Set-Content x y", Writes}, {PowerShell, "Out-File x", Writes},
		{PowerShell, "Copy-Item a b", Writes}, {PowerShell, "Set-Acl x y", Dangerous},
		// ps_system.go
		{PowerShell, "Stop-Computer", Dangerous}, {PowerShell, "Restart-Computer -Force", Dangerous}, {PowerShell, "Format-Volume -DriveLetter D", Dangerous},
		{PowerShell, "Clear-Disk 1 -RemoveData", Dangerous}, {PowerShell, "Set-ExecutionPolicy Unrestricted", Dangerous},
		{PowerShell, "iex x", Runs}, {PowerShell, "iwr https://x", Sends}, {PowerShell, "iwr https://x -OutFile y", Writes},
		{PowerShell, "Start-Process x", Runs}, {PowerShell, "Start-Process x -Verb RunAs", Dangerous}, {PowerShell, "start x -verb runas", Dangerous},
		{PowerShell, "Stop-Process -Name x", Changes}, {PowerShell, "Set-MpPreference -DisableRealtimeMonitoring 1", Dangerous},
		// natives from PowerShell, and names that are not programs
		{PowerShell, "tasklist", Reads}, {PowerShell, "ipconfig.exe /all", Reads}, {PowerShell, "where.exe node", Reads},
		{PowerShell, "rd.exe x", Unknown}, {PowerShell, "Get-Thing", Unknown}, {PowerShell, `C:\x\Get-ChildItem.exe`, Unknown},
	} {
		sh := c.sh
		if sh == Both {
			sh = Cmd
		}
		f := strings.Fields(c.line)
		j := Judge(sh, f[0], args(strings.Join(f[1:], " ")))
		if j.Does != c.want {
			t.Errorf("%s %q: %s (%s), want %s", sh, c.line, j.Does, j.Why, c.want)
		}
	}
}

// Every family has its parts: a name, the shells it is in, a reason for
// what is dangerous, and PowerShell's read-only cmdlets carry read verbs.
func TestBaseComplete(t *testing.T) {
	readVerbs := map[string]bool{"Get": true, "Select": true, "Sort": true, "Measure": true, "Compare": true, "Test": true,
		"Resolve": true, "Format": true, "ConvertTo": true, "ConvertFrom": true, "Group": true, "Join": true, "Split": true,
		"Out": true, "Where": true, "Write": true, "Import": true, "Convert": true, "Set": true, "Push": true, "Pop": true,
		"New": true, "Start": true, "Clear": true, "Wait": true}
	winTables()
	seen := map[*Spec]bool{}
	all := []*Spec{}
	for _, m := range []map[string]*Spec{builtins[Cmd], builtins[PowerShell], programs} {
		for _, s := range m {
			if !seen[s] {
				seen[s] = true
				all = append(all, s)
			}
		}
	}
	if len(all) < 250 {
		t.Errorf("the base holds %d commands", len(all))
	}
	for _, s := range all {
		if s.Name == "" || s.In == 0 {
			t.Errorf("%+v: no name or shell", s)
		}
		if s.Does == Dangerous && s.Why == "" {
			t.Errorf("%s: dangerous without a reason", s.Name)
		}
		for _, o := range append(append([]Opt{}, s.Opts...), s.Words...) {
			if o.Does == Dangerous && o.Why == "" && s.Name != "net" && s.Name != "cacls" && s.Name != "mountvol" && s.Name != "chkdsk" {
				t.Errorf("%s %s: dangerous without a reason", s.Name, o.Name)
			}
		}
		for _, sub := range s.Subs {
			if sub.Does == Dangerous && sub.Why == "" {
				t.Errorf("%s %s: dangerous without a reason", s.Name, sub.Name)
			}
		}
		if s.In == PowerShell && s.Does == Reads && strings.Contains(s.Name, "-") {
			verb, _, _ := strings.Cut(s.Name, "-")
			if !readVerbs[verb] {
				t.Errorf("%s reads but its verb %s is not a read verb", s.Name, verb)
			}
		}
		if s.In == PowerShell && s.Does == Reads && strings.HasPrefix(s.Name, "Set-") && s.Name != "Set-Location" {
			t.Errorf("%s: a Set- cmdlet listed as read-only", s.Name)
		}
	}
}

func BenchmarkJudge(b *testing.B) {
	a := args("-Recurse -Filter *.log C:\\x")
	for b.Loop() {
		Judge(PowerShell, "Get-ChildItem", a)
	}
}
