package fsfacts_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
)

// TestSplitNamesOnDisk: with the real disk facts, readers fed names split
// at blanks are allowed in a plain tree and asked in one holding a
// directory named "a .." with a key below it (which xargs and bash's
// splitting turn into ../.ssh/id_rsa).
func TestSplitNamesOnDisk(t *testing.T) {
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	write := func(root, p string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	plain := filepath.Join(home, "plain")
	write(plain, "a.txt")
	write(plain, "src/b.go")
	hostile := filepath.Join(home, "hostile")
	write(hostile, "b.txt")
	write(hostile, "a ../notes.txt")
	cmds := []string{"find . -type f | xargs cat", `cat $(find . -name "*.go")`, "ls | xargs grep x", "ls *.txt | xargs -n1 head -1", "find src | xargs wc -c"}
	for _, cmd := range cmds {
		cc := policy.CommandContext{Cwd: plain, Home: home, Facts: fsfacts.Disk{Home: home}}
		if d := decide(e, cmd, cc); d.Decision != policy.Allow {
			t.Errorf("plain tree: %q: %v (%v)", cmd, d.Decision, d.Reasons)
		}
		cc.Cwd = hostile
		if d := decide(e, cmd, cc); d.Decision == policy.Allow && cmd != "find src | xargs wc -c" {
			t.Errorf("hostile tree: %q allowed", cmd)
		}
	}
}
