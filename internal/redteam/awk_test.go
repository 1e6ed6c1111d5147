package redteam

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// awkPrograms mixes programs that only print with programs that write a
// file in ways a naive reading misses.
var awkPrograms = []string{
	`$1 > 1`, `{ print ($1 > 1) }`, `{ if ($1 > 1) print "big" }`, `{ print "a\tb > c" }`, `{ print "\x3e" }`,
	`{ if ($1) /foo/ ~ $0; print }`, `{ x = $1 / 2 / 1; print x }`, `/"/ { print }`, `{ print $1 || 0 }`,
	`{ if ($1) /"/; print > "f1"; x = /"/ }`, `{ print $1 > 3 ? "f2" : "f3" }`, `{ print ($1) > "f4" }`,
	`{ printf "%s", $1 >> "f5" }`, `{ x = length /"/; print > "f6"; y = /"/ }`, `/[/]/ { print > "f7" }`,
	`{ print | "cat > f8" }`, `{ system("touch f9") }`, `{ print > "/dev/stdout" }`,
}

// TestAwkAgainstRealAwk runs every awk program the policy allows under
// each awk installed and checks that none created a file.
func TestAwkAgainstRealAwk(t *testing.T) {
	var awks []string
	for _, n := range []string{"mawk", "gawk", "original-awk", "busybox"} {
		if p, err := exec.LookPath(n); err == nil {
			awks = append(awks, p)
		}
	}
	if len(awks) == 0 {
		testenv.Missing(t, "no awk installed")
	}
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		t.Fatal(err)
	}
	allowed := 0
	for _, prog := range awkPrograms {
		cmd := "awk '" + prog + "' in"
		d := decide(e, cmd, policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}})
		if d.Decision != policy.Allow {
			continue
		}
		allowed++
		for _, awk := range awks {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "in"), []byte("5 x\n0 y\n"), 0o644)
			args := []string{prog, "in"}
			if filepath.Base(awk) == "busybox" {
				args = append([]string{"awk"}, args...)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			c := exec.CommandContext(ctx, awk, args...)
			c.Dir = dir
			c.Run()
			cancel()
			ents, _ := os.ReadDir(dir)
			if len(ents) != 1 {
				t.Errorf("%s %q is allowed and created files: %v", awk, prog, ents)
			}
		}
	}
	if allowed < 8 {
		t.Fatalf("only %d programs allowed: the test proves little", allowed)
	}
}
