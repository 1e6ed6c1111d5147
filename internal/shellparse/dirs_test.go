package shellparse

import (
	"reflect"
	"strings"
	"testing"
)

func TestLeafDirs(t *testing.T) {
	const home, cwd = "/home/u", "/work/p"
	cases := []struct {
		src     string
		leaf    int // index of the leaf checked
		paths   []string
		unknown bool
	}{
		{"cat x", 0, []string{cwd}, false},
		{"cd ~/.config && cat gh/hosts.yml", 1, []string{cwd, home + "/.config"}, false},
		{"cd ~; grep -r KEY .", 1, []string{cwd, home}, false},
		{"cd; ls", 1, []string{cwd, home}, false},
		{"cd /etc\ncat ssh/x", 1, []string{cwd, "/etc"}, false},
		{"cd .. && cd sub && ls", 2, []string{cwd, "/work", "/work/p/sub", "/work/sub"}, false},
		{"cd -P -- /tmp && ls", 1, []string{cwd, "/tmp"}, false},
		// CDPATH and cdable_vars pick other directories
		{"shopt -s cdable_vars; cd v; ls", 2, nil, true},
		{"CDPATH=sub cd d; ls", 1, nil, true},
		{"(shopt -s cdable_vars); cd l; ls", 2, []string{cwd, cwd + "/l"}, false},
		// after cd -P the shell is where the link led: .. is its parent
		{"cd -P l; cd ..; ls", 2, []string{cwd, cwd + "/l", "/work", cwd + "/..", cwd + "/l/.."}, false},
		// ".." after a link: cd -P takes it physically, plain cd when the
		// lexical path does not exist; the policy resolves what is kept
		{"cd -P x/.. && ls", 1, []string{cwd, cwd + "/x/.."}, false},
		{"cd x/../gh && ls", 1, []string{cwd, cwd + "/gh", cwd + "/x/../gh"}, false},
		{"cd -LP /a/x/.. && ls", 1, []string{cwd, "/a/x/.."}, false},
		{"cd -PL x/.. && ls", 1, []string{cwd, cwd + "/x/.."}, false},
		{"set -P; cd x; cd ..; ls", 3, []string{cwd, cwd + "/x", cwd + "/..", cwd + "/x/.."}, false},
		{"set -o physical; cd ..; ls", 2, []string{cwd, cwd + "/.."}, false},
		{"(cd /etc); ls", 1, []string{cwd}, false},
		{"cd /etc | cat; ls", 2, []string{cwd}, false},
		{"echo $(cd /etc; pwd); ls", 2, []string{cwd}, false},
		{"bash -c 'cd /etc'; ls", 2, []string{cwd}, false},
		{"bash -c 'cd /etc; cat ssh/k'", 2, []string{cwd, "/etc"}, false},
		{"eval 'cd /etc'; ls", 2, []string{cwd, "/etc"}, false},
		{"builtin cd /etc; ls", 2, []string{cwd, "/etc"}, false},
		{"command cd /etc; ls", 2, []string{cwd, "/etc"}, false},
		{"timeout 5 cd /etc; ls", 2, []string{cwd}, false},
		{"cd /etc & ls", 1, []string{cwd}, false},
		{"pushd /etc; popd; ls", 2, []string{cwd, "/etc"}, false},
		{"f() { cd /etc; }; ls", 1, []string{cwd}, false},
		{`cd "$d" && ls`, 1, nil, true},
		{"cd - && ls", 1, nil, true},
		{"popd; ls", 1, nil, true},
		{"pushd; ls", 1, nil, true},
		{"cd a b; ls", 1, nil, true},
		{"cd src*; ls", 1, nil, true},
		{"for d in a b; do ls; cd $d; done", 0, nil, true},
		{"while true; do cd x; done; ls", 2, nil, true},
		{"trap 'cd /etc' DEBUG; ls", 2, nil, true},
		{"$cmd /etc; ls", 1, nil, true},
		{"find . -execdir cat {} ;", 1, nil, true},
		{"find . -exec cat {} ;", 1, []string{cwd}, false},
	}
	for _, c := range cases {
		a := Analyse(c.src, Options{Home: home, Cwd: cwd})
		if a.Err != nil {
			t.Fatalf("%q: %v", c.src, a.Err)
		}
		if c.leaf >= len(a.Leaves) {
			t.Fatalf("%q: %d leaves", c.src, len(a.Leaves))
		}
		d := a.Leaves[c.leaf].Dir
		if d.Unknown != c.unknown {
			t.Errorf("%q leaf %q: unknown %v, want %v", c.src, a.Leaves[c.leaf].Text(), d.Unknown, c.unknown)
		}
		if !c.unknown && !reflect.DeepEqual(d.Paths, c.paths) {
			t.Errorf("%q leaf %q: dirs %q, want %q", c.src, a.Leaves[c.leaf].Text(), d.Paths, c.paths)
		}
	}
}

