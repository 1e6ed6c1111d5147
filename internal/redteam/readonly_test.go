package redteam

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
)

// readLines reads a corpus of one command per line (# comments).
func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// TestReadOnlyCorpus holds nb to the approval-fatigue goal: of
// real-world commands that only read (testdata/readonly.txt), at least
// 90 % are allowed without asking, and of commands that write, delete,
// connect, run programs or show secrets (testdata/unsafe.txt), none is.
func TestReadOnlyCorpus(t *testing.T) {
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}}
	ro := readLines(t, "readonly.txt")
	if len(ro) < 300 {
		t.Fatalf("only %d read-only commands", len(ro))
	}
	allowed := 0
	for _, cmd := range ro {
		d := decide(e, cmd, cc)
		if d.Decision == policy.Allow {
			allowed++
		} else {
			t.Logf("asked: %s (%s)", cmd, strings.Join(d.Reasons, "; "))
		}
	}
	rate := float64(allowed) / float64(len(ro))
	t.Logf("%d of %d read-only commands allowed (%.1f %%)", allowed, len(ro), 100*rate)
	if rate < 0.90 {
		t.Errorf("only %.1f %% of read-only commands allowed, want at least 90 %%", 100*rate)
	}
	unsafe := readLines(t, "unsafe.txt")
	if len(unsafe) < 100 {
		t.Fatalf("only %d unsafe commands", len(unsafe))
	}
	for _, cmd := range unsafe {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			t.Errorf("unsafe command allowed: %q (%s)", cmd, d.DecidedBy)
		}
	}
}

// TestRealWorldReadOnly measures the commands an assistant runs to look
// around a real project, written as models write them
// (testdata/realworld.txt, every one read-only in intent): at least 90%
// allowed without asking.
func TestRealWorldReadOnly(t *testing.T) {
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}}
	cmds := readLines(t, "realworld.txt")
	allowed := 0
	for _, cmd := range cmds {
		if d := decide(e, cmd, cc); d.Decision == policy.Allow {
			allowed++
		} else {
			t.Logf("asked: %s (%s)", cmd, strings.Join(d.Reasons, "; "))
		}
	}
	rate := float64(allowed) / float64(len(cmds))
	t.Logf("%d of %d real-world read-only commands allowed (%.1f %%)", allowed, len(cmds), 100*rate)
	if rate < 0.90 {
		t.Errorf("only %.1f %% of the real-world read-only commands allowed, want at least 90 %%", 100*rate)
	}
}
