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
		if d := decideCmd(e, c.cmd, testCC); (d.Decision == Allow) != c.allow {
			t.Errorf("%q: %v (%v), want allow=%v", c.cmd, d.Decision, d.Reasons, c.allow)
		}
	}
	// an interactive shell's history holds what was typed
	if d := e.command("fc -l", testCC, true); d.Decision == Allow {
		t.Errorf("fc -l in an interactive shell allowed")
	}
}

// TestXargsFindPrint0 allows a reader run by xargs -0 on the names find
// -print0 prints only when the trees below find's starting points hold no
// secret, and asks for every other producer or splitting.
func TestXargsFindPrint0(t *testing.T) {
	e := newEngine(t, nil)
	cc := testCC
	cc.Facts = fakeFacts{secrets: map[string][]string{
		"/home/u/proj/keys": {"id_rsa"},
		"/home/u/proj/big":  nil, // too large to know
	}}
	for _, c := range []struct {
		cmd   string
		allow bool
	}{
		{`find . -name "*.go" -print0 | xargs -0 grep x`, true},
		{`find src -type f -print0 | xargs -0 cat`, true},
		{`find . -print0 | xargs --null wc -l`, true},
		{`find keys -print0 | xargs -0 cat`, false},                     // holds id_rsa
		{`find big -print0 | xargs -0 cat`, false},                      // not known
		{`find ~ -print0 | xargs -0 cat`, false},                        // the home holds secrets
		{`find . -name "*.go" | xargs grep x`, false},                   // split at blanks: a name may be an option
		{`find . -name "*.go" -print0 | xargs grep x`, false},           // not -0
		{`find . -print0 | xargs -0 -a list cat`, false},                // names from a file
		{`find . -print0 | xargs -0 -d x cat`, false},                   // another delimiter
		{`find . -print0 -print | xargs -0 cat`, false},                 // mixed output
		{`find . -printf "%p\0" | xargs -0 cat`, false},                 // a format may print anything
		{`find . -print0 | sort -z | xargs -0 cat`, false},              // not find's output directly
		{`find "$d" -print0 | xargs -0 cat`, false},                     // root known at run time
		{`git ls-files | xargs grep x`, false},                          // a tracked name may be an option
		{`git ls-files -z | xargs -0 cat`, false},                       // idem
		{`find . -print0 | xargs -0 sort -o out`, false},                // writes
		{`find . -print0 | xargs -0 rm`, false},                         // deletes
		{`find . -type f -print0 | xargs -0 grep -l AWS_SECRET`, false}, // searches for secrets
	} {
		if d := decideCmd(e, c.cmd, cc); (d.Decision == Allow) != c.allow {
			t.Errorf("%q: %v (%v), want allow=%v", c.cmd, d.Decision, d.Reasons, c.allow)
		}
	}
}