func TestRedirDirs(t *testing.T) {
	a := Analyse("cd /etc && echo x > hosts", Options{Cwd: "/w"})
	if len(a.Redirs) != 1 || !reflect.DeepEqual(a.Redirs[0].Dir.Paths, []string{"/w", "/etc"}) {
		t.Fatalf("redirs %+v", a.Redirs)
	}
	// the redirection of cd itself is opened before cd runs
	a = Analyse("cd /etc > out", Options{Cwd: "/w"})
	if !reflect.DeepEqual(a.Redirs[0].Dir.Paths, []string{"/w"}) {
		t.Fatalf("redirs %+v", a.Redirs[0].Dir)
	}
}

func TestInteractiveCdPath(t *testing.T) {
	// CDPATH from an interactive shell's startup files may pick another
	// directory for a bare name
	a := Analyse("cd src && ls", Options{Cwd: "/w", Interactive: true})
	if !a.Leaves[1].Dir.Unknown {
		t.Fatal("cd src in an interactive shell is not unknown")
	}
	a = Analyse("cd ./src && ls", Options{Cwd: "/w", Interactive: true})
	if a.Leaves[1].Dir.Unknown {
		t.Fatal("cd ./src in an interactive shell is unknown")
	}
}

// The directory the shell is in after the whole text is known only when
// certain: nothing changes it, or the text is one plain cd to a static
// target.
func TestDirAfter(t *testing.T) {
	const home, cwd = "/home/u", "/work/p"
	cases := []struct {
		src   string
		cwd   string
		known bool
		dir   string // "" when it stays in cwd
	}{
		{"ls -la", cwd, true, ""},
		{"ls && echo $(date)", cwd, true, ""},
		{"cd /etc", cwd, true, "/etc"},
		{"cd -- /etc/", cwd, true, "/etc"},
		{"cd", cwd, true, home},
		{"cd ~/x", cwd, true, home + "/x"},
		{"cd ..", cwd, true, "/work"},
		{"cd ./a/../b", cwd, true, cwd + "/b"},
		{"cd .", cwd, true, ""},
		{"cd /work/p", cwd, true, ""},
		{"cd ..", "rel", false, ""},
		{"cd /etc", "rel", true, "/etc"},
		// a bare name may be redirected by CDPATH
		{"cd sub", cwd, false, ""},
		{"cd -P /etc", cwd, false, ""},
		{"cd -- -x", cwd, false, ""},
		{"cd -", cwd, false, ""},
		{`cd "$X"`, cwd, false, ""},
		{"cd /a /b", cwd, false, ""},
		{"cd /etc && ls", cwd, false, ""},
		{"cd /etc; cd /tmp", cwd, false, ""},
		{"cd /etc > /dev/null", cwd, false, ""},
		{"CDPATH=/ cd /etc", cwd, false, ""},
		{"(cd /etc; ls)", cwd, false, ""},
		{"cd /etc &", cwd, false, ""},
		{"pushd /etc", cwd, false, ""},
		{"popd", cwd, false, ""},
		{"source env.sh", cwd, false, ""},
		{". env.sh", cwd, false, ""},
		{"eval cd /etc", cwd, false, ""},
		{"builtin cd /etc", cwd, false, ""},
		{"command ls", cwd, false, ""},
		{"exec ls", cwd, false, ""},
		{"$CMD /etc", cwd, false, ""},
		{"ls; echo \"$(cd /etc; pwd)\"", cwd, false, ""},
		{"ls 'unterminated", cwd, false, ""},
		{"ls $((x))", cwd, false, ""},
	}
	for _, c := range cases {
		a := Analyse(c.src, Options{Home: home, Cwd: c.cwd})
		got := a.DirAfter
		want := DirAfter{Known: c.known, Moved: c.dir != "", Dir: c.dir}
		if got != want {
			t.Errorf("%q from %q: DirAfter %+v, want %+v", c.src, c.cwd, got, want)
		}
	}
}

// Each cd keeps the directory before it (the cd may fail), so a chain of
// cds would multiply where every later command is judged: beyond
// maxDirs the directory is unknown, and the count stays bounded.
func TestCdChainBounded(t *testing.T) {
	a := Analyse(strings.Repeat("cd a && ", 5000)+"ls", Options{Cwd: "/w", Home: "/h"})
	ls := a.Leaves[len(a.Leaves)-1]
	if ls.Base() != "ls" || !ls.Dir.Unknown || len(ls.Dir.Paths) > maxDirs {
		t.Fatalf("ls after 5000 cds: %s in %d directories, unknown %v", ls.Base(), len(ls.Dir.Paths), ls.Dir.Unknown)
	}
	a = Analyse(strings.Repeat("cd a && ", maxDirs-1)+"ls", Options{Cwd: "/w", Home: "/h"})
	if ls := a.Leaves[len(a.Leaves)-1]; ls.Dir.Unknown || len(ls.Dir.Paths) != maxDirs {
		t.Fatalf("ls after %d cds: %d directories, unknown %v", maxDirs-1, len(ls.Dir.Paths), ls.Dir.Unknown)
	}
}
