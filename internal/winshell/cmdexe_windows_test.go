package winshell

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The test binary doubles as a program that prints the arguments it
// received, so cmd.exe itself says what a command line means.
func TestMain(m *testing.M) {
	if os.Getenv("NB_WINSHELL_ARGV") == "1" {
		json.NewEncoder(os.Stdout).Encode(os.Args[1:])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestWinCmdArgvMatchesCmdExe runs command lines through the real cmd.exe
// and compares the arguments the program receives with the words the
// parser returns: carets, quotes, delimiters, @, redirections, %VAR%.
func TestWinCmdArgvMatchesCmdExe(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	comspec := os.Getenv("COMSPEC")
	if comspec == "" {
		comspec = `C:\windows\system32\cmd.exe`
	}
	prog := `"` + self + `"`
	for _, args := range []string{
		`plain words here`,
		`a^b c^^d "e f" "g^h"`,
		`x^&y "a&b" c^|d`,
		`a,b;c=d`,
		`"quoted space" tail`,
		`%USERPROFILE%\.ssh\id_rsa`,
		`a 2>nul`,
		`a 2>nul b`,
		`a 2>&1 b`,
		`/s/q C:\x`,
		`"C:\Program Files (x86)\x" y`,
		`a) b(`,
	} {
		line := prog + " " + args
		cmd := exec.Command(comspec)
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + comspec + `" /d /s /c "@` + line + `"`}
		cmd.Env = append(os.Environ(), "NB_WINSHELL_ARGV=1", `USERPROFILE=C:\Users\me`)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		var got []string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %q: %v", line, out, err)
		}
		s := ParseCmd("@"+line, home)
		if len(s.Commands) == 0 {
			t.Fatalf("%s: no command", line)
		}
		var want []string
		for _, w := range s.Commands[0].Args() {
			want = append(want, w.Text)
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s:\n cmd.exe passes %q\n parser reads  %q", args, got, want)
		}
	}
}
