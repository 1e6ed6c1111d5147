//go:build !windows

package fsfacts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
)

// A hard link of a secret file under a harmless name is that secret: a
// file with several names is no proof of safety for a read allowed only
// by its name, in run_cmd and in the file tools (decided as cat).
func TestHardLinkedFiles(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	os.MkdirAll(filepath.Join(home, ".aws"), 0o700)
	os.MkdirAll(proj, 0o755)
	secret := filepath.Join(home, ".aws", "credentials")
	if err := os.WriteFile(secret, []byte("[default]\nregion = eu-west-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(secret, filepath.Join(proj, "notes.txt")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	// documentation is no exception: a README that is the secret under
	// another name is the secret
	if err := os.Link(secret, filepath.Join(proj, "README.md")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	os.WriteFile(key, []byte("x\n"), 0o600)
	if err := os.Link(key, filepath.Join(home, ".ssh", "README")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(proj, "plain.txt"), []byte("hello\n"), 0o644)
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: proj, Home: home, Facts: fsfacts.Disk{Home: home}}
	for _, cmd := range []string{"cat notes.txt", "head -n 5 notes.txt", "grep key notes.txt", "cat ./notes.txt plain.txt", "cat README.md", "cat ~/.ssh/README"} {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("%q (a hard link of ~/.aws/credentials): allowed", cmd)
		}
	}
	read := e.Decide(policy.Action{Kind: policy.ReadFile, Path: filepath.Join(proj, "notes.txt"), Shown: "notes.txt", Where: cc})
	if read.Decision == policy.Allow {
		t.Error("read_file of a hard link of a secret: allowed")
	}
	// the reason names the secret; a file whose other names are not
	// known says so
	if d := decide(e, "cat notes.txt", cc); !strings.Contains(strings.Join(d.Reasons, "\n"), "is another name of ~/.aws/credentials") {
		t.Errorf("cat notes.txt: reasons %q do not name the secret", d.Reasons)
	}
	os.WriteFile(filepath.Join(home, "elsewhere.txt"), []byte("x\n"), 0o644)
	if err := os.Link(filepath.Join(home, "elsewhere.txt"), filepath.Join(proj, "copy.txt")); err != nil {
		t.Fatal(err)
	}
	if d := decide(e, "cat copy.txt", cc); d.Decision == policy.Allow || !strings.Contains(strings.Join(d.Reasons, "\n"), "several hard links") {
		t.Errorf("cat copy.txt (several links, other names unknown): %s %q", d.Decision, d.Reasons)
	}
	if d := decide(e, "cat plain.txt", cc); d.Decision != policy.Allow {
		t.Errorf("cat plain.txt: %s %q", d.Decision, d.Reasons)
	}
}
