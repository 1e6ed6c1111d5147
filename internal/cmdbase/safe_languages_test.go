package cmdbase_test

import (
	"testing"
)

// languagesExamples are the examples of safe_languages.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var languagesExamples = []safeGroup{
	{"a shell's syntax check",
		[]string{"bash -n build.sh", "sh -n install.sh", "dash -n x.sh", "bash -n"},
		[]string{"bash build.sh", "bash -n -x build.sh", "bash -n ~/.ssh/id_rsa", "bash -n a.sh b.sh", "sh -x install.sh", "dash -n $F"}},

	{"shell builtins",
		[]string{
			":", "true", "false", "echo hello", "pwd", "sleep 1", "cd src", "pushd /tmp", "popd", "dirs -v", "type ls",
			"[[ -f go.mod ]]", "test -d src", "[ -n x ]", "printf '%s\\n' a", "printf -v x %s a", "command -v git",
			"command -V ls", "bc -l", "jobs", "jobs -l", "alias", "alias ll", "shopt", "shopt extglob", "shopt -p", "history",
			"history 20", "fc -l", "fc -ln -10", "read x", "read -r line", "ulimit -a", "umask", "umask -S"},
		[]string{
			"help ./x", "help -x",
			"test -v 'a[$(id)]'", "[ -v 'x[$(id)]' ]", "printf $FMT", "printf -v 'a[$(id)]' x", "command rm x",
			"jobs -x kill %1", "alias ll='ls -l'", "shopt -s extglob", "shopt -u nullglob", "history -c", "history -w", "fc",
			"fc -e vi", "read -e x", "ulimit -n 10", "umask 077", "bc ~/.ssh/id_rsa"}},
	{"documentation",
		[]string{
			"hash", "hash -l", "hash -t ls", "help cd", "help -d cd", "help"},
		[]string{
			"hash ls", "hash -p /tmp/evil ls", "hash -r"}},
	{"more coreutils and util-linux",
		[]string{
			"getopt -o ab: -- -a -b x"},
		[]string{
			"getopt -o a -- $(rm x)"}},
}

func TestSafeLanguages(t *testing.T) { checkSafeExamples(t, languagesExamples) }
