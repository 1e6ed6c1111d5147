//go:build unix

package cmdbase

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestPerlWritesAgainstRealPerl holds perlWrites against perl itself:
// argument lists made of perl's options (-i alone, with a backup
// extension, in clusters, after -e), programs and the files f and g are
// run in a fresh directory, and every file perl changed must be one
// perlWrites names.
func TestPerlWritesAgainstRealPerl(t *testing.T) {
	perl := testenv.Tool(t, "perl")
	opts := [][]string{{"-i"}, {"-i.bak"}, {"-pi"}, {"-pi.orig"}, {"-p"}, {"-n"}, {"-l"}, {"-w"}, {"-0777"}, {"-Mstrict"}, {"-pie"}, {"-lpi"}, {"-0pi"}, {"-l015pi"}, {"-0777pi.bak"}, {"-nli"}}
	progs := [][]string{{"-e", "s/a/b/"}, {"-pe", "s/a/b/"}, {"-ne", "s/a/b/; print"}, {"-E", "s/a/b/"}, {"-pe", "s/a/b/", "-i"}}
	files := [][]string{{"f"}, {"g"}, {"--", "f"}, {"f", "g"}}
	n, rng := generated(400, 5, "NB_PERL")
	checked := 0
	for range n {
		var args []string
		for k := rng.Intn(3); k > 0; k-- {
			args = append(args, opts[rng.Intn(len(opts))]...)
		}
		args = append(args, progs[rng.Intn(len(progs))]...)
		for k := rng.Intn(2); k > 0; k-- {
			args = append(args, opts[rng.Intn(len(opts))]...)
		}
		args = append(args, files[rng.Intn(len(files))]...)
		dir := t.TempDir()
		for _, name := range []string{"f", "g"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(perl, args...)
		cmd.Dir, cmd.Stdin = dir, strings.NewReader("")
		_ = cmd.Run()
		var ws []Word
		for _, a := range args {
			ws = append(ws, Word{Text: a, Raw: a})
		}
		_, named := perlWrites(ws)
		for _, name := range []string{"f", "g"} {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err == nil && string(got) == "a\n" {
				continue
			}
			checked++
			if !slices.ContainsFunc(named, func(w Word) bool { return w.Text == name }) {
				t.Errorf("perl %q changed %s; perlWrites named %q", args, name, Texts(named))
			}
		}
	}
	t.Logf("%d argument lists, %d changes by perl checked", n, checked)
	if checked < n/20 {
		t.Errorf("only %d changes checked: the run tests little", checked)
	}
}
