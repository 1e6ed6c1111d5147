//go:build unix

package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// TestHardLinks: read_file of a hard link of a secret file is asked (it
// is that secret, whatever its name), and so is one of a file with
// several hard links of unknown origin; a file with one link, and a
// read of the secret's sibling, are allowed as before.
func TestHardLinks(t *testing.T) {
	base := t.TempDir()
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, ".aws"), 0o700))
	must(t, os.MkdirAll(root, 0o755))
	creds := filepath.Join(home, ".aws", "credentials")
	must(t, os.WriteFile(creds, []byte("[default]\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(base, "elsewhere.txt"), []byte("x\n"), 0o600))
	must(t, os.Link(creds, filepath.Join(root, "notes.txt")))
	must(t, os.Link(filepath.Join(base, "elsewhere.txt"), filepath.Join(root, "copy.txt")))
	must(t, os.WriteFile(filepath.Join(root, "plain.txt"), []byte("plain\n"), 0o644))
	roots, err := NewRoots(root)
	must(t, err)
	defer roots.Close()
	tools := map[string]tool.Tool{}
	for _, tl := range New(Options{Roots: roots, Policy: tooltest.Engine(t, nil), Home: home}) {
		tools[tl.Spec().Name] = tl
	}
	at := tool.At{Cwd: roots.Dirs()[0]}
	for path, want := range map[string]struct {
		verdict policy.Verdict
		reason  string
	}{
		"notes.txt": {policy.Ask, "is another name of ~/.aws/credentials"},
		"copy.txt":  {policy.Ask, "several hard links"},
		"plain.txt": {policy.Allow, ""},
	} {
		d, _, _ := tooltest.Call(t, tools["read_file"], at, map[string]any{"path": path})
		if d == nil || d.Decision != want.verdict || !strings.Contains(strings.Join(d.Reasons, "; "), want.reason) {
			t.Errorf("read_file %s: %+v, want %s (%s)", path, d, want.verdict, want.reason)
		}
	}
}
