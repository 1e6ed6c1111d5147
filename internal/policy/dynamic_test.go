package policy

import "testing"

// TestDynamicCases pins the dynamic cases decided by rule: printing-only
// builtins, numeric special parameters as arguments.
func TestDynamicCases(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []struct {
		cmd   string
		allow bool
	}{
		// fc -l only lists the history; fc otherwise re-runs it
		{"fc -l", true}, {"fc -ln -10", true}, {"fc -lr 5 10", true},
		{"fc", false}, {"fc -s", false}, {"fc -e vi -l", false}, {"fc -l -e ed", false}, {"fc -n", false},
		{"shopt", true}, {"shopt -p", true}, {"shopt extglob", true}, {"shopt -s extglob", false},
		{"help", true}, {"help cd", true}, {"set -o", true}, {"alias", true}, {"type ls", true}, {"command -v ls", true},
		// numeric special parameters are numbers, never options
		{"ps -p $$", true}, {`ps -o pid,comm -p "$PPID"`, true}, {"ps -p ${$}", true}, {"pgrep -P $$", true},
		{"ps -p $X", false}, {`ps -p "$X"`, false}, {"ps -p $$$X", false}, {"ps -p $(id -u)", false},
		// an unknown file may be a secret: readers still ask
		{"cat $$", false}, {`sort "$FILE"`, false}, {"sort $FILE", false}, {"cat $HOME_KEY", false},
	} {
		if d := e.Command(c.cmd, testCC); (d.Decision == Allow) != c.allow {
			t.Errorf("%q: %v (%v), want allow=%v", c.cmd, d.Decision, d.Reasons, c.allow)
		}
	}
	// an interactive shell's history holds what was typed
	if d := e.command("fc -l", testCC, true); d.Decision == Allow {
		t.Errorf("fc -l in an interactive shell allowed")
	}
}
