//go:build unix

package cmdbase

import (
	"math/rand"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// The differential against GNU sed runs where GNU sed lives; the reader
// it checks is the same code on every platform, and its own tests
// (sedscript_test.go) run everywhere.

// sedSandbox asks GNU sed whether a script holds a command that runs,
// writes or reads (sed --sandbox refuses exactly e, r, R, w, W, s///e and
// s///w) without running it on any input. refused: sandbox refusal;
// failed: another compile error.
func sedSandbox(t *testing.T, sed, dir string, scripts ...string) (refused, failed bool, msg string) {
	t.Helper()
	args := []string{"--sandbox", "-n"}
	for _, s := range scripts {
		args = append(args, "-e", s)
	}
	cmd := exec.Command(sed, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err == nil {
		return false, false, ""
	}
	return strings.Contains(string(out), "disabled in sandbox mode"), true, string(out)
}

func requireGNUSed(t *testing.T) string {
	t.Helper()
	sed := testenv.Tool(t, "sed")
	out, err := exec.Command(sed, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "GNU sed") {
		testenv.Missing(t, "GNU sed not installed")
	}
	return sed
}

// TestSedScanAgreesWithSed holds the parser against GNU sed itself: the
// hand-picked scripts, then a generated corpus. A script the parser calls
// harmless must be accepted by sed --sandbox; one in which GNU's reading
// finds a command must be refused by it.
func TestSedScanAgreesWithSed(t *testing.T) {
	sed := requireGNUSed(t)
	dir := t.TempDir()
	scripts := append(append([]string{}, sedHiddenCommands...), sedHarmless...)
	n, rng := generated(3000, 19, "NB_SED")
	for range n {
		scripts = append(scripts, genSedScript(rng))
	}
	agree, unsure := 0, 0
	for _, s := range scripts {
		refused, failed, msg := sedSandbox(t, sed, dir, s)
		both := sedScan(s)
		gnu := sedParse(s, true)
		if both.harmless() && !both.stdWrite && refused {
			t.Errorf("%q: judged harmless, sed refuses it: %s", s, msg)
			continue
		}
		if !gnu.bad && (!gnu.harmless() || gnu.stdWrite) && !failed {
			t.Errorf("%q: GNU reading finds %+v, sed --sandbox does not refuse it (%s)", s, gnu, msg)
			continue
		}
		if gnu.bad && !failed {
			t.Logf("%q: sed accepts it, the parser does not follow it", s)
			unsure++
			continue
		}
		agree++
	}
	// several -e expressions, which sed joins with newlines
	for range n / 10 {
		pair := []string{genSedScript(rng), genSedScript(rng)}
		if refused, _, msg := sedSandbox(t, sed, dir, pair...); refused && sedScriptWhy(pair) == "" && !sedScan(strings.Join(pair, "\n")).stdWrite {
			t.Errorf("-e %q -e %q: judged harmless, sed refuses it: %s", pair[0], pair[1], msg)
		}
	}
	t.Logf("%d scripts: %d agree, %d sed accepts but the parser does not follow", len(scripts), agree, unsure)
	if unsure*20 > len(scripts) {
		t.Errorf("the parser gives up on %d of %d scripts sed accepts", unsure, len(scripts))
	}
}

// genSedScript strings together fragments chosen to meet at the places
// where readings of sed differ: labels, text, delimiters, brackets,
// comments, blocks, flags.
func genSedScript(rng *rand.Rand) string {
	frags := []string{
		":", ":x", "b", "bx", "t", "T", "v", "v 4.2", "e", "e id", "w", "w f", "W f", "r f", "R f",
		"s/a/b/", "s/a/b/g", "s/a/b/e", "s/a/b/w f", "s,a,b,", "s|[|]|x|", "s/[/]/x/", "s/a/b/ p",
		"y/ab/cd/", "a", "a foo", "a\\", "a\\\n", "i x", "c\\", "p", "P", "l", "l 5", "q", "Q 3", "=",
		"d", "n", "N", "z", "F", "{", "}", ";", " ", " ", "\t", "\n", "\n", "#", "# c", "\\", "\\\\",
		"/", "/x/", "/x/I", "\\%x%", "1", "$", "!", ",", "1,3", "1~2", ",+2", ",~4", "0,/y/", "[", "]",
		"[[:alpha:]]", "x", "e", "w", "I", "M", "g", "2", "#n", "}", "s/x/\\\n/", "y/a/\\/", "s/\\n/x/",
		" I", "M ", "0~3", "\n}", "s", "y", "a\\\\", "\\\n", ":a;", "b a;", "s/a/b/w /dev/stdout", "l;", "=;",
	}
	var b strings.Builder
	for k := 1 + rng.Intn(7); k > 0; k-- {
		b.WriteString(frags[rng.Intn(len(frags))])
	}
	return b.String()
}

// generated is the size of a generated corpus (n, a tenth of it with
// -short) and its source of randomness (seed), each replaced for a longer
// run by hand by PREFIX_N and PREFIX_SEED.
func generated(n int, seed int64, prefix string) (int, *rand.Rand) {
	if testing.Short() {
		n /= 10
	}
	if v, err := strconv.Atoi(os.Getenv(prefix + "_N")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseInt(os.Getenv(prefix+"_SEED"), 10, 64); err == nil {
		seed = v
	}
	return n, rand.New(rand.NewSource(seed))
}

// TestSedWriteFilesAgreeWithSed holds the files a script's w commands
// name against GNU sed running it: every file sed creates is one the
// reader names. Scripts that run commands or read files, or that the
// reader cannot follow, are not run.
func TestSedWriteFilesAgreeWithSed(t *testing.T) {
	sed := requireGNUSed(t)
	n, rng := generated(1500, 23, "NB_SED_FILES")
	checked := 0
	for range n {
		s := genSedScript(rng)
		eff := sedScan(s)
		if eff.bad || eff.exec || eff.read {
			continue
		}
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/in", []byte("a\nb\nx\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(sed, "-n", "-e", s, "in")
		cmd.Dir = dir
		if cmd.Run() != nil {
			continue // sed did not take it
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Name() == "in" {
				continue
			}
			checked++
			if !slices.Contains(eff.files, e.Name()) {
				t.Errorf("%q: sed wrote %s, the reader names %q", s, e.Name(), eff.files)
			}
		}
	}
	t.Logf("%d scripts, %d files sed wrote checked", n, checked)
	if checked < n/50 {
		t.Errorf("only %d files checked: the run tests little", checked)
	}
}
