package cmdbase_test

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
)

// TestSedThroughWrappers: the same analysis reaches sed run by the
// commands that run others (timeout, env, nice, xargs, find -exec, a
// shell's -c).
func TestSedThroughWrappers(t *testing.T) {
	e := newEngine(t)
	cc := policy.CommandContext{Cwd: "/home/u/proj", Home: "/home/u", Facts: policy.NoFacts{}}
	for _, script := range []string{":x e", ":x w /home/u/.bashrc_x", ":x r /home/u/.aws/credentials"} {
		q := "'" + script + "'"
		for _, cmd := range []string{
			"sed -n " + q + " f", "timeout 5 sed -n " + q + " f", "env sed -n " + q + " f",
			"nice -n 5 sed -n " + q + " f", "find . -name '*.txt' -exec sed -n " + q + " {} +",
			"bash -c \"sed -n " + q + " f\"", "echo f | xargs sed -n " + q, "sed -n -e :x -e 'e id' f",
		} {
			if d := decideCmd(e, cmd, cc); d.Decision == policy.Allow {
				t.Errorf("%q allowed", cmd)
			}
		}
	}
	// typed into a shell session, and through Decide as run_cmd
	for _, in := range []string{"sed -n ':x e' f\n", "sed -n ':x w /tmp/canary' f\n"} {
		if d := e.Decide(policy.Action{Kind: policy.SessionInput, Session: "term-1", Program: "bash", InShell: true, SessionProgram: "bash", Input: in, Where: cc}); d.Decision == policy.Allow {
			t.Errorf("session input %q allowed", in)
		}
		if d := e.Decide(policy.Action{Kind: policy.RunCommand, Command: strings.TrimSpace(in), Where: cc}); d.Decision == policy.Allow {
			t.Errorf("run_cmd %q allowed", in)
		}
	}
	for _, cmd := range []string{"sed -n 1,5p f", "timeout 5 sed -n 's/a/b/p' f", "env sed ':a;N;$!ba;s/\\n/ /g' f"} {
		if d := decideCmd(e, cmd, cc); d.Decision != policy.Allow {
			t.Errorf("%q not allowed: %v", cmd, d.Reasons)
		}
	}
}
