package shellparse

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

func leafTexts(a *Analysis) []string {
	var out []string
	for _, l := range a.Leaves {
		out = append(out, l.Text())
	}
	return out
}

func TestLeaves(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"ls -la", []string{"ls -la"}},
		{"ls; pwd && id || whoami & date\nuptime", []string{"ls", "pwd", "id", "whoami", "date", "uptime"}},
		{"(cd /tmp; ls) | { grep x; wc -l; }", []string{"cd /tmp", "ls", "grep x", "wc -l"}},
		{"echo $(id) `whoami` <(uname)", []string{"id", "whoami", "uname", "echo $(id) `whoami` <(uname)"}},
		{"timeout 5 rm -rf x", []string{"timeout 5 rm -rf x", "rm -rf x"}},
		{"env -i A=1 B=2 nice -n 5 ls", []string{"env -i A=1 B=2 nice -n 5 ls", "nice -n 5 ls", "ls"}},
		{"bash -c 'cat /etc/hosts; rm x'", []string{"bash -c cat /etc/hosts; rm x", "cat /etc/hosts", "rm x"}},
		{"sh -ec \"ls\"", []string{"sh -ec ls", "ls"}},
		{"eval 'ls; id'", []string{"eval ls; id", "ls", "id"}},
		{"find . -name x -exec rm {} \\;", []string{"find . -name x -exec rm {} ;", "rm {}"}},
		{"xargs -0 rm -f", []string{"xargs -0 rm -f", "rm -f"}},
		{"sudo -u root rm -rf /", []string{"sudo -u root rm -rf /", "rm -rf /"}},
		{"\\rm -rf x", []string{"rm -rf x"}},
		{"r''m -fr x", []string{"rm -fr x"}},
		{`"r"m x`, []string{"rm x"}},
		{`$'\x72\x6d' x`, []string{"rm x"}},
		{"trap 'rm -rf x' EXIT", []string{"trap rm -rf x EXIT", "rm -rf x"}},
		{"alias ll='ls -l; rm y'", []string{"alias ll=ls -l; rm y", "ls -l", "rm y"}},
		{"f() { rm x; }; f", []string{"rm x", "f"}},
		{"if a; then b; elif c; then d; else e; fi", []string{"a", "b", "c", "d", "e"}},
		{"for i in $(seq 3); do echo $i; done", []string{"seq 3", "echo $i"}},
		{"while read l; do x; done < f", []string{"read l", "x"}},
		{"case $(a) in x) b;; esac", []string{"a", "b"}},
		{"cat <<EOF\n$(id)\nEOF", []string{"id", "cat"}},
		{"echo ${x:-$(id)}", []string{"id", "echo ${x:-$(id)}"}},
		{"declare x=$(id)", []string{"id", "declare x=…"}},
		{"coproc cat", []string{"cat"}},
		{"time ls", []string{"ls"}},
		{"watch -n 1 'ls; id'", []string{"watch -n 1 ls; id", "ls", "id"}},
		{"su -c 'id' root", []string{"su -c id root", "id"}},
		{"busybox rm -rf x", []string{"busybox rm -rf x", "rm -rf x"}},
	}
	for _, c := range cases {
		a := Analyse(c.src, Options{Home: "/home/u"})
		if a.Err != nil {
			t.Errorf("%q: %v", c.src, a.Err)
			continue
		}
		if got := leafTexts(a); !slices.Equal(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

func TestUnknownConstructs(t *testing.T) {
	for _, src := range []string{
		"echo ${x@P}",
		"echo ${!x}",
		"echo $(( x + 1 ))",
		"(( a[$(id)] ))",
		"let i++",
		"[[ -v 'a[$(id)]' ]]",
		"[[ $x -eq 1 ]]",
		"declare -i x=$y",
		"ls\rrm x",
		"PATH=/tmp ls",
		"export LD_PRELOAD=/tmp/x.so",
		"echo ${a[i]}",
		"cat {a,b}",
	} {
		a := Analyse(src, Options{})
		unknown := len(a.Unknown) > 0
		for _, l := range a.Leaves {
			if len(l.Unknown) > 0 || strings.Contains(src, "{a,b}") && !l.Words[len(l.Words)-1].Static() {
				unknown = true
			}
		}
		if strings.HasPrefix(src, "PATH=") {
			unknown = slices.Contains(a.Leaves[0].EnvAssigns, "PATH")
		}
		if !unknown {
			t.Errorf("%q: not marked unknown (leaves %q)", src, leafTexts(a))
		}
	}
}

func TestDynamicName(t *testing.T) {
	for _, src := range []string{"$cmd x", "$(echo rm) x", "r{m,} x", "rm${IFS}-rf x", "~user/bin/x", "*", "./r?"} {
		a := Analyse(src, Options{})
		l := a.Leaves[len(a.Leaves)-1]
		if l.Name() != "" && !strings.HasPrefix(src, "~") {
			t.Errorf("%q: name %q should be dynamic", src, l.Name())
		}
	}
}

func TestRedirections(t *testing.T) {
	a := Analyse("ls >a 2>&1 >>b &>c >|d <e <<<f 3<>g >&h 2>/dev/null <&0 >&-", Options{})
	type r struct {
		op, target          string
		write, app, rd, dup bool
	}
	var got []r
	for _, x := range a.Redirs {
		got = append(got, r{x.Op, x.Target.Text, x.Write, x.Append, x.Read, x.Dup})
	}
	want := []r{
		{">", "a", true, false, false, false}, {">&", "1", false, false, false, true},
		{">>", "b", true, true, false, false}, {"&>", "c", true, false, false, false},
		{">|", "d", true, false, false, false}, {"<", "e", false, false, true, false},
		{"<<<", "f", false, false, false, false}, {"<>", "g", true, false, true, false},
		{">&", "h", true, false, false, false}, {">", "/dev/null", true, false, false, false},
		{"<&", "0", false, false, false, true}, {">&", "-", false, false, false, true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestNetworkPipe(t *testing.T) {
	a := Analyse("curl -s x | tee f | sudo bash", Options{})
	var sh *Leaf
	for _, l := range a.Leaves {
		if l.Base() == "bash" {
			sh = l
		}
	}
	if sh == nil || !sh.StdinFromNetwork {
		t.Fatalf("bash not marked as fed by the network: %q", leafTexts(a))
	}
	a = Analyse("ls | sh", Options{})
	if a.Leaves[1].StdinFromNetwork {
		t.Fatal("ls | sh marked as network")
	}
}

func TestTilde(t *testing.T) {
	a := Analyse("cat ~/.ssh/id_rsa ~ '~/x'", Options{Home: "/home/u"})
	got := []string{}
	for _, w := range a.Leaves[0].Args() {
		got = append(got, w.Text)
	}
	if !slices.Equal(got, []string{"/home/u/.ssh/id_rsa", "/home/u", "~/x"}) {
		t.Fatalf("got %q", got)
	}
}

func TestParseError(t *testing.T) {
	a := Analyse("echo 'x", Options{})
	if a.Err == nil {
		t.Fatal("no parse error")
	}
}

func TestSingleCall(t *testing.T) {
	if Analyse("cat x", Options{}).SingleCall == nil {
		t.Fatal("cat x is a single call")
	}
	for _, s := range []string{"cat x; ls", "cat x | ls", "cat $(ls)", "cat x &", "timeout 1 cat x"} {
		a := Analyse(s, Options{})
		if a.SingleCall != nil && len(a.Leaves) == 1 {
			t.Errorf("%q reported as a single call", s)
		}
	}
}

func TestInteractiveHistory(t *testing.T) {
	if a := Analyse("echo !!", Options{Interactive: true}); len(a.Unknown) == 0 {
		t.Fatal("history expansion not flagged")
	}
	if a := Analyse("echo '!!'", Options{Interactive: true}); len(a.Unknown) != 0 {
		t.Fatal("quoted ! flagged")
	}
}

// TestTildeAsBash: every static word the analyser gives for tilde forms
// is the word bash passes.
func TestTildeAsBash(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	for _, line := range []string{
		`printf '%s\0' ~$X`, `printf '%s\0' ~""`, `printf '%s\0' ~''`, `printf '%s\0' ~"/x"`, `printf '%s\0' ~/"x"`,
		`printf '%s\0' ~$X/b`, `printf '%s\0' ~/$X`, `printf '%s\0' ~`, `printf '%s\0' ~/a ~ x~`, `printf '%s\0' ~\/x`,
		`printf '%s\0' a=~/x b=~:~/y`, `printf '%s\0' ~"$X"`,
	} {
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", line)
		cmd.Env = []string{"HOME=/home/u", "X=a", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		a := Analyse(line, Options{Home: "/home/u"})
		args := a.Leaves[0].Args()[1:]
		if len(args) != len(want) {
			t.Fatalf("%s: %d words, bash passes %d", line, len(args), len(want))
		}
		for i, w := range args {
			if w.Static() && w.Text != want[i] {
				t.Errorf("%s: word %d is %q, bash passes %q", line, i, w.Text, want[i])
			}
		}
	}
}

// TestKnownParamsAsBash: $HOME and $PWD the command cannot have changed
// are the words bash passes; any other mention of the name keeps them
// dynamic.
func TestKnownParamsAsBash(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	dir := t.TempDir()
	for _, c := range []struct {
		home, line string
		static     bool
	}{
		{"/home/u", `printf '%s\0' $HOME "$HOME/a b" ${HOME}/x "${HOME}" x$HOME`, true},
		{"/home/u", `printf '%s\0' $PWD "$PWD/y" ${PWD}`, true},
		{"/home/my u", `printf '%s\0' "$HOME/x"`, true},
		{"/home/my u", `printf '%s\0' $HOME/x`, false}, // split in two words
		{"/home/u*", `printf '%s\0' $HOME`, false},     // a pattern
		{"/home/u", `HOME=/etc; printf '%s\0' $HOME`, false},
		{"/home/u", `printf '%s\0' ${HOME:-/etc}`, false},
		{"/home/u", `printf '%s\0' $HOMER`, false},
		{"/home/u", `export PWD=/etc; printf '%s\0' $PWD`, false},
	} {
		a := Analyse(c.line, Options{Home: c.home, Cwd: dir})
		l := a.Leaves[len(a.Leaves)-1]
		static := true
		for _, w := range l.Args()[1:] {
			static = static && w.Static()
		}
		if static != c.static {
			t.Errorf("%s (HOME=%s): static %v, want %v", c.line, c.home, static, c.static)
		}
		if !static {
			continue
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", c.line)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + c.home, "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		got := []string{}
		for _, w := range l.Args()[1:] {
			got = append(got, w.Text)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s (HOME=%s): %q, bash passes %q", c.line, c.home, got, want)
		}
	}
}
