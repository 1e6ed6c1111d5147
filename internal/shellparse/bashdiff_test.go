package shellparse

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

// The differential harness runs a command line under a real bash inside a
// bubblewrap sandbox whose /usr/bin holds only recording stubs: every
// program bash executes, by name through PATH or by absolute path, and
// every name bash fails to find (command_not_found_handle), leaves its argv
// in a log instead of acting. The root file system is read-only, the
// network and the other processes are out of reach, and only a scratch
// directory is writable. What bash really executed is then compared with
// the leaves Analyse reported.

// stubNames get a recording program in the sandbox's /usr/bin; every
// other name reaches command_not_found_handle, which records it too.
var stubNames = []string{
	"aaa", "bbb", "ccc", "ddd", "eee",
	"ls", "cat", "rm", "cp", "mv", "mkdir", "grep", "sed", "awk", "find", "xargs", "env", "timeout",
	"nice", "nohup", "sudo", "sh", "bash", "dash", "git", "curl", "wget", "echo", "printf", "true",
	"false", "test", "[", "head", "tail", "sort", "uniq", "wc", "tr", "cut", "tee", "chmod", "touch",
	"date", "id", "whoami", "python3", "node", "make", "dd", "ln", "stat", "seq", "yes", "sleep",
	"kill", "ps", "stdbuf", "setsid", "time", "su", "xxd", "base64", "jq", "tar", "ssh", "docker",
}

const (
	sandboxBash = "/usr/bin/.nb-real-bash" // the real bash, bound over a stub file
	sandboxEnv  = "/usr/bin/.nb-env"       // BASH_ENV: defines command_not_found_handle
	sandboxLog  = "/tmp/.nb-log"           // one file per execution
	sandboxWork = "/tmp/w"                 // the scratch directory, also HOME
)

type bashSandbox struct {
	bash, bwrap string
	stubs       string // host directory bound as /usr/bin
	empty       string // host directory bound over the other program directories
	log, work   string
}

// execRecord is one program execution bash made: argv[0] is the base name
// of the program (or the name bash could not find).
type execRecord struct {
	argv     []string
	notFound bool
}

