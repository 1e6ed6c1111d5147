package policy

import (
	"strings"
	"testing"
)

// heldOutReadAllowed is the share of the held-out read-only commands
// (testdata/windows_heldout.txt) that must be allowed, in percent.
const heldOutReadAllowed = 95

// TestWinHeldOut measures the engine on a set of PowerShell and cmd.exe
// commands written apart from the labelled suite: no writing, asked or
// outside-the-subset command is allowed, every dangerous one is warned
// with default No, and at least heldOutReadAllowed percent of the
// read-only ones are allowed. It runs natively and, in CI, under Wine.
func TestWinHeldOut(t *testing.T) {
	e := newEngine(t, nil)
	total := map[string]int{}
	good := map[string]int{}
	var misses []string
	for _, c := range loadWinSuite(t, "windows_heldout.txt") {
		n, label, cmd, sh := c.line, c.label, c.cmd, c.shell
		d := e.Decide(Action{Kind: RunCommand, Command: cmd, Where: winCC(sh)})
		total[label]++
		ok := false
		switch label {
		case "read":
			ok = d.Decision == Allow
			if !ok {
				misses = append(misses, sh.String()+" "+cmd+": "+strings.Join(d.Reasons, "; "))
			}
		case "write", "ask", "outside":
			ok = d.Decision != Allow
			if !ok {
				t.Errorf("line %d %s %q (%s) is allowed (%s)", n, sh, cmd, label, d.DecidedBy)
			}
		case "danger":
			ok = d.Decision == Ask && d.Warn && d.Safety == Dangerous && d.DefaultAnswer == No && !d.OfferAlways
			if !ok {
				t.Errorf("line %d %s %q: %s safety=%s warn=%v default=%s reasons=%q, want a dangerous warning",
					n, sh, cmd, d.Decision, d.Safety, d.Warn, d.DefaultAnswer, d.Reasons)
			}
		default:
			t.Fatalf("line %d: unknown label %q", n, label)
		}
		if ok {
			good[label]++
		}
	}
	if sum := total["read"] + total["write"] + total["danger"] + total["ask"] + total["outside"]; sum < 200 {
		t.Fatalf("the held-out set has %d commands, want at least 200", sum)
	}
	for _, l := range []string{"read", "write", "danger", "ask", "outside"} {
		t.Logf("%-8s %3d/%3d", l, good[l], total[l])
	}
	for _, m := range misses {
		t.Logf("read-only, not allowed: %s", m)
	}
	if pct := 100 * good["read"] / total["read"]; pct < heldOutReadAllowed {
		t.Errorf("%d%% of the read-only commands are allowed, want at least %d%%", pct, heldOutReadAllowed)
	}
}
