//go:build linux

package cmdbase

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestWritersAgainstRealPrograms runs split, csplit, script and unzip
// in a fresh directory holding an input file "in" and an archive "a.zip"
// (holding "z"): every entry they create lies at or below a target their
// Writes function names (split's and csplit's name a prefix).
func TestWritersAgainstRealPrograms(t *testing.T) {
	zip := testenv.Tool(t, "zip")
	for _, c := range []struct {
		writes func([]Word) (string, []Word)
		argv   []string
		prefix bool
	}{
		{splitWrites, []string{"split", "-l", "1", "in"}, true},
		{splitWrites, []string{"split", "-l", "1", "in", "part_"}, true},
		{splitWrites, []string{"split", "--lines=1", "in", "p2_"}, true},
		{csplitWrites, []string{"csplit", "-s", "in", "2"}, true},
		{csplitWrites, []string{"csplit", "-s", "-f", "q_", "in", "2"}, true},
		{csplitWrites, []string{"csplit", "-s", "--prefix=r_", "in", "2"}, true},
		{scriptWrites, []string{"script", "-q", "-c", "true"}, false},
		{scriptWrites, []string{"script", "-q", "-c", "true", "log.txt"}, false},
		{scriptWrites, []string{"script", "-q", "-O", "out.log", "-c", "true"}, false},
		{unzipWrites, []string{"unzip", "-q", "a.zip"}, false},
		{unzipWrites, []string{"unzip", "-q", "a.zip", "-d", "sub"}, false},
		{unzipWrites, []string{"unzip", "-q", "-dsub2", "a.zip"}, false},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "in"), []byte("1\n2\n3\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "z"), []byte("z\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mk := exec.Command(zip, "-q", "a.zip", "z")
		mk.Dir = dir
		if out, err := mk.CombinedOutput(); err != nil {
			t.Fatalf("zip: %v %s", err, out)
		}
		if err := os.Remove(filepath.Join(dir, "z")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(testenv.Tool(t, c.argv[0]), c.argv[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%q: %v %s", c.argv, err, out)
		}
		var ws []Word
		for _, a := range c.argv[1:] {
			ws = append(ws, Word{Text: a, Raw: a})
		}
		_, named := c.writes(ws)
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		created := 0
		for _, e := range ents {
			if e.Name() == "in" || e.Name() == "a.zip" {
				continue
			}
			created++
			ok := false
			for _, n := range named {
				ok = ok || n.Text == "." || e.Name() == n.Text || c.prefix && strings.HasPrefix(e.Name(), n.Text)
			}
			if !ok {
				t.Errorf("%q created %s; the reader named %q", c.argv, e.Name(), Texts(named))
			}
		}
		if created == 0 {
			t.Errorf("%q created nothing: the case tests nothing", c.argv)
		}
	}
}