func newBashSandbox(t testing.TB) *bashSandbox {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the bash sandbox needs Linux namespaces")
	}
	sb := &bashSandbox{bash: testenv.Tool(t, "bash"), bwrap: testenv.Tool(t, "bwrap")}
	dir := t.TempDir()
	sb.stubs, sb.empty = filepath.Join(dir, "bin"), filepath.Join(dir, "empty")
	sb.log, sb.work = filepath.Join(dir, "log"), filepath.Join(dir, "work")
	for _, d := range []string{sb.stubs, sb.empty, sb.log, sb.work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub := "#!" + sandboxBash + "\nprintf '%s\\0' \"${0##*/}\" \"$@\" > " + sandboxLog + "/x$BASHPID.$RANDOM\n"
	for _, n := range stubNames {
		if err := os.WriteFile(filepath.Join(sb.stubs, n), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := "command_not_found_handle() { printf '%s\\0' \"$@\" > " + sandboxLog + "/n$BASHPID.$RANDOM; return 127; }\n"
	if err := os.WriteFile(filepath.Join(sb.stubs, ".nb-env"), []byte(env), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.stubs, ".nb-real-bash"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	recs, out, err := sb.run("aaa 'x y'; /usr/bin/bbb; zzz q", "C")
	want := []execRecord{{argv: []string{"aaa", "x y"}}, {argv: []string{"bbb"}}, {argv: []string{"zzz", "q"}, notFound: true}}
	if err != nil || fmt.Sprint(recs) != fmt.Sprint(want) {
		testenv.Missing(t, fmt.Sprintf("the bubblewrap sandbox does not work here: %v, recorded %v, output %q", err, recs, out))
	}
	return sb
}

// run executes src under the sandboxed bash and returns the executions in
// the order they were recorded, and the first bytes of the output.
// locales are those bash runs in: the plain C locale and a UTF-8 one,
// where $'\u…' and multibyte characters differ.
var locales = []string{"C", "C.UTF-8"}

// localesFor are the locales worth running src in: both when it has
// non-ASCII bytes or Unicode escapes, else one.
func localesFor(src string) []string {
	for i := 0; i < len(src); i++ {
		if src[i] >= 0x80 || src[i] == '\\' && i+1 < len(src) && (src[i+1] == 'u' || src[i+1] == 'U') {
			return locales
		}
	}
	return locales[1:]
}

func (sb *bashSandbox) run(src, locale string) ([]execRecord, string, error) {
	for _, d := range []string{sb.log, sb.work} {
		if err := os.RemoveAll(d); err != nil {
			return nil, "", err
		}
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, "", err
		}
	}
	// directories to cd into, one through a symbolic link
	if err := os.MkdirAll(filepath.Join(sb.work, "sub", "deep"), 0o755); err != nil {
		return nil, "", err
	}
	if err := os.Symlink("sub/deep", filepath.Join(sb.work, "ln")); err != nil {
		return nil, "", err
	}
	args := []string{
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--ro-bind", sb.stubs, "/usr/bin", "--ro-bind", sb.bash, sandboxBash,
	}
	for _, d := range []string{"/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/usr/games", "/usr/local/games", "/snap/bin"} {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			args = append(args, "--ro-bind", sb.empty, d)
		}
	}
	// limits apply inside the sandbox's own user namespace: a process
	// bomb or a memory or file hog stays small
	limits := "ulimit -u 256; ulimit -v 4000000; ulimit -f 20000; exec " + sandboxBash + ` -c "$1"`
	args = append(args,
		"--bind", sb.log, sandboxLog, "--bind", sb.work, sandboxWork, "--chdir", sandboxWork,
		"--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
		"--setenv", "PATH", "/usr/bin", "--setenv", "HOME", sandboxWork, "--setenv", "BASH_ENV", sandboxEnv,
		"--setenv", "LC_ALL", locale,
		sandboxBash, "-c", limits, "nb", src)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sb.bwrap, args...)
	var out capped
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	_ = cmd.Run() // the exit status of the command line does not matter
	entries, err := os.ReadDir(sb.log)
	if err != nil {
		return nil, out.String(), err
	}
	var recs []execRecord
	type stamped struct {
		at  time.Time
		rec execRecord
	}
	var all []stamped
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(sb.log, e.Name()))
		if err != nil || !bytes.HasSuffix(data, []byte{0}) {
			continue // not written by a stub, or cut short
		}
		argv := strings.Split(string(data[:len(data)-1]), "\x00")
		info, _ := e.Info()
		var at time.Time
		if info != nil {
			at = info.ModTime()
		}
		all = append(all, stamped{at, execRecord{argv: argv, notFound: strings.HasPrefix(e.Name(), "n")}})
	}
	slices.SortStableFunc(all, func(a, b stamped) int { return a.at.Compare(b.at) })
	for _, s := range all {
		recs = append(recs, s.rec)
	}
	return recs, out.String(), nil
}

// created lists the files the last run left in the scratch directory, as
// absolute paths inside the sandbox.
func (sb *bashSandbox) created() []string {
	var out []string
	_ = filepath.WalkDir(sb.work, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(sb.work, p)
			out = append(out, path.Join(sandboxWork, filepath.ToSlash(rel)))
		}
		return nil
	})
	return out
}

// canon resolves a path inside the scratch directory as the kernel does
// when bash opens it: links first, then the .. after them.
func (sb *bashSandbox) canon(p string) string {
	rel, ok := strings.CutPrefix(p, sandboxWork+"/")
	if !ok {
		return path.Clean(p)
	}
	host := sb.work + "/" + rel // not joined: that would remove .. lexically
	i := strings.LastIndex(host, "/")
	dir, base := host[:i], host[i+1:]
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || base == "" || base == "." || base == ".." {
		return path.Clean(p)
	}
	root, err := filepath.EvalSymlinks(sb.work)
	if err != nil {
		return path.Clean(p)
	}
	inside, err := filepath.Rel(root, filepath.Join(real, base))
	if err != nil || strings.HasPrefix(inside, "..") {
		return path.Clean(p)
	}
	return path.Join(sandboxWork, filepath.ToSlash(inside))
}

