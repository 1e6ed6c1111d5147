package shellparse

import (
	"slices"
	"strings"
	"testing"
)

// Leaves that bash really runs in forms the analyser once missed.
func TestHiddenLeaves(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`declare 'w[$(rm -rf ~)]=1'`, "rm -rf /home/u"},
		{`typeset -g "v[\$(id)]=1"`, "id"},
		{`local 'a[$(id)]'=1`, "id"},
		{`printf -v 'a[$(id)]' x`, "id"},
		{`read 'a[$(id)]' <<< 1`, "id"},
		{`unset 'a[$(id)]'`, "id"},
		{`test -v 'a[$(id)]'`, "id"},
		{`mapfile -C 'rm x' -c 1 arr < f`, "rm x"},
		{`env -S 'rm -rf ~'`, "rm -rf /home/u"},
		{`env -S"rm x"`, "rm x"},
		{`env --spl='rm x'`, "rm x"},
		{`env -u X -S 'rm x'`, "rm x"},
		{`env -iS 'rm x'`, "rm x"},
		{`echo x | xargs -I{} sh -c 'rm -rf {}'`, "rm -rf x"},
		{`xargs -I{} sh -c 'rm -rf {}'`, "rm -rf {}"},
		{`eval -- 'rm x'`, "rm x"},
		{`flock /tmp/l rm x`, "rm x"},
		{`flock -x /tmp/l -c 'rm x'`, "rm x"},
		{`strace -f -o /dev/null rm x`, "rm x"},
		{`taskset -c 0 rm x`, "rm x"},
		{`PROMPT_COMMAND='rm x' bash -i`, "rm x"},
		{`PS1='$(rm x)'`, "rm x"},
		{`env 'BASH_FUNC_ls%%=() { rm x; }' bash -c ls`, "rm x"},
		{`echo 'rm x' | sh`, "rm x"},
		{`bash -c '$0 -rf ~' rm`, "rm -rf /home/u"},
		{`sh -c '"$@"' x rm -rf y`, "rm -rf y"},
		{`time -- rm x`, "rm x"},
		{`ls | time rm x`, "time rm x"},
		{`coproc reboot >/dev/null`, "reboot"},
		{`coproc a=1 rm x`, "rm x"},
		{`coproc a+=$(id) rm x`, "id"},
		{`coproc reboot 2>&1 </dev/null`, "reboot"},
		{"ls #\\\nrm -rf ~", "rm -rf /home/u"},
		{"ls # a \\\ncat x #\\\nrm y", "rm y"},
		{`ls | time -p rm x | cat`, "rm x"},
		{`time -p -- rm x | cat`, "rm x"},
		{`compgen -C 'rm x' y`, "rm x"},
		{`complete -C 'rm x' ls`, "rm x"},
	} {
		a := Analyse(c.src, Options{Home: "/home/u"})
		if !slices.Contains(leafTexts(a), c.want) {
			t.Errorf("%q: leaves %q lack %q", c.src, leafTexts(a), c.want)
		}
	}
}

func TestNotFullyKnown(t *testing.T) {
	unknown := func(a *Analysis) bool {
		if len(a.Unknown) > 0 {
			return true
		}
		for _, l := range a.Leaves {
			if len(l.Unknown) > 0 {
				return true
			}
		}
		return false
	}
	for _, src := range []string{
		`declare 'w[$(rm -rf ~)]=1'`, `declare 'w[i]=1'`, `printf -v PATH %s x`, `read -r HOME`, `mapfile PATH`,
		`for PATH in x; do ls; done`, `export 'LD_PRELOAD=/x'`, `declare "PS1=x"`, `env -S 'ls'`, `coproc PATH { ls; }`,
		`PS0=x`, `HISTFILE=~/.bashrc`, `bash -c '$1' _ ls`,
		// bash closes the descriptor and runs rm true / cat rm
		`<&-rm true`, `true 2>& -rm x`, `cat >&-rm`,
		// ls runs /bin/rm from then on; compgen calls a function
		// bash ends a comment at the newline; the parser joins the lines
		"ls #\\\nrm -rf ~", "ls # x \\\nrm x", "bash -c 'ls #\\\nrm x'",
		"history -s 'rm -rf ~'; fc -s", `fc -e - x`, `fc`,
		`alias ls='true;'`, `alias ls='true |'`, `alias ls="true &&"`,
		`hash -p /bin/rm ls; ls x`, `hash -tp /bin/rm ls`, `compgen -F f x`, `complete -F f ls`,
	} {
		if a := Analyse(src, Options{Home: "/home/u"}); !unknown(a) {
			t.Errorf("%q: fully known", src)
		}
	}
	for _, src := range []string{`fc -l`, `fc -lnr -5`, `declare x=1`, `declare -a arr`, `read -r line`, `printf -v out %s x`, `export FOO=1`} {
		if a := Analyse(src, Options{Home: "/home/u"}); unknown(a) {
			t.Errorf("%q: unknown (%q)", src, a.Unknown)
		}
	}
}

