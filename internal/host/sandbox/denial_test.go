package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExplainLine(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, "sub"), filepath.Join(ws, ".git"), filepath.Join(home, ".ssh"), filepath.Join(home, ".config", "git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(home, ".ssh", "id"), "k")
	mustWrite(t, filepath.Join(home, ".config", "git", "ignore"), "i")
	mustWrite(t, filepath.Join(ws, ".env"), "e")
	mustWrite(t, filepath.Join(ws, "a.txt"), "a")
	ro := Layout{
		Hidden:  []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".config")},
		Visible: []string{filepath.Join(home, ".config", "git", "ignore")},
		Masked:  []string{filepath.Join(ws, ".env")},
	}
	rw := Layout{Writable: []string{ws}, ReadOnly: []string{filepath.Join(ws, ".git")}}
	cases := []struct {
		layout   Layout
		line     string
		landlock bool
		want     string // "" for not the sandbox's doing
	}{
		{ro, "cat: " + home + "/.ssh/id: Permission denied", false, "reading " + home + "/.ssh/id (hidden in the sandbox)"},
		{ro, "ls: cannot open directory '" + home + "/.ssh': Permission denied", false, "reading " + home + "/.ssh (hidden in the sandbox)"},
		{ro, "cat: .env: Permission denied", false, "reading " + ws + "/.env (hidden in the sandbox)"},
		{ro, "PermissionError: [Errno 13] Permission denied: '.env'", true, "reading " + ws + "/.env (hidden in the sandbox)"},
		{ro, "cat: " + home + "/.config/gh/hosts.yml: No such file or directory", false, ""}, // not there outside either
		{ro, "bash: line 1: a.txt: Read-only file system", false, "writing " + ws + "/a.txt (read-only in the sandbox)"},
		{ro, "touch: cannot touch ‘new.txt’: Read-only file system", false, "writing " + ws + "/new.txt (read-only in the sandbox)"},
		{ro, "bash: line 1: new.txt: Permission denied", true, "writing " + ws + "/new.txt (read-only in the sandbox)"},
		{ro, "open sub/x: permission denied", true, "writing " + ws + "/sub/x (read-only in the sandbox)"},
		{ro, "curl: (6) Could not resolve host: example.com", false, "the network (off in the sandbox)"},
		{ro, "bash: connect: Network is unreachable", false, "the network (off in the sandbox)"},
		{Layout{Network: true}, "bash: connect: Network is unreachable", false, ""},
		// Plain failures name nothing the sandbox did.
		{ro, "cat: missing.txt: No such file or directory", false, ""},
		{ro, "bash: line 1: ./script: Permission denied", false, ""}, // bubblewrap refuses writes as read-only
		{ro, "grep: warning: something else", false, ""},
		{ro, "ssh: Permission denied (publickey)", true, ""},
		{rw, "bash: line 1: sub/x: Permission denied", true, ""}, // writable in the layout
		{rw, "bash: .git/config: Permission denied", true, "writing " + ws + "/.git/config (read-only in the sandbox)"},
		{ro, "cat: " + home + "/.config/git/ignore: Permission denied", false, ""}, // visible: not the sandbox
	}
	for _, c := range cases {
		r, ok := explainLine(c.layout, c.line, ws, c.landlock)
		got := ""
		if ok {
			got = r.String()
		}
		if got != c.want {
			t.Errorf("%q (landlock %v): got %q, want %q", c.line, c.landlock, got, c.want)
		}
	}
}

// Lines are kept across write boundaries, bounded in number and length.
func TestDenialWriter(t *testing.T) {
	var out strings.Builder
	d := &denialWriter{w: &out}
	for _, chunk := range []string{"ok line\ncat: x: Perm", "ission denied\n", strings.Repeat("y", 5000) + " Read-only file system\n", "tail: Network is unreachable"} {
		if _, err := d.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	lines := d.seen()
	if len(lines) != 2 || lines[0] != "cat: x: Permission denied" || lines[1] != "tail: Network is unreachable" {
		t.Errorf("lines %q", lines)
	}
	if !strings.HasPrefix(out.String(), "ok line\ncat: x: Permission denied\n") {
		t.Errorf("output not passed through: %q", out.String()[:40])
	}
	for i := 0; i < 100; i++ {
		d.Write([]byte("x: Permission denied\n"))
	}
	if n := len(d.seen()); n != maxDenialLines {
		t.Errorf("%d lines kept", n)
	}
}
