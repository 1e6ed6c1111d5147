//go:build unix

package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinksToSecretsNotRead: an instruction file that is a symbolic link
// to a secret file, or a hard link of one, is not read, and the warning
// names the secret; a hard link of unknown origin is not read either,
// unless it is linked with its sibling (CLAUDE.md to AGENTS.md); a
// symbolic link to another instruction file is read.
func TestLinksToSecretsNotRead(t *testing.T) {
	home := t.TempDir()
	creds := filepath.Join(home, ".aws", "credentials")
	write(t, creds, "[default]\naws_secret_access_key = x\n")
	outside := filepath.Join(t.TempDir(), "notes.txt")
	write(t, outside, "notes")
	for _, c := range []struct {
		name string
		make func(dir string) error
		read bool
		warn string
	}{
		{"symlink to a secret", func(d string) error { return os.Symlink(creds, filepath.Join(d, FileName)) }, false, "another name of ~/.aws/credentials"},
		{"hard link of a secret", func(d string) error { return os.Link(creds, filepath.Join(d, "CLAUDE.md")) }, false, "another name of ~/.aws/credentials"},
		{"GEMINI.md, a hard link of a secret", func(d string) error { return os.Link(creds, filepath.Join(d, "GEMINI.md")) }, false, "another name of ~/.aws/credentials"},
		{"GEMINI.md, a symlink to a secret", func(d string) error { return os.Symlink(creds, filepath.Join(d, "GEMINI.md")) }, false, "another name of ~/.aws/credentials"},
		{"hard link of unknown origin", func(d string) error { return os.Link(outside, filepath.Join(d, FileName)) }, false, "several hard links"},
		{"hard link with its sibling", func(d string) error {
			write(t, filepath.Join(d, FileName), "use tabs")
			return os.Link(filepath.Join(d, FileName), filepath.Join(d, "CLAUDE.md"))
		}, true, ""},
		{"symlink to a sibling", func(d string) error {
			write(t, filepath.Join(d, "CLAUDE.md"), "use tabs")
			return os.Symlink("CLAUDE.md", filepath.Join(d, FileName))
		}, true, ""},
	} {
		dir := t.TempDir()
		if err := c.make(dir); err != nil {
			t.Fatal(err)
		}
		files, warnings := Find(dir, "", home, DefaultMaxBytes)
		if got := len(files) == 1; got != c.read {
			t.Errorf("%s: read %v (%v), want %v", c.name, got, paths(files), c.read)
		}
		if c.warn != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], c.warn)) {
			t.Errorf("%s: warnings %q, want %q", c.name, warnings, c.warn)
		}
		for _, f := range files {
			if strings.Contains(f.Text, "aws_secret") {
				t.Errorf("%s: the secret was read", c.name)
			}
		}
	}
}
