package sysinfo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/wintest"
)

func TestWinDetect(t *testing.T) {
	info, err := Detect(func(k string) string { return os.Getenv(k) }, []string{"cmd", "where", "nb-surely-missing"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.OS, "Windows") || !strings.Contains(info.OS, "(") {
		t.Errorf("OS %q, want Windows with its version", info.OS)
	}
	if info.CaseSensitive {
		t.Error("the Windows filesystem reported case-sensitive")
	}
	if info.User == "" || info.Home == "" {
		t.Errorf("user %q home %q", info.User, info.Home)
	}
	if strings.Join(info.Present, ",") != "cmd,where" || strings.Join(info.Missing, ",") != "nb-surely-missing" {
		t.Errorf("tools present %v missing %v", info.Present, info.Missing)
	}
	f := Format(info, `C:\work`)
	if !strings.Contains(f, "- OS: Windows") || !strings.Contains(f, "Case-sensitive filesystem: no") {
		t.Errorf("system prompt section:\n%s", f)
	}
}

func touch(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestWinDefaultShellOrder(t *testing.T) {
	root := wintest.TempDir(t)
	git, pwsh, tools := filepath.Join(root, "Git", "bin"), filepath.Join(root, "PowerShell", "7"), filepath.Join(root, "tools")
	touch(t, filepath.Join(pwsh, "pwsh.exe"))
	touch(t, filepath.Join(git, "bash.exe"))
	touch(t, filepath.Join(tools, "jq.EXE"))
	touch(t, filepath.Join(tools, "rg.txt"))
	touch(t, filepath.Join(tools, "make.bat"))
	path := strings.Join([]string{pwsh, git, tools}, ";")
	if got := DefaultShell(path); got != filepath.Join(git, "bash.exe") {
		t.Errorf("with bash and pwsh: %s, want bash", got)
	}
	if got := DefaultShell(pwsh + ";" + tools); got != filepath.Join(pwsh, "pwsh.exe") {
		t.Errorf("with pwsh: %s, want pwsh", got)
	}
	if got := KindOf(DefaultShell(tools)); got != ShellPowerShell && got != ShellCmd {
		t.Errorf("without bash or pwsh: %v, want Windows PowerShell or cmd.exe", got)
	}
	present, missing := Tools(path, []string{"jq", "rg", "make", "bash"})
	if strings.Join(present, ",") != "jq,make,bash" || strings.Join(missing, ",") != "rg" {
		t.Errorf("PATHEXT lookup: present %v missing %v", present, missing)
	}
}