func TestXargsFindSelectsSecrets(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{
		`find . -name '.env*' -print0 | xargs -0 cat`, `find . -iname '*.PEM' -print0 | xargs -0 cat`,
		`find . -path '*/.ssh/*' -print0 | xargs -0 cat`, `find . -regex '.*' -print0 | xargs -0 cat`,
		`find . -name "$p" -print0 | xargs -0 cat`,
	} {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
}

// TestKnownVariables: $HOME and $PWD, which the command cannot have
// changed, are judged as the paths they are, by the secret-path rules.
func TestKnownVariables(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []struct {
		cmd   string
		allow bool
	}{
		{"cat $HOME/notes.txt", true}, {`head "${HOME}/notes.txt"`, true}, {"cat $PWD/README", true},
		{"cat $HOME/.ssh/id_rsa", false}, {`cat "$HOME/.aws/credentials"`, false}, {"grep -r x $HOME", false},
		{"HOME=/etc; cat $HOME/shadow", false}, {"export HOME=/etc; cat $HOME/shadow", false},
		{"cat ${HOME:-/etc}/shadow", false}, {"read HOME; cat $HOME/x", false}, {"cat $HOMEDIR/x", false},
		{"PWD=/etc cat $PWD/shadow", false},
		// PWD is no risky name: only "every mention of it is a read"
		// keeps a value set in the command from being taken for the
		// directory
		{"read PWD; cat $PWD/notes.txt", false}, {"export PWD=/etc; cat $PWD/passwd", false},
		{"PWD=/etc; head $PWD/passwd", false}, {"cd /etc; cat $PWD/passwd", false},
	} {
		d := e.Decide(Action{Kind: RunCommand, Command: c.cmd, Where: testCC})
		if (d.Decision == Allow) != c.allow {
			t.Errorf("%q: %v (%v), want allow=%v", c.cmd, d.Decision, d.Reasons, c.allow)
		}
	}
}

// TestStaticVariables: a variable given a literal value once, in a
// statement that always runs before its uses, is substituted; the file
// it names is then judged as any other (a secret asks), and every other
// assignment of it anywhere, or a use before or beside it, keeps it
// unknown.
func TestStaticVariables(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []struct {
		cmd   string
		allow bool
	}{
		{`FILE=a.txt; sort "$FILE"`, true}, {"FILE=a.txt; sort $FILE", true}, {"f=a.txt && wc -l $f", true},
		{`f="a b"; cat "$f"`, true}, {`d=src; f=main.go; cd $d && head -5 "$f"`, true},
		{`f=a.txt; (cat "$f")`, true}, {`f=a.txt; cat "$f" | grep x`, true},
		// the value is a secret
		{"f=.env; cat $f", false}, {"f=~/.ssh/id_rsa; cat $f", false}, {"f=/home/u/.ssh/id_rsa; cat $f", false},
		{`k=.ssh; cat ~/"$k"/id_rsa`, false},
		// assigned again, anywhere, by any spelling
		{"f=a.txt; f=.env; cat $f", false}, {`f=a.txt; eval "f=.env"; cat $f`, false},
		{`f=a.txt; eval $'\x66=.env'; cat $f`, false}, {`f=a.txt; read f < x; cat "$f"`, false},
		{`f=a.txt; printf -v f .env; cat "$f"`, false}, {`f=a.txt; builtin printf -v $'\x66' .env; cat "$f"`, false},
		{`f=a.txt; declare $'\x66'=.env; cat "$f"`, false}, {`f=a.txt; for f in .env; do :; done; cat "$f"`, false},
		{`f=a.txt; : ${f:=x}; cat $f`, false}, {`f=a.txt; trap "f=.env" DEBUG; cat "$f"`, false},
		{`f=a.txt; mapfile -t f < x; cat "$f"`, false}, {`f=a.txt; f=.env cat "$f"`, false},
		// not always run before the use, or not a literal
		{`cat "$f"; f=a.txt`, false}, {`f=a.txt | cat "$f"`, false}, {`true && f=a.txt; cat "$f"`, false},
		{`if true; then f=a.txt; fi; cat "$f"`, false}, {`f=a.txt & cat "$f"`, false}, {`f=$(x); cat "$f"`, false},
		{`f=a.txt; bash -c 'cat $f'`, false}, {`f="a b"; cat $f`, false}, {`f='*'; cat $f`, false},
		{`RANDOM=1; cat "$RANDOM"`, false},
	} {
		if d := decideCmd(e, c.cmd, testCC); (d.Decision == Allow) != c.allow {
			t.Errorf("%q: %v (%v), want allow=%v", c.cmd, d.Decision, d.Reasons, c.allow)
		}
	}
}

// goDirs answers Toolchain by directory.
type goDirs struct {
	NoFacts
	why map[string]string
}

func (g goDirs) Toolchain(_, dir string) string { return g.why[dir] }

// TestGoStaysLocal: go's read-only queries are allowed only where the
// disk says go would not fetch another release, and go env without names
// (GOPROXY, GOAUTH and GOFLAGS may hold credentials) always asks.
func TestGoStaysLocal(t *testing.T) {
	e := newEngine(t, nil)
	cc := testCC
	cc.Facts = goDirs{why: map[string]string{"/home/u/new": "go.mod asks for go 1.999"}}
	for _, c := range []struct {
		cmd   string
		allow bool
	}{
		{"go version", true}, {"go env GOPATH", true}, {"go help build", true}, {"go mod edit -json", true},
		{"cd /home/u/new && go version", false}, {"cd /home/u/new && go env GOMODCACHE", false},
		{"cd /home/u/new && go help", false}, {"go env", false}, {"go list ./...", false},
	} {
		if d := decideCmd(e, c.cmd, cc); (d.Decision == Allow) != c.allow {
			t.Errorf("%q: %v (%v), want allow=%v", c.cmd, d.Decision, d.Reasons, c.allow)
		}
	}
}
