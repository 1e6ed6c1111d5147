package shwrap

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func TestQuoteThroughShell(t *testing.T) {
	for _, s := range []string{"", "plain", "it's", "'", "''", `a\b`, "$HOME `x` $(y) \"q\"", "multi\nline\n", "\x1e\t*?[]"} {
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("%q came back as %q (%v)", s, out, err)
		}
	}
}

func TestCommandLineRunsIntact(t *testing.T) {
	script := `printf '%s|' "$X" 'it'\''s' "$0"; cd /; exit 3`
	for _, shell := range []string{"", "/bin/sh", "bash"} {
		line, err := CommandLine(shell, "nbm", "/tmp", script, []string{"X=a 'b' $c"}, true, "")
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		cmd := exec.Command("sh", "-c", line)
		f := NewFilter(&errb, "nbm")
		cmd.Stdout, cmd.Stderr = &out, f
		err = cmd.Run()
		f.Flush()
		pid, exited, code, cwd := f.State()
		if out.String() != "a 'b' $c|it's|nbm|" || errb.Len() != 0 || !exited || code != 3 || cwd != "/" || pid <= 0 || err == nil {
			t.Errorf("shell %q: out %q err %q state %d %v %d %q", shell, out.String(), errb.String(), pid, exited, code, cwd)
		}
	}
	if _, err := CommandLine("", "m", "/", "true", []string{"BAD KEY=1"}, false, ""); err == nil {
		t.Error("bad env key accepted")
	}
}

func TestFilterChunking(t *testing.T) {
	in := "a\x1eb\x1enbQ\x1e" + "\x1enbmP42\x1e" + "text\x1enb" + "\x1enbmC7:/x y\x1e" + "tail\x1e"
	for size := 1; size <= len(in); size++ {
		var out bytes.Buffer
		f := NewFilter(&out, "nbm")
		for i := 0; i < len(in); i += size {
			j := min(i+size, len(in))
			if _, err := f.Write([]byte(in[i:j])); err != nil {
				t.Fatal(err)
			}
		}
		f.Flush()
		pid, exited, code, cwd := f.State()
		want := "a\x1eb\x1enbQ\x1etext\x1enbtail\x1e"
		if out.String() != want || pid != 42 || !exited || code != 7 || cwd != "/x y" {
			t.Fatalf("chunk %d: out %q state %d %v %d %q", size, out.String(), pid, exited, code, cwd)
		}
	}
}

func FuzzFilterPassesData(f *testing.F) {
	f.Add([]byte("hello\x1eworld"), 3)
	f.Add([]byte("\x1enb\x1e"), 1)
	f.Fuzz(func(t *testing.T, data []byte, size int) {
		if size <= 0 || size > 64 || bytes.Contains(data, []byte("\x1enbm")) {
			return
		}
		var out bytes.Buffer
		flt := NewFilter(&out, "nbm")
		for i := 0; i < len(data); i += size {
			flt.Write(data[i:min(i+size, len(data))])
		}
		flt.Flush()
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("%q became %q", data, out.Bytes())
		}
	})
}

func TestParseProbe(t *testing.T) {
	out := "kernel=Linux\nrelease=6.1\narch=x86_64\ndistro=Debian GNU/Linux 12 (bookworm)\nuser=me\nhome=/home/me\nshell=/bin/zsh\nbash=/usr/bin/bash\ncase=1\ntool git /usr/bin/git\n"
	i := ParseProbe(out, []string{"git", "node"})
	if i.OS != "Linux (Debian GNU/Linux 12 (bookworm))" || i.Shell != "bash" || i.User != "me" || !i.CaseSensitive ||
		strings.Join(i.Present, ",") != "git" || strings.Join(i.Missing, ",") != "node" {
		t.Errorf("%+v", i)
	}
}

func TestSudoPreludeReportsRefusal(t *testing.T) {
	// A stand-in sudo on PATH: it accepts the line "yes" and nothing else,
	// as `sudo -S -v` reads its password from standard input.
	dir := t.TempDir()
	fake := "#!/bin/sh\nIFS= read -r pw; [ \"$pw\" = yes ]\n"
	if err := exec.Command("sh", "-c", "printf %s "+Quote(fake)+" > "+Quote(dir+"/sudo")+" && chmod +x "+Quote(dir+"/sudo")).Run(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		input   string
		refused bool
		out     string
	}{{"yes\n", false, "ran:"}, {"no\n", true, ""}} {
		line, err := CommandLine("/bin/sh", "nbm", "/", `echo "ran:$(cat)"`, []string{"PATH=" + dir + ":/usr/bin:/bin"}, true, SudoPrelude)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		cmd := exec.Command("sh", "-c", line)
		f := NewFilter(&errb, "nbm")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(c.input), &out, f
		cmd.Run()
		f.Flush()
		// the script never reads what the prelude was given
		if f.SudoRefused() != c.refused || strings.TrimSpace(out.String()) != c.out {
			t.Errorf("input %q: refused %v, out %q, stderr %q", c.input, f.SudoRefused(), out.String(), errb.String())
		}
	}
}
