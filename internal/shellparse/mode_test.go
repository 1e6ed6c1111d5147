package shellparse

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// Shell options that make bash read later words otherwise (set -k: a
// NAME=value word after the command name is its environment; set -H and
// history: !! brings back earlier text) leave the analysis unknown: a
// command after them must not be judged as in bash's default mode. Real
// bash shows the difference the analysis would otherwise miss.
func TestReadingModeOptions(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	// set -k: the word reaches the command's environment, not its
	// arguments
	out, _ := exec.Command(bash, "-c", `set -k; sh -c 'echo "[$X]" "$#"' X=injected`).Output()
	if got := strings.TrimSpace(string(out)); got != "[injected] 0" {
		t.Fatalf("bash -c 'set -k; …' gives %q: the keyword option does not behave as this test expects", got)
	}
	for _, src := range []string{
		`set -k; less notes.txt LESSOPEN='|id'`,
		`set -ek; ls X=1`,
		`set -o keyword; git log GIT_PAGER=x`,
		`set -H; echo hi # x`,
		`set -o history; ls`,
		`set -o histexpand; ls`,
		`set -o "$OPT"; ls`,
		`bash -k -c 'ls PATH=.'`,
		`bash -o keyword -c 'ls'`,
		`sh -H script.sh`,
	} {
		a := Analyse(src, Options{Home: "/home/u", Cwd: "/home/u/proj"})
		if !anyUnknown(a) {
			t.Errorf("%q: analysed as in bash's default mode", src)
		}
	}
	for _, src := range []string{`set -e; ls`, `set -o pipefail; ls`, `set +k; ls X=1`, `set -x; ls`, `set -- -k; ls`} {
		if a := Analyse(src, Options{Home: "/home/u", Cwd: "/home/u/proj"}); anyUnknown(a) {
			t.Errorf("%q: unknown %q", src, a.Unknown)
		}
	}
	// input typed into a session whose shell may have set -k on earlier:
	// a NAME=value word that would change what runs is unknown there
	if a := Analyse(`less notes.txt LESSOPEN='|id'`, Options{Home: "/home/u", Interactive: true}); !anyUnknown(a) {
		t.Error("session input with LESSOPEN=…: analysed as arguments")
	}
}

func anyUnknown(a *Analysis) bool {
	if len(a.Unknown) > 0 || a.Err != nil {
		return true
	}
	for _, l := range a.Leaves {
		if len(l.Unknown) > 0 {
			return true
		}
	}
	return false
}
