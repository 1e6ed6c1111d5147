package redteam

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
)

// TestExplain prints the engine's full decision for the commands in
// NB_REDTEAM_EXPLAIN (one per line; optional leading "approve=PATTERN|"
// parts). It is a tool for reading the engine, not a check.
func TestExplain(t *testing.T) {
	src := os.Getenv("NB_REDTEAM_EXPLAIN")
	if src == "" {
		t.Skip("set NB_REDTEAM_EXPLAIN")
	}
	for _, line := range strings.Split(src, "\n") {
		if line == "" {
			continue
		}
		c := &corpusCase{command: line}
		for {
			rest, ok := strings.CutPrefix(c.command, "approve=")
			if !ok {
				break
			}
			pat, cmd, _ := strings.Cut(rest, "|")
			c.approve = append(c.approve, pat)
			c.command = cmd
		}
		e, err := newEngine(c)
		if err != nil {
			t.Logf("%q: %v", line, err)
			continue
		}
		d := decide(e, c.command, policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}})
		j, _ := json.Marshal(d)
		t.Logf("%q approve=%q\n  %s\n  rule=%q by=%s remedy=%q", c.command, c.approve, j, d.Rule, d.DecidedBy, d.Remedy)
	}
}
