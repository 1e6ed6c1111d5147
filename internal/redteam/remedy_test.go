package redteam

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/shellparse"
)

// TestHeadlessRemedy: a headless refusal tells the human how to let the
// command run ("re-run with --approve '…'"). People paste that line into a
// shell, so it must be one plain command with literal words, and the rules
// it proposes must not be broader than the refused command.
func TestHeadlessRemedy(t *testing.T) {
	opts := policy.OptionsFromConfig(config.Default())
	opts.Headless = true
	e, err := policy.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}}
	stuck := 0
	for _, c := range loadCorpus(t) {
		if len(c.approve) > 0 || len(c.deny) > 0 || c.nosafe {
			continue
		}
		d := decide(e, c.command, cc)
		if d.Decision == policy.Ask {
			reportBypass(t, "remedy:"+c.command, fmt.Sprintf("DEFECT: %s: headless engine answered ask", c))
		}
		if d.Decision != policy.Deny {
			continue
		}
		if d.Remedy == "" {
			reportBypass(t, "remedy:"+c.command, fmt.Sprintf("DEFECT: %s: headless refusal without a remedy for the human", c))
			continue
		}
		for _, r := range d.Remedy {
			if r != '\n' && hiddenRune(r) {
				reportBypass(t, "remedy:"+c.command, fmt.Sprintf("BYPASS (remedy carries raw %U to the terminal): %s: %q", r, c, d.Remedy))
				break
			}
		}
		rest, ok := strings.CutPrefix(d.Remedy, "re-run with ")
		if !ok {
			continue
		}
		a := shellparse.Analyse("nb "+rest, shellparse.Options{Home: testHome, Programs: cmdbase.Programs{}})
		if a.Err != nil || len(a.Unknown) > 0 || len(a.Leaves) != 1 || len(a.Redirs) != 0 {
			reportBypass(t, "remedy:"+c.command, "BYPASS (remedy is not one plain command): "+c.String()+": "+d.Remedy)
			continue
		}
		var rules []string
		ws := a.Leaves[0].Words
		for i, w := range ws {
			if !w.Static() {
				reportBypass(t, "remedy:"+c.command, "BYPASS (remedy expands at paste time): "+c.String()+": "+d.Remedy)
			}
			if w.Text == "--approve" && i+1 < len(ws) {
				rules = append(rules, ws[i+1].Text)
			}
		}
		if len(rules) == 0 {
			reportBypass(t, "remedy:"+c.command, fmt.Sprintf("DEFECT: %s: remedy %q proposes no --approve", c, d.Remedy))
			continue
		}
		// With the proposed rules the command runs; nothing dangerous
		// beyond it does.
		o2 := policy.OptionsFromConfig(config.Default())
		o2.Headless = true
		o2.Approve = rules
		e2, err := policy.New(o2)
		if err != nil {
			reportBypass(t, "remedy:"+c.command, fmt.Sprintf("DEFECT: %s: remedy rules %q do not parse: %v", c, rules, err))
			continue
		}
		if d2 := decide(e2, c.command, cc); d2.Decision != policy.Allow {
			stuck++
			if stuck <= 5 {
				t.Logf("usability: %s: following the remedy %q still gives %s", c, d.Remedy, d2.Decision)
			}
		}
		for _, later := range []string{"rm -rf ~", "curl x | sh", "echo x > ~/.bashrc", "cat ~/.ssh/id_rsa"} {
			if strings.Contains(c.command, strings.Fields(later)[0]) || runs(c.command, strings.Fields(later)[0]) {
				continue
			}
			if d3 := decide(e2, later, cc); d3.Decision == policy.Allow {
				reportBypass(t, "remedy:"+c.command, "BYPASS (remedy too broad): "+c.String()+": "+d.Remedy+" also allows "+later)
			}
		}
	}
	if stuck > 0 {
		t.Logf("usability: %d refusals whose remedy does not make the command run", stuck)
	}
}

// runs reports whether the analyser finds a command named name in cmd.
func runs(cmd, name string) bool {
	for _, l := range shellparse.Analyse(cmd, shellparse.Options{Home: testHome, Programs: cmdbase.Programs{}}).Leaves {
		if l.Base() == name {
			return true
		}
	}
	return false
}
