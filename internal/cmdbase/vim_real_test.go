//go:build unix

package cmdbase_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestVimCommandsAgainstRealVim: every spelling by which the real vim
// takes editor commands, and so runs a program or writes a file, is
// warned of; a line number is not a command.
func TestVimCommandsAgainstRealVim(t *testing.T) {
	vim := testenv.Tool(t, "vim")
	e := newEngine(t)
	for _, c := range []struct {
		args   []string
		effect bool
	}{
		{[]string{"-c", "!touch C"}, true},
		{[]string{"-c!touch C"}, true},
		{[]string{"-Nc", "!touch C"}, true},
		{[]string{"+!touch C"}, true},
		{[]string{"+w C"}, true},
		{[]string{"--cmd", "!touch C"}, true},
		{[]string{"-c", "w C"}, true},
		{[]string{"-S", "s.vim"}, true},
		{[]string{"+10"}, false},
		{[]string{"+"}, false},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "s.vim"), []byte("!touch C\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte("text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// silent ex mode, no vimrc, no viminfo: what the spelling does,
		// then quit
		args := append(append([]string{"-N", "-u", "NONE", "-i", "NONE", "-es"}, c.args...), "-c", "qa!", "f")
		cmd := exec.Command(vim, args...)
		cmd.Dir = dir
		_, _ = cmd.CombinedOutput() // ex mode's status says little; what it did is what counts
		_, err := os.Stat(filepath.Join(dir, "C"))
		if did := err == nil; did != c.effect {
			t.Fatalf("vim %q: made C %v, want %v: the case tests nothing", c.args, did, c.effect)
		}
		line := "vim"
		for _, a := range c.args {
			line += " '" + a + "'"
		}
		line += " f"
		if d := decideCmd(e, line, testCC); d.Warn != c.effect {
			t.Errorf("%s: vim made C %v; nb warned %v (%+v)", line, c.effect, d.Warn, d)
		}
		if strings.HasPrefix(c.args[0], "-c") || strings.HasPrefix(c.args[0], "+") {
			for _, name := range []string{"vi", "ex", "view", "nvim"} {
				l := name + strings.TrimPrefix(line, "vim")
				if d := decideCmd(e, l, testCC); d.Warn != c.effect {
					t.Errorf("%s: nb warned %v, want %v as for vim", l, d.Warn, c.effect)
				}
			}
		}
	}
}
