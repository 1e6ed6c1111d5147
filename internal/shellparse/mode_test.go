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

// TestReadingModeAgainstBash: real bash says, through $-, whether each
// spelling leaves the keyword option (k) or history expansion (H) on; the
// analysis of the spelling followed by a command is unknown exactly when
// it does, apart from the spellings listed as read with care (an option
// turned on and off again, or on in a subshell only; set -o history, the
// history list that history expansion reads, which an interactive shell
// expands by default).
func TestReadingModeAgainstBash(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	careful := map[string]bool{"set -k +k": true, "(set -k)": true, "set -H; set +H": true, "set -o history": true}
	for _, src := range []string{
		"set -k", "set -ek", "set -ke", "set -euk", "set -Hk", "set -H", "set -eH", "set -k +k", "set -H; set +H",
		"set -o keyword", "set -eo keyword", "set -o errexit -o keyword", "set -euko pipefail", "set -o histexpand",
		"set -o history", "set -o errexit", "set -e", "set -x", "set -euo pipefail", "set -o posix", "set -B", "set +k",
		"set -- -k", "builtin set -k", "command set -k", "\\set -k", "'set' -k", "{ set -k; }", "(set -k)",
		"true && set -k", "f() { set -k; }; f", "if true; then set -o keyword; fi",
		"shopt -so keyword", "shopt -s -o keyword", "shopt -os keyword", "shopt -o -s keyword", "shopt -so histexpand",
		"shopt -so errexit keyword", "shopt -so errexit", "shopt -uo keyword", "shopt -po keyword", "shopt -s extglob",
		"shopt -q -o keyword", "shopt -o keyword",
	} {
		out, err := exec.Command(bash, "-c", src+"\necho \"[$-]\"").CombinedOutput()
		if err != nil {
			t.Fatalf("bash -c %q: %v\n%s", src, err, out)
		}
		flags := string(out[strings.LastIndexByte(string(out), '[')+1:])
		flags = flags[:strings.IndexByte(flags, ']')]
		on := strings.ContainsAny(flags, "kH")
		a := Analyse(src+"; ls X=1", Options{Home: "/home/u", Cwd: "/home/u/proj"})
		switch got := anyUnknown(a); {
		case on && !got:
			t.Errorf("%q: bash reads later words otherwise ($- is %s), the analysis does not", src, flags)
		case !on && got && !careful[src]:
			t.Errorf("%q: bash's default mode ($- is %s), the analysis is unknown: %q", src, flags, a.Unknown)
		}
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
