package fsfacts_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/wintest"
)

// shortName is the 8.3 alias the filesystem gives p (NTFS's, or Wine's
// mangled one).
func shortName(t *testing.T, p string) string {
	t.Helper()
	u, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]uint16, 1024)
	n, err := syscall.GetShortPathName(u, &buf[0], uint32(len(buf)))
	if err != nil || n == 0 {
		t.Fatalf("GetShortPathName(%s): %v", p, err)
	}
	return syscall.UTF16ToString(buf[:n])
}

// A secret named by its 8.3 alias is the secret: cmd.exe and PowerShell
// open APPLIC~1.YAM as application-secrets.yaml, and the alias alone does
// not say so; the disk does. A stream suffix and trailing dots name the
// same file too. The aliases are the filesystem's own.
func TestWinAliasesReadAsTheirLongNames(t *testing.T) {
	dir := wintest.TempDir(t)
	for name, body := range map[string]string{
		`.aws\credentials`: "[default]\n", "application-secrets.yaml": "k: v\n", "release-notes.txt": "notes\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret, notes := shortName(t, filepath.Join(dir, "application-secrets.yaml")), shortName(t, filepath.Join(dir, "release-notes.txt"))
	creds := shortName(t, filepath.Join(dir, ".aws", "credentials"))
	if filepath.Base(secret) == "application-secrets.yaml" {
		t.Fatalf("the filesystem gave no alias (%s)", secret)
	}
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range []sysinfo.ShellKind{sysinfo.ShellCmd, sysinfo.ShellPowerShell} {
		reader := "type "
		if sh == sysinfo.ShellPowerShell {
			reader = "Get-Content "
		}
		cc := policy.CommandContext{Home: `C:\Users\nobody`, Cwd: dir, Shell: sh, Facts: fsfacts.Disk{}}
		for _, p := range []string{secret, creds, filepath.Base(secret), `"application-secrets.yaml. "`, `application-secrets.yaml::$DATA`} {
			if d := decide(e, reader+p, cc); d.Decision == policy.Allow {
				t.Errorf("%s %s%s: allowed, it reads a secret", sh, reader, p)
			}
		}
		for _, p := range []string{notes, filepath.Base(notes), "release-notes.txt"} {
			if d := decide(e, reader+p, cc); d.Decision != policy.Allow {
				t.Errorf("%s %s%s: %s %v, want allow", sh, reader, p, d.Decision, d.Reasons)
			}
		}
	}
}