// capped keeps the first 4 KiB written to it.
type capped struct{ b bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := 4096 - c.b.Len(); room > 0 {
		c.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) String() string { return c.b.String() }

// opaque reports whether the analysis itself says it does not know
// everything the text runs: then policy asks, whatever bash executes.
func opaque(a *Analysis) bool {
	if a.Err != nil || len(a.Unknown) > 0 {
		return true
	}
	for _, l := range a.Leaves {
		if len(l.Unknown) > 0 || l.Name() == "" {
			return true
		}
	}
	return false
}

// codeFromFile are builtins that run shell code the text does not show
// (a script file); the analysis reports them as leaves and policy never
// takes them as safe.
var codeFromFile = map[string]bool{"source": true, ".": true}

// divergences compares what bash executed with what the analysis foresaw:
// every execution must be a leaf of the same (base) name, and when every
// leaf of that name is fully static, one of them must have exactly the
// executed argv. Nothing is reported when the analysis says it cannot see
// everything.
//
// Every file the command line created must be the target of a redirection
// that writes, at the same path when the target and the directory are
// static.
func divergences(a *Analysis, recs []execRecord, created []string, canon func(string) string) []string {
	if canon == nil {
		canon = path.Clean
	}
	if opaque(a) {
		return nil
	}
	for _, l := range a.Leaves {
		if codeFromFile[l.Base()] {
			return nil
		}
	}
	var out []string
	for _, r := range recs {
		name := r.argv[0]
		var same []*Leaf
		for _, l := range a.Leaves {
			if l.Base() == name || r.notFound && l.Name() == name {
				same = append(same, l)
			}
		}
		if len(same) == 0 {
			out = append(out, fmt.Sprintf("bash executed %q, which no leaf names", r.argv))
			continue
		}
		matched := false
		for _, l := range same {
			if !allStatic(l) || sameArgv(l, r) {
				matched = true
				break
			}
		}
		if !matched {
			var leaves []string
			for _, l := range same {
				leaves = append(leaves, argvOf(l, r.notFound))
			}
			out = append(out, fmt.Sprintf("bash executed %q; the static leaves say %s", r.argv, strings.Join(leaves, " or ")))
		}
	}
	for _, f := range created {
		if !redirWrites(a, f, canon) && !slices.ContainsFunc(a.Leaves, writesFiles) {
			out = append(out, fmt.Sprintf("bash created %s, which no redirection writes", f))
		}
	}
	return out
}

// writesFiles reports builtins that write files named by their arguments
// (policy judges them, they are no redirections).
func writesFiles(l *Leaf) bool { return l.Base() == "history" && len(l.Words) > 1 }

// redirWrites reports whether a redirection of the analysis may write
// file: one that writes to a dynamic target or from an unknown directory,
// or to a static target that resolves to file.
func redirWrites(a *Analysis, file string, canon func(string) string) bool {
	for _, r := range a.Redirs {
		if !r.Write {
			continue
		}
		if !r.Target.Static() || r.Dir.Unknown {
			return true
		}
		t := r.Target.Text
		if path.IsAbs(t) {
			if canon(t) == file {
				return true
			}
			continue
		}
		for _, d := range r.Dir.Paths {
			if canon(strings.TrimSuffix(d, "/")+"/"+t) == file {
				return true
			}
		}
	}
	return false
}

// sameArgv reports whether the static leaf l has the executed argv, or is
// its start when more arguments are appended at run time.
func sameArgv(l *Leaf, r execRecord) bool {
	argv := r.argv
	if l.ArgsAppended && len(argv) > len(l.Words) {
		argv = argv[:len(l.Words)]
	}
	return argvOf(l, r.notFound) == fmt.Sprintf("%q", argv)
}

func allStatic(l *Leaf) bool {
	for _, w := range l.Words {
		if !w.Static() {
			return false
		}
	}
	return true
}

// argvOf is the leaf's argv as a stub records it: the base name of the
// program, or the name as written when bash did not find it.
func argvOf(l *Leaf, asWritten bool) string {
	argv := make([]string, len(l.Words))
	for i, w := range l.Words {
		argv[i] = w.Text
	}
	if !asWritten {
		argv[0] = l.Base()
	}
	return fmt.Sprintf("%q", argv)
}

// bashCorpus are command lines whose leaves bash and the analysis must
// agree on. Each executes at least one program.
var bashCorpus = []string{
	// quoting and escapes
	`aaa ~:x ~=~ ~=x ~root:x ~:"x" ~=~/a a=~:~`,
	`coproc aaa X=1 b=2; wait`, `coproc bbb X+=1 Y=; wait`,
	`aaa ~$ ~$x x=~$ ~$/y ~\$ "~"$ ~/$`,
	`aaa 'a b' "c d" e\ f`,
	`aaa "a'b" 'c"d' "e\"f" "g\\h" "i\$j" 'k\l'`,
	`aaa \a\b\\c \'d \"e`,
	`aaa "a\
b" c\
d`,
	`a"a"a 'x'"y"z`,
	`aaa '' "" x`,
	`aaa "\n\t" '\n'`,
	`aaa "$(:)x" "a  b"`,
	// ANSI-C quoting
	`aaa $'a\tb' $'\x41\101\u00e9' $'\e\a\cA'`,
	`$'\x61aa' $'q\'r'`,
	`aaa $'a\0b'c $'\x00'd`,
	`aaa $"x y"`,
	`aaa $'\q' $'\z' $'\u'`,
	`aaa $'\x{41}' $'\x{4142}' $'\x{2e}env' $'\x{0}b' $'\x{41' $'\x{}'`,
	`aaa $'\u80' $'\u00e9' $'\U0001F600' $'\u0063'`,
	// brace expansion and globs
	`aaa {a,b}c {1..3} x{,y}`,
	`aaa '{a,b}' "{1..2}" \{a,b\}`,
	`aaa {a} {} a{b c}`,
	`{aaa,bbb} x`,
	`aaa * ? [ab] 'x*'`,
	`aaa ~ ~/x x~ a=~/y`,
	`aaa --opt=~/x -I~/y`,
	// arithmetic
	`aaa $((1+2)) $[3*4] "$((5))"`,
	`(( x = 1 )) && aaa $x`,
	`let 'y=2' && aaa`,
	`for ((i=0;i<2;i++)); do aaa $i; done`,
	// aliases are off in bash -c
	"alias aaa=bbb\naaa x",
	"shopt -s expand_aliases\nalias q=bbb\nq y",
	// heredocs and here-strings
	"aaa <<EOF\nline $(bbb)\nEOF",
	"aaa <<'EOF'\n$(bbb)\nEOF",
	"aaa <<-EOF\n\tx\n\tEOF\nccc",
	"aaa <<< \"$(bbb) x\"",
	"aaa <<A; bbb <<B\n1\nA\n2\nB",
	// process and command substitution
	`aaa <(bbb) >(ccc); wait`,
	`aaa "$(bbb "$(ccc)")" ` + "`ddd`",
	`x=$(aaa) y=` + "`bbb`" + ` ccc`,
	// eval, command, builtin, exec
	`eval aaa x 'y z'`,
	`eval "aaa \"p q\""`,
	`eval 'aaa; bbb' && eval ccc`,
	`command aaa x`,
	`command -p aaa`,
	`command -- aaa y`,
	`builtin echo x; aaa`,
	`builtin command aaa`,
	`exec aaa z`,
	`exec -a name aaa`,
	`exec -c aaa`,
	`exec 3>/dev/null aaa`,
	`exec >/dev/null; aaa`,
	// functions
	`f() { aaa "$@"; }; f x`,
	`function g { bbb; }; g; aaa`,
	`aaa() { bbb; }; command aaa`,
	`h() { aaa; }; unset -f h; bbb`,
	// redirections and fd dups
	`aaa <>file 3<>f2`,
	`aaa &>out; bbb &>>out`,
	`aaa 2>&1 >&2 3>&1- <&0 4>&-`,
	`aaa >|out 2>>err`,
	`aaa >file; bbb <file`,
	`> file aaa x`,
	`aaa 2>/dev/null >&out`,
	`{ aaa; bbb; } >out 2>&1`,
	`aaa {fd}>out`,
	`aaa 2>&-x`,
	`2>& -aaa y`,
	`aaa; bbb 3>&"-"x 4<&\-y`,
	// wrappers: the wrapper runs, the inner command is a leaf of its own
	`env X=1 aaa`,
	`timeout 5 aaa`,
	`nice -n 1 aaa`,
	`nohup aaa`,
	`sudo aaa`,
	`xargs aaa </dev/null`,
	`bash -c 'aaa'`,
	`sh -c "bbb x"`,
	// compound commands
	`if aaa; then bbb; else ccc; fi`,
	`case x in x) aaa;; *) bbb;; esac`,
	`while ! aaa; do :; done`,
	`until aaa; do :; done`,
	`for x in a 'b c'; do aaa "$x"; done`,
	`select x in a; do aaa $x; break; done <<< 1`,
	`[[ -n x ]] && aaa`,
	`aaa | bbb |& ccc`,
	`coproc aaa; wait`,
	`coproc N { aaa; }; wait`,
	`coproc aaa >x; wait`,
	`coproc a=1 aaa y; wait`,
	`coproc a=$(bbb) b=2 aaa; wait`,
	`coproc aaa 2>&1 </dev/null; wait`,
	`aaa >x; bbb >>y 2>z &>w &>>v 3<>u >|t`,
	`aaa 3>x >&3; >y 2>&1 bbb; ccc 1<>z 0<>w 10>v 255>u`,
	`aaa >ln/../d >sub/deep/../../e >./ln/x >sub//f >/tmp/w/./g`,
	`aaa >- >-- >"" 2>/dev/null; bbb >$'x	y' >\~`,
	`mkdir d; cd d 2>/dev/null; aaa >x`,
	// directories: sub/deep exists, ln links to it
	`cd sub; aaa >x; cd deep && bbb >y; cd ../..; ccc >z`,
	`cd ln; aaa >x; cd ..; bbb >y`,
	`aaa >ln/../x; bbb >sub/../y; cd ln/..; ccc >z`,
	`cd ln; cd -P ..; aaa >x`,
	`cd -P ln; cd ..; aaa >x`,
	`set -P; cd ln; cd ..; aaa >x`,
	`CDPATH=sub cd deep >/dev/null; aaa >x`,
	`pushd sub >/dev/null; aaa >x; popd >/dev/null; bbb >y`,
	`(cd sub; aaa >x); bbb >y; cd sub | true; ccc >z`,
	`cd; cd sub; cd; aaa >x`,
	`aaa >~/x >"a b" >$'c	d' >e\ f`,
	`{ aaa; } >x; (bbb) >y; f() { ccc; } >z; f`,
	`aaa > >(bbb >p); wait`,
	`eval 'aaa >e'; bash -c 'bbb >f'`,
	`time aaa`,
	`! aaa`,
	`aaa & wait`,
	// assignments and declarations
	`X=1 aaa`,
	`declare x=$(aaa)`,
	`export y=1; aaa`,
	`local z=1 2>/dev/null; aaa`,
	`readonly r=$(aaa)`,
	// comments, newlines, odd spacing
	"aaa # bbb\nccc",
	"aaa\\\n x",
	"aaa;bbb&&ccc||ddd",
	"aaa\n\n\tbbb",
	`aaa x#y '#'z`,
	// keywords, builtins and their options
	`time -- aaa`,
	`time -p -- aaa | bbb`,
	`aaa | time bbb | ccc`,
	`aaa |& time -p bbb x`,
	"aaa #\\\nbbb",
	`! aaa | bbb`,
	`compgen -C aaa x; bbb`,
	`command -v aaa; command -V bbb; ccc`,
	`builtin eval aaa; command exec bbb`,
	`exec -al aaa bbb y`,
	`exec -a -- aaa`,
	`enable -n echo; echo x`,
	`enable -n test; test x`,
	`hash aaa; type bbb; ccc`,
	"history -s 'aaa x'; fc -s; bbb",
	`set -f; aaa *`,
	`set +B; aaa {a,b}`,
	`shopt -s nullglob; aaa *.q`,
	"shopt -s extglob\naaa @(x|y) !(z)",
	`set -- a 'b c'; aaa "$@"`,
	`case x in x) aaa;& y) bbb;; esac`,
	`case x in x) aaa;;& x) bbb;; esac`,
	`for x do aaa; done; bbb`,
	`for x in a b; { aaa $x; }`,
	`[ x \< y ] && aaa`,
	`[[ x =~ $(aaa) ]]`,
	// words
	`aaa ~+ ~- a~ :~ x=:~ --a=~:~`,
	`aaa x=~/a:~/b`,
	`aaa {a..c..2} {01..3} {a..}`,
	`aaa {"a,b"} {a,'b'} {,} {a\,b} -{a,b}-`,
	`aaa "${x}"{a,b} ${x:-{a,b}}`,
	`aaa [a] ['a'] [!a] a[ ]b`,
	`aaa ${#x} ${x#a} ${x%%b} "${y:-d e}"`,
	"aaa `echo \\`bbb\\``",
	"aaa \"`echo '\\\"'`\"",
	`aaa $"$(bbb)"`,
	"cat <<< $'$(aaa)'; bbb",
	`x=$((1)) aaa`,
	// redirections in odd places
	`aaa 1>x 2>y 3>z 10>w 0<>v`,
	`aaa >&2- 2>&1- <&-`,
	`aaa 2>& 1 x`,
	`2>x aaa; x=1 >y bbb`,
	`aaa > >(bbb) 2> >(ccc); wait`,
	`aaa <(bbb)<(ccc) x=<(ddd)`,
	// program paths
	`/usr/bin/../bin/aaa; /usr//bin/bbb; //usr/bin/ccc; /bin/ddd`,
	`\aaa; \a\a\a; a\aa`,
	`aaa''; ""bbb; "ccc x"; 'ddd y'`,
	// not found by PATH lookup
	`zzz x`,
	`command zzz`,
	`./aaa; /usr/bin/aaa q`,
	// special characters in names and arguments
	`aaa -- -x --y=z`,
	`aaa a=b c:d e@f %g ^h`,
	`aaa "é" ü 日本`,
	`aaa $'\xff\xfe'`,
	`aaa ""x""`,
	`"aaa" 'x'\''y'`,
	// variables whose values the analysis knows
	`aaa $HOME "$HOME/a b" ${HOME}x $PWD/y "${PWD}"`,
	`cd /tmp; aaa $PWD; cd -; bbb $PWD`,
	`aaa ~$HOME ~"$PWD"`,
	`HOME=/tmp; aaa $HOME`,
	`export PWD=/x; aaa $PWD`,
	`aaa ${HOME%/*} ${#HOME} ${HOME:1}`,
	// variables given a literal value once before their uses
	`f=a.txt; aaa "$f" $f ${f}.bak "${f}"x`,
	`f=a.txt && aaa $f || bbb "$f"; ccc $f`,
	`d='a b'; aaa "$d" $d`,
	`g="x*"; aaa "$g" $g`,
	`e=; aaa $e "$e" x`,
	`p=/tmp q=y; cd $p; aaa "$q" $p/$q`,
	`f=a; (aaa $f); bbb $(echo $f); ccc <<EOF
$f
EOF`,
	`f=a; f=b; aaa $f`,
	`f=a; read f <<< b; aaa "$f"`,
	`f=a; eval $'\x66=b'; aaa "$f"`,
	`f=a; declare $'\x66'=b; aaa "$f"`,
	`f=a; printf -v f b; aaa "$f"`,
	`f=a; : ${f:=b}; aaa "$f"`,
	`aaa "$f"; f=a; bbb "$f"`,
	`true && f=a; aaa "$f"`,
	`f=a | aaa "$f"`,
	`f=a; for f in b; do :; done; aaa "$f"`,
	`f=a; f=b bbb; aaa "$f"`,
	`export f=a g='b c'; aaa "$f" $f "$g"`,
	`export -n f=a; aaa "$f"`,
	`declare -u f=a; aaa "$f"`,
}

// TestBashDifferential runs bashCorpus in the sandboxed bash and fails on
// any program bash executed that the analysis did not report, or reported
// as fully static with other arguments.
func TestBashDifferential(t *testing.T) {
	sb := newBashSandbox(t)
	for _, src := range bashCorpus {
		a := Analyse(src, Options{Home: sandboxWork, Cwd: sandboxWork})
		if a.Err != nil {
			t.Errorf("%q: parse error %v", src, a.Err)
			continue
		}
		for _, loc := range localesFor(src) {
			recs, out, err := sb.run(src, loc)
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if len(recs) == 0 {
				t.Errorf("%q (LC_ALL=%s): bash executed nothing (output %q): the case tests nothing", src, loc, out)
				continue
			}
			for _, d := range divergences(a, recs, sb.created(), sb.canon) {
				t.Errorf("%q (LC_ALL=%s): %s (leaves %q)", src, loc, d, leafTexts(a))
			}
		}
	}
}

// TestBashDifferentialCatches keeps the harness honest: a wrong view of a
// command must be reported.
func TestBashDifferentialCatches(t *testing.T) {
	sb := newBashSandbox(t)
	recs, out, err := sb.run(`aaa 'x y'`, "C")
	if err != nil || len(recs) != 1 {
		t.Fatalf("recorded %v (output %q, %v)", recs, out, err)
	}
	for _, wrong := range []string{`aaa x y`, `aaa 'x  y'`, `bbb 'x y'`, `aaa`} {
		if d := divergences(Analyse(wrong, Options{}), recs, nil, nil); len(d) == 0 {
			t.Errorf("the analysis of %q passes for bash running `aaa 'x y'`", wrong)
		}
	}
	if d := divergences(Analyse(`aaa "$X"`, Options{}), recs, nil, nil); len(d) != 0 {
		t.Errorf("a dynamic argument is reported: %v", d)
	}
	if recs, _, err = sb.run(`aaa >'x y'`, "C"); err != nil {
		t.Fatal(err)
	}
	opts := Options{Home: sandboxWork, Cwd: sandboxWork}
	if d := divergences(Analyse(`aaa >'x y'`, opts), recs, sb.created(), sb.canon); len(d) != 0 {
		t.Errorf("a write bash made as the analysis says is reported: %v", d)
	}
	for _, wrong := range []string{`aaa >x`, `aaa <'x y'`, `aaa 2>&1`, `aaa >'/x y'`} {
		if d := divergences(Analyse(wrong, opts), recs, sb.created(), sb.canon); len(d) == 0 {
			t.Errorf("the analysis of %q passes for bash running `aaa >'x y'`", wrong)
		}
	}
}

// FuzzBashDifferential runs mutated command lines under the sandboxed
// bash and compares what it executed with the analysis. Inputs the
// analysis rejects or marks as unknowable are not run.
func FuzzBashDifferential(f *testing.F) {
	if fl := flag.Lookup("test.fuzz"); fl != nil && fl.Value.String() != "" {
		// the corpus seeds the fuzzer; a plain go test runs it once, in
		// TestBashDifferential, and here only testdata/fuzz
		for _, s := range bashCorpus {
			f.Add(s)
		}
	}
	sb := newBashSandbox(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1000 || strings.ContainsRune(src, 0) {
			return
		}
		a := Analyse(src, Options{Home: sandboxWork, Cwd: sandboxWork})
		if opaque(a) || len(a.Recursive) > 0 {
			return // policy asks anyway; running it may not end
		}
		loc := locales[len(src)%len(locales)]
		recs, out, err := sb.run(src, loc)
		if err != nil {
			t.Fatal(err)
		}
		if d := divergences(a, recs, sb.created(), sb.canon); len(d) > 0 {
			t.Errorf("%q (LC_ALL=%s): %s (leaves %q; output %q)", src, loc, strings.Join(d, "; "), leafTexts(a), out)
		}
	})
}
