package shellparse

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

// shimNames are fake commands installed as recording shims on PATH.
var shimNames = []string{"aaa", "bbb", "ccc", "ddd", "eee"}

// TestAgainstBash runs scripts in real bash with recording shims first on
// PATH and checks that every shim bash actually executed is among the
// leaves the analyser extracted.
func TestAgainstBash(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	dir := t.TempDir()
	shims := filepath.Join(dir, "bin")
	if err := os.Mkdir(shims, 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log")
	for _, n := range shimNames {
		script := "#!/bin/sh\necho " + n + " >> \"$SHIM_LOG\"\n"
		if err := os.WriteFile(filepath.Join(shims, n), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "file"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scripts := []string{
		"aaa; bbb",
		"aaa && bbb || ccc",
		"aaa | bbb |& ccc",
		"aaa & wait",
		"aaa\nbbb\n",
		"(aaa; (bbb))",
		"{ aaa; bbb; }",
		"echo $(aaa) `bbb`",
		"cat <(aaa) >/dev/null; echo x > >(bbb); wait",
		"bash -c 'aaa; bbb'",
		"sh -c \"aaa | bbb\"",
		"bash -ec 'aaa'",
		"eval 'aaa; bbb'",
		"eval aaa bbb",
		"timeout 5 aaa",
		"env X=1 aaa",
		"env -i PATH=\"$PATH\" SHIM_LOG=\"$SHIM_LOG\" aaa",
		"nice -n 5 aaa",
		"nohup aaa >/dev/null 2>&1",
		"command aaa",
		"builtin echo x; aaa",
		"stdbuf -oL aaa",
		"time aaa",
		"time -p aaa",
		"echo x | xargs aaa",
		"echo x | xargs -I{} aaa {}",
		"echo x | xargs -n1 -P2 aaa",
		"find . -maxdepth 1 -name file -exec aaa {} \\;",
		"find . -maxdepth 1 -name file -exec aaa {} +",
		"find . -maxdepth 1 -name file -execdir bbb \\;",
		"trap 'aaa' EXIT",
		"trap -- 'bbb' EXIT",
		"f() { aaa; }; f",
		"function g { bbb; }; g",
		"x=$(aaa)",
		"echo ${x:-$(aaa)}",
		"echo ${x:=$(aaa)} ${y/z/$(bbb)}",
		"cat <<EOF\n$(aaa)\n`bbb`\nEOF",
		"cat <<< \"$(aaa)\"",
		"if aaa; then bbb; elif ccc; then ddd; else eee; fi",
		"while aaa; do break; done",
		"until aaa; do break; done",
		"case $(aaa) in *) bbb;; esac",
		"for i in $(aaa) x; do bbb; done",
		"[[ -n $(aaa) ]]",
		"echo $(( $(aaa) + 1 ))",
		"a[$(aaa)]=1",
		"declare x=$(aaa)",
		"export y=$(aaa)",
		"g() { local z=$(aaa); }; g",
		"readonly r=$(aaa)",
		"coproc aaa; wait",
		"! aaa",
		"aaa > /dev/null 2>&1",
		"{ aaa; } 2>&1",
		"exec aaa",
		"setsid -w aaa",
		"a\\aa",
		"'aaa'",
		"\"a\"aa",
		"$'\\x61aa'",
		"aaa # ; bbb",
		"a\\\naa",
		"echo x | while read l; do aaa; done",
		"select x in a; do aaa; break; done <<< 1",
		"sh -c 'bash -c \"aaa\"'",
		"eval \"eval 'aaa'\"",
		"timeout 5 env A=1 nice aaa",
		"echo `echo \\`aaa\\``",
		"echo \"$(aaa \"$(bbb)\")\"",
		"cat < <(aaa)",
		"x=1; [ $x = 1 ] && aaa",
		"test -f file && aaa",
		"(( 1 )) && aaa",
		"let x=1 && aaa",
		"true | aaa",
		"echo $(cat <<EOF\n$(aaa)\nEOF\n)",
		"su -c aaa 2>/dev/null",
		"bash <<'EOF'\naaa\nbbb\nEOF",
		"sh <<< 'aaa; bbb'",
		"bash -s <<EOF\naaa\nEOF",
		"coproc aaa x; wait",
		"env -i PATH=\"$PATH\" SHIM_LOG=\"$SHIM_LOG\" timeout 5 aaa",
		"echo x | xargs -0 sh -c 'aaa'",
		"find . -maxdepth 1 -name file -exec sh -c 'bbb' \\;",
		"trap 'aaa' EXIT; bbb",
		"alias x=aaa; bbb",
		// GNU option grammar of wrappers: optional values are attached
		// only, and a long option is any unambiguous abbreviation
		"echo x | xargs --eof aaa",
		"echo x | xargs --max-lines aaa",
		"echo x | xargs --replace aaa",
		"echo x | xargs -e aaa",
		"echo x | xargs -l aaa",
		"echo x | xargs -0e aaa",
		"echo x | xargs --p bbb aaa",
		"echo x | xargs --arg=/dev/null --d '\\n' aaa",
		"echo x | xargs -I {} --replace aaa",
		"timeout --k 1 5 aaa",
		"timeout --s KILL 5 aaa",
		"timeout --fo 5 aaa",
		"nice --adj 5 aaa",
		"stdbuf --o 0 aaa",
		"ionice --classd 7 aaa",
		// a script read from a name of standard input, or echoed
		"bash /dev/stdin <<< 'aaa'",
		"source /dev/stdin <<< 'aaa'",
		". /dev/fd/0 <<< 'bbb'",
		"echo aaa | source /dev/stdin",
		"source <(echo aaa)",
		"bash <(echo aaa)",
		"eval \"$(echo aaa)\"",
		"sh -c \"$(echo aaa)\"",
		// what printf, echo with options and cat of a here-string print
		"printf 'aaa' | sh",
		"printf 'aaa\\nbbb\\n' | bash",
		"echo -n aaa | sh",
		"cat <<< 'aaa' | bash",
		"source <(printf 'aaa')",
	}
	for _, s := range scripts {
		os.Remove(log)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bash, "-c", s)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + shims + ":" + os.Getenv("PATH"), "SHIM_LOG=" + log, "HOME=" + dir}
		cmd.WaitDelay = 2 * time.Second
		out, _ := cmd.CombinedOutput()
		cancel()
		data, _ := os.ReadFile(log)
		ran := map[string]bool{}
		for _, l := range strings.Fields(string(data)) {
			ran[l] = true
		}
		a := Analyse(s, Options{Home: dir})
		if a.Err != nil {
			t.Errorf("%q: parse error %v", s, a.Err)
			continue
		}
		have := map[string]bool{}
		for _, l := range a.Leaves {
			have[l.Base()] = true
		}
		var missing []string
		for n := range ran {
			if !have[n] {
				missing = append(missing, n)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%q: bash ran %v that the analyser did not see (leaves %q; output %q)", s, missing, leafTexts(a), out)
		}
		if len(ran) == 0 && !strings.Contains(s, "su -c") {
			t.Errorf("%q: bash ran no shim (output %q): the test case does not test anything", s, out)
		}
	}
}
