package ptysession

import (
	"bytes"
	"strings"
	"testing"
)

func TestCleanText(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"plain\r\nlines\r\n", "plain\nlines\n"},
		{"\x1b[?2004hroot@box:/tmp# \x1b[?2004l\r", "root@box:/tmp# "},
		{"\x1b[1;32mgreen\x1b[0m text", "green text"},
		{"\x1b]0;title\x07after", "after"},
		{"progress 10%\rprogress 55%\rprogress 100%\r\ndone", "progress 100%\ndone"},
		{"abc\rxy", "xyc"},
		{"typo\b\b  \b\bo!", "tyo!"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"tab\there", "tab\there"},
	} {
		if got := cleanText([]byte(tc.raw)); got != tc.want {
			t.Errorf("cleanText(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestIsPrompt(t *testing.T) {
	prompts := []string{
		"user@host:~/src$ ", "root@box:/# ", "% ", "> ", ">>> ", "... ", "In [3]: ",
		"(Pdb) ", "irb(main):001:0> ", "irb> ", "sqlite> ", "Continue? [y/N] ",
		"Proceed ([y]/n)? [Y/n] ", "Are you sure you want to continue connecting (yes/no/[fingerprint])? ",
		"Password:", "[sudo] password for dev: ", "Enter passphrase for key '/root/.ssh/id': ",
	}
	for _, p := range prompts {
		if !isPrompt(p) {
			t.Errorf("%q not seen as a prompt", p)
		}
	}
	others := []string{"", "   ", "GET /index 200", "Compiling...", "total: 5$", "value > 3", "Listening on :3000"}
	for _, p := range others {
		if isPrompt(p) {
			t.Errorf("%q seen as a prompt", p)
		}
	}
}

func TestRing(t *testing.T) {
	r := newRing(1024)
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 16) // 256 bytes
	for range 4 {
		r.write(chunk)
	}
	if data, lost := r.read(0); lost != 0 || len(data) != 1024 || r.end() != 1024 {
		t.Fatalf("full ring: %d bytes, lost %d, end %d", len(data), lost, r.end())
	}
	r.write([]byte("XYZ"))
	data, lost := r.read(0)
	if lost == 0 || int64(len(data))+lost != 1027 || !bytes.HasSuffix(data, []byte("XYZ")) || len(data) > 1024 {
		t.Fatalf("after overflow: %d bytes, lost %d", len(data), lost)
	}
	if data, lost := r.read(1024); lost != 0 || string(data) != "XYZ" {
		t.Fatalf("read from 1024: %q lost %d", data, lost)
	}
	if data, _ := r.read(1027); data != nil {
		t.Fatalf("read at end: %q", data)
	}
	big := bytes.Repeat([]byte("x"), 5000)
	r.write(big)
	if data, lost := r.read(0); len(data) != 1024 || lost != 6027-1024 || r.end() != 6027 {
		t.Fatalf("huge write: %d bytes, lost %d, end %d", len(data), lost, r.end())
	}
	if got := string(r.tail(6020, 4)); got != "xxxx" {
		t.Fatalf("tail: %q", got)
	}
}

func TestProgramOf(t *testing.T) {
	for _, tc := range []struct {
		cmd     string
		program string
		shell   bool
	}{
		{"bash", "bash", true},
		{"/bin/bash --norc -i", "bash", true},
		{"env FOO=1 zsh -l", "zsh", true},
		{"exec sh", "sh", true},
		{"LANG=C bash", "bash", true},
		{"bash -c 'python3'", "bash", false},
		{"bash -lc ls", "bash", false},
		{"bash script.sh", "bash", false},
		{"python3", "python3", false},
		{"npm run dev", "npm", false},
		{"bash; python3", "bash", false},
		{"$SHELL", "$SHELL", false},
		{"bash > /tmp/x", "bash", false},
		{"env -S 'bash -i'", "env", false},
	} {
		p, sh := programOf(tc.cmd)
		if p != tc.program || sh != tc.shell {
			t.Errorf("programOf(%q) = %q, %v; want %q, %v", tc.cmd, p, sh, tc.program, tc.shell)
		}
	}
}

func TestLimitText(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString(strings.Repeat("x", 10) + string(rune('a'+i%26)) + "\n")
	}
	got := limitText(b.String())
	if len(got) > maxTextBytes+100 || !strings.Contains(got, "lines omitted") {
		t.Fatalf("limited text: %d bytes", len(got))
	}
	if s := "short\ntext"; limitText(s) != s {
		t.Fatal("short text changed")
	}
}

// cmd.exe and PowerShell started without a command are interactive
// shells: what is typed into them is a command line.
func TestWinShellSessions(t *testing.T) {
	for _, c := range []struct {
		command, program string
		shell            bool
	}{
		{"cmd", "cmd", true}, {"cmd.exe /q", "cmd", true}, {"CMD.EXE", "cmd", true}, {"cmd /c dir", "cmd", false},
		{"cmd /k dir", "cmd", false}, {"powershell", "powershell", true}, {"powershell -NoLogo -NoProfile", "powershell", true},
		{"pwsh -nop", "pwsh", true}, {"powershell -Command Get-Date", "powershell", false}, {"pwsh -c ls", "pwsh", false},
		{"powershell -File x.ps1", "powershell", false}, {"powershell -enc AAAA", "powershell", false},
		{"powershell -ExecutionPolicy Bypass", "powershell", false},
	} {
		p, sh := ProgramOf(c.command)
		if p != c.program || sh != c.shell {
			t.Errorf("%q: %q %v, want %q %v", c.command, p, sh, c.program, c.shell)
		}
	}
}
