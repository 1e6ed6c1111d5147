package policy

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// winCC is where the Windows suite's commands run.
func winCC(sh sysinfo.ShellKind) CommandContext {
	return CommandContext{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`, Shell: sh, Facts: NoFacts{}}
}

type winCase struct {
	shell sysinfo.ShellKind
	label string
	cmd   string
	line  int
}

func loadWinSuite(t *testing.T) []winCase {
	t.Helper()
	f, err := os.Open("testdata/windows_commands.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []winCase
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		sh, rest, _ := strings.Cut(line, " ")
		label, cmd, _ := strings.Cut(rest, " ")
		k := sysinfo.ShellCmd
		if sh == "ps" {
			k = sysinfo.ShellPowerShell
		}
		out = append(out, winCase{k, label, cmd, n})
	}
	return out
}

// TestWinCommandSuite runs the labelled PowerShell and cmd.exe commands
// (read-only, writing, dangerous, asked, outside the subset) through
// Decide, natively and, in CI, under Wine.
func TestWinCommandSuite(t *testing.T) {
	e := newEngine(t, nil)
	cases := loadWinSuite(t)
	if len(cases) < 150 {
		t.Fatalf("the suite has %d commands, want at least 150", len(cases))
	}
	for _, c := range cases {
		d := e.Decide(Action{Kind: RunCommand, Command: c.cmd, Where: winCC(c.shell)})
		bad := ""
		switch c.label {
		case "allow":
			if d.Decision != Allow {
				bad = "want allow"
			}
		case "write":
			if d.Decision != Ask || !d.Warn || d.Safety == Dangerous || d.DefaultAnswer != No || d.OfferAlways {
				bad = "want ask, warned, not dangerous, default No, no Always"
			}
		case "danger":
			if d.Decision != Ask || !d.Warn || d.Safety != Dangerous || d.DefaultAnswer != No || d.OfferAlways || !strings.Contains(d.Display, "⚠️") {
				bad = "want ask, dangerous, ⚠️, default No, no Always"
			}
		case "ask":
			if d.Decision != Ask || d.Safety == Dangerous {
				bad = "want ask, not dangerous"
			}
		case "outside":
			if d.Decision != Ask || !strings.Contains(strings.Join(d.Reasons, "\n"), "outside the plain") || d.OfferAlways {
				bad = "want ask, outside the subset, no Always"
			}
		default:
			t.Fatalf("line %d: unknown label %q", c.line, c.label)
		}
		if bad != "" {
			t.Errorf("line %d %s %q: %s safety=%s warn=%v default=%s always=%v display=%q reasons=%q: %s",
				c.line, c.shell, c.cmd, d.Decision, d.Safety, d.Warn, d.DefaultAnswer, d.OfferAlways, d.Display, d.Reasons, bad)
		}
	}
}
