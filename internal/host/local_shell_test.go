package host

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

func decodePS(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		t.Fatalf("not base64 UTF-16: %v", err)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

func TestShellInvocationPowerShell(t *testing.T) {
	script := `Get-ChildItem "C:\Program Files" | Where-Object { $_.Name -like 'W*' } # ünï "quotes" 'and' $(dollars) ` + "`backticks`\n2nd line 😀"
	for _, sh := range []string{`C:\Program Files\PowerShell\7\pwsh.exe`, `C:\Windows\System32\WindowsPowerShell\v1.0\PowerShell.EXE`} {
		inv := shellInvocation(sh, script, `C:\rt`, []string{"A=1"})
		if inv.cmdLine != "" || len(inv.argv) != 6 || inv.argv[0] != sh || inv.argv[4] != "-EncodedCommand" {
			t.Fatalf("%s: %q %q", sh, inv.argv, inv.cmdLine)
		}
		for _, a := range []string{"-NoProfile", "-NonInteractive"} {
			if !strings.Contains(strings.Join(inv.argv, " "), a) {
				t.Errorf("%s lacks %s", sh, a)
			}
		}
		got := decodePS(t, inv.argv[5])
		if got != psPrologue+script+psEpilogue {
			t.Errorf("encoded command = %q", got)
		}
	}
}

func TestShellInvocationCmd(t *testing.T) {
	inv := shellInvocation(`C:\Windows\system32\cmd.exe`, `echo "a & b" ^& x`, `C:\rt dir`, nil)
	want := `"C:\Windows\system32\cmd.exe" /d /s /c "` + cmdUTF8 + `echo "a & b" ^& x& call "` + filepath.Join(`C:\rt dir`, "cwd.cmd") + `""`
	if inv.cmdLine != want {
		t.Errorf("cmd line\n got %s\nwant %s", inv.cmdLine, want)
	}
	inv = shellInvocation(`C:\Windows\system32\CMD.EXE`, `echo "odd`, `C:\rt`, nil)
	if want := `"C:\Windows\system32\CMD.EXE" /d /s /c "` + cmdUTF8 + `echo "odd"`; inv.cmdLine != want {
		t.Errorf("odd quotes: %s, want the script alone (after the code page)", inv.cmdLine)
	}
}

func TestShellInvocationBashAndSh(t *testing.T) {
	inv := shellInvocation("/usr/bin/bash", "echo hi", "/rt", []string{"BASH_ENV=/u"})
	if strings.Join(inv.argv, "|") != "/usr/bin/bash|-c|echo hi" || !strings.Contains(strings.Join(inv.env, " "), "NB_USER_BASH_ENV=/u") {
		t.Errorf("bash: %q %q", inv.argv, inv.env)
	}
	inv = shellInvocation("/bin/dash", "echo hi", "/rt", nil)
	if len(inv.argv) != 5 || inv.argv[4] != "echo hi" || inv.argv[2] != shWrapper {
		t.Errorf("dash: %q", inv.argv)
	}
}