func TestHistoryExpansion(t *testing.T) {
	for src, want := range map[string]bool{
		`x=!!`: true, `echo "!grep:1"`: true, `echo !-1`: true, `cat <<< "!x"`: true, "^a^b": true, "ls\n^a^b": true,
		`echo '!!'`: false, `echo hi!`: false, `[[ ! -f x ]]`: false, `test 1 != 2`: false, `echo "hi!"`: false, `echo \!x`: false,
	} {
		if got := hasHistoryExpansion(src); got != want {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
		a := Analyse(src, Options{Interactive: true})
		if got := slices.ContainsFunc(a.Unknown, func(r string) bool { return strings.Contains(r, "history") }); got != want {
			t.Errorf("%q interactive: history unknown %v, want %v", src, got, want)
		}
	}
}

func TestWordValues(t *testing.T) {
	for src, want := range map[string]string{
		`cat $'.env\x00.txt'`:  ".env",
		`cat $'/etc/shadow\0'`: "/etc/shadow",
		`cat $'a\u0000b'c`:     "ac",
		`cat $'a\U00000000b'`:  "a",
		`cat $'.env\x0'`:       ".env",
		`cat $'\x{2e}env'`:     ".env",
		`cat $'\x{4142}'`:      "B",
		`cat $'.env\x{0}.md'`:  ".env",
		`cat $'.env\000.md'`:   ".env",
		`dd of=~/.bashrc`:      "of=/home/u/.bashrc",
		`x PATH=~/bin:~/sbin`:  "PATH=/home/u/bin:/home/u/sbin",
		`dd of='~/x'`:          "of=~/x",
		`dd --of=~/x`:          "--of=~/x",
	} {
		a := Analyse(src, Options{Home: "/home/u"})
		if len(a.Leaves) == 0 || len(a.Leaves[0].Words) < 2 {
			t.Fatalf("%q: no words", src)
		}
		w := a.Leaves[0].Words[1]
		if w.Text != want || !w.Static() {
			t.Errorf("%q: %q (static %v), want %q", src, w.Text, w.Static(), want)
		}
	}
	// beyond ASCII, $'\u…' is encoded in the locale's character set, and
	// left as written where there is none
	for src, static := range map[string]bool{`cat $'\u00e9'`: false, `cat $'\U0001F600'`: false, `cat $'\u0063'`: true, `cat $'\xe9'`: true} {
		if w := Analyse(src, Options{}).Leaves[0].Words[1]; w.Static() != static {
			t.Errorf("%q: static %v, want %v", src, w.Static(), static)
		}
	}
	if w := Analyse(`dd of=~bob/x`, Options{Home: "/home/u"}).Leaves[0].Words[1]; w.Static() {
		t.Errorf("of=~bob/x is static: %q", w.Text)
	}
}

func TestCoprocAssignRaw(t *testing.T) {
	a := Analyse(`coproc a=$(id)x rm y`, Options{})
	for _, l := range a.Leaves {
		if l.Name() == "rm" && strings.Join(l.EnvAssigns, " ") == "a" {
			return
		}
	}
	t.Errorf("leaves %q: no rm y with the assignment a", leafTexts(a))
}

// xargs --process-slot-var NAME runs each command with NAME set in its
// environment: the wrapper carries the assignment its command sees.
func TestXargsProcessSlotVarAssigns(t *testing.T) {
	for _, src := range []string{"xargs --process-slot-var=BASH_ENV bash -c ls", "xargs --process-slot-var BASH_ENV bash -c ls",
		"xargs --p=BASH_ENV bash -c ls", "xargs -0 --proc BASH_ENV -n1 bash -c ls"} {
		a := Analyse(src, Options{})
		if len(a.Leaves) < 2 || !slices.Contains(a.Leaves[0].EnvAssigns, "BASH_ENV") || a.Leaves[1].Wrapper != a.Leaves[0] {
			t.Errorf("%q: leaves %q, the xargs leaf's assignments %q", src, leafTexts(a), a.Leaves[0].EnvAssigns)
		}
	}
	if a := Analyse(`xargs --process-slot-var="$v" ls`, Options{}); len(a.Leaves[0].Unknown) == 0 {
		t.Errorf("a dynamic name is known: %q", leafTexts(a))
	}
}
