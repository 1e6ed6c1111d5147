package cmdbase_test

import (
	"testing"

	"github.com/nb-cli/nb/internal/policy"
)

func TestAwkCommands(t *testing.T) {
	e := newEngine(t)
	for _, cmd := range []string{`awk '$3 > 100' data.txt`, `awk '{print "a\tb"}' f`, `ps aux | awk '$3 > 50 {print $2}'`,
		`awk -F: '{print $1}' /etc/passwd`, `awk -v n=3 'NR <= n' f`} {
		if d := decideCmd(e, cmd, testCC); d.Decision != policy.Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	for _, cmd := range []string{`awk '{print > "x"}' f`, `awk -f prog.awk f`, `awk '{print}' /etc/shadow`, `awk "$prog" f`} {
		if d := decideCmd(e, cmd, testCC); d.Decision == policy.Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
}
