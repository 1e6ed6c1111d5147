//go:build unix

package cmdbase

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

// awkEffects are statements with an effect nb's reader must see, each
// observable after a run: a file created in the directory, or the
// canary text of a file or variable in the output.
var awkEffects = []string{
	`print > "F1"`, `print >> "F2"`, `printf "x" > "F3"`, `print | "cat > F4"`, `system("touch F5")`,
	`"cat G1" | getline x; print x`, `getline x < "G1"; print x`, `print ENVIRON["NB_AWK_CANARY"]`,
	`ARGV[1] = "G1"`, `print > $1`, `printf("%s", "y") >> "F6"`, `print $0 | "sh -c \"touch F7\""`,
	`while ((getline l < "G1") > 0) print l`, `print PROCINFO["environ"]`, `fflush("F8")`,
}

// awkFragments meet at the places where readings of awk differ: regular
// expressions against division, strings, comments, line continuations,
// grouping and the words that end a statement.
var awkFragments = []string{
	`/"/`, `"/"`, `x = 1 / 2 / 1`, `/[/]/`, `# c`, "\\\n", ";", "\n", "(", ")", `$1`, "print", `a[1]`,
	`"\""`, `/\//`, "length", `x = length /2/ 1`, "if (1)", "?", ":", ",", ">", ">>", "|", `"F9"`, `x`,
	`/=/`, `a /= 2`, `1`, `$0 ~ /x/`, `"a" "b"`, `{`, `}`, `print "a"`, `y = /"/`, "getline", `"#"`,
	"in", `!/x/`, "else", "'", `\"`, `/\\/`, "#", "\t", "$", `x++ / 2`, `NF`, "printf", "/", `"\\"`,
	`/[[]/`, `/[]]/`, `/[\/]/`, `x = /[/`, `1 ? /x/ : /y/`, "++", "--", `x--/2`, `i++ /2/`, "!", "~", "&&", "||",
	"**", "^", "%", `-/x/`, `NR==1`, `$NF`, `$(1)`, `(1)/2/1`, `a[1]/2/1`, `"a"/2/1`, `1/2/1`, "substr($0, 2)",
	"function f(a) { return a }", "f(1)", "next", "exit", "delete a", "while (0)", "for (k in a)", "do", `/a/,/b/`,
}

// genAwkProgram strings fragments and one effect together, in a rule
// that always runs, so that what the reader misses shows in the run.
func genAwkProgram(rng *rand.Rand) string {
	var b strings.Builder
	if rng.Intn(2) == 0 {
		b.WriteString("BEGIN ")
	}
	b.WriteString("{ ")
	for k := rng.Intn(5); k > 0; k-- {
		b.WriteString(awkFragments[rng.Intn(len(awkFragments))] + " ")
	}
	if rng.Intn(4) > 0 {
		b.WriteString(awkEffects[rng.Intn(len(awkEffects))] + " ")
	}
	for k := rng.Intn(4); k > 0; k-- {
		b.WriteString(awkFragments[rng.Intn(len(awkFragments))] + " ")
	}
	b.WriteString("}\n{ print }") // a rule that reads, after BEGIN's ARGV changes
	return b.String()
}

// awkEffect runs program with awk in a fresh directory holding an input
// file and a canary file G1, and says what it did that a read-only
// program cannot: files it created, canary text it printed.
func awkEffect(t *testing.T, awk, program string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{"in": "1 2 3\nF10 5 6\n", "G1": "NB-FILE-CANARY\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(awk, program, "in")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NB_AWK_CANARY=NB-ENV-CANARY")
	out, _ := cmd.CombinedOutput()
	var did []string
	if strings.Contains(string(out), "NB-FILE-CANARY") {
		did = append(did, "printed G1")
	}
	if strings.Contains(string(out), "NB-ENV-CANARY") {
		did = append(did, "printed the environment")
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != "in" && e.Name() != "G1" {
			did = append(did, "created "+e.Name())
		}
	}
	return strings.Join(did, ", ")
}

// TestAwkReaderAgainstRealAwk holds the awk reader against the awks
// installed (mawk, Debian's awk, and gawk): every generated program the
// reader calls harmless is run, and none may create a file, run a
// command, or print a file or variable it was not given. The effects are
// placed where they always run, so a statement the reader misread shows.
func TestAwkReaderAgainstRealAwk(t *testing.T) {
	awks := []string{testenv.Tool(t, "mawk"), testenv.Tool(t, "gawk")}
	n, rng := generated(1500, 7, "NB_AWK")
	harmless, effects := 0, 0
	for range n {
		p := genAwkProgram(rng)
		if awkProgramWhy(p) != "" {
			continue
		}
		harmless++
		for _, awk := range awks {
			if did := awkEffect(t, awk, p); did != "" {
				effects++
				t.Errorf("%s %q: judged harmless, it %s", filepath.Base(awk), p, did)
			}
		}
	}
	t.Logf("%d programs, %d judged harmless and run", n, harmless)
	if harmless < n/20 {
		t.Errorf("only %d of %d programs judged harmless: the run tests little", harmless, n)
	}
	// the harness sees each effect
	for _, eff := range awkEffects {
		p := "BEGIN { " + eff + " }\n{ print }"
		if strings.Contains(eff, "$") {
			p = "{ " + eff + " }"
		}
		seen := false
		for _, awk := range awks {
			seen = seen || awkEffect(t, awk, p) != ""
		}
		if !seen && eff != `print PROCINFO["environ"]` && eff != `fflush("F8")` {
			t.Errorf("%q has no effect the harness sees", eff)
		}
	}
}

// TestAwkOutputsAgainstRealAwk holds awkOutputs against the awks
// installed: a generated program whose only effect nb's reader sees is
// print's output to files creates no file but those awkOutputs names,
// unless it reports a file named by an expression.
func TestAwkOutputsAgainstRealAwk(t *testing.T) {
	awks := []string{testenv.Tool(t, "mawk"), testenv.Tool(t, "gawk")}
	n, rng := generated(1500, 11, "NB_AWK")
	checked := 0
	for range n {
		p := genAwkProgram(rng)
		if why := awkProgramWhy(p); why != "awk program redirects output to a file" {
			continue
		}
		files, named := awkOutputs(p)
		if named {
			continue
		}
		checked++
		for _, awk := range awks {
			for _, did := range strings.Split(awkEffect(t, awk, p), ", ") {
				name, ok := strings.CutPrefix(did, "created ")
				if ok && !slices.Contains(files, name) {
					t.Errorf("%s %q: wrote %s, nb read only %q", filepath.Base(awk), p, name, files)
				}
			}
		}
	}
	t.Logf("%d programs, %d writing only named files run", n, checked)
	if checked < n/50 {
		t.Errorf("only %d of %d programs checked: the run tests little", checked, n)
	}
}
