//go:build unix

package cmdbase

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestOpenSSLWritesAgainstRealOpenSSL: every spelling of -out that
// openssl itself takes names the file it writes to openSSLWrites.
func TestOpenSSLWritesAgainstRealOpenSSL(t *testing.T) {
	openssl := testenv.Tool(t, "openssl")
	for _, args := range [][]string{
		{"rand", "-out", "F", "4"}, {"rand", "--out", "F", "4"}, {"rand", "-out=F", "4"}, {"rand", "--out=F", "4"},
		{"rand", "-hex", "-out", "F", "4"},
	} {
		dir := t.TempDir()
		cmd := exec.Command(openssl, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("openssl %q: %v %s", args, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "F")); err != nil {
			t.Fatalf("openssl %q wrote no F: the case tests nothing", args)
		}
		var ws []Word
		for _, a := range args {
			ws = append(ws, Word{Text: a, Raw: a})
		}
		if _, named := openSSLWrites(ws); !slices.ContainsFunc(named, func(w Word) bool { return w.Text == "F" }) {
			t.Errorf("openssl %q writes F; openSSLWrites named %q", args, Texts(named))
		}
	}
}
