package cmdbase_test

import (
	"testing"
)

// coreutilsExamples are the examples of safe_coreutils.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var coreutilsExamples = []safeGroup{
	{"listing and identity",
		[]string{
			"ls -la src", "dir", "vdir", "stat go.mod", "du -sh .", "df -h", "wc -l go.mod", "basename /a/b.txt .txt",
			"dirname /a/b", "realpath .", "readlink -f go.mod", "which go", "whereis ls", "whoami", "id -u", "groups",
			"logname", "users", "tty", "uname -r", "arch", "nproc", "getconf PAGE_SIZE", "seq 1 10", "numfmt --to=iec 1024",
			"expr 1 + 2", "factor 12", "cal", "md5sum go.mod", "sha1sum go.mod", "sha224sum go.mod", "sha256sum go.mod",
			"sha384sum go.mod", "sha512sum go.mod", "cksum go.mod", "b2sum go.mod", "date", "date +%s",
			"date -d yesterday +%F", "file go.mod", "tree -L 2"},
		[]string{
			"hostid x", "pathchk --frob x",
			"md5sum ~/.ssh/id_rsa", "stat ~/.ssh/id_rsa", "date -s 12:00", "date 010100002030", "date --set=tomorrow",
			"file -C -m magic", "tree -o out.txt", "tree -R"}},
	{"readers and pagers",
		[]string{
			"cat go.mod", "tac go.mod", "nl go.mod", "head -n 5 go.mod", "head -c 16 /dev/urandom", "tail -n 20 app.log",
			"less go.mod", "more go.mod", "more +10 go.mod", "most go.mod", "less --tabs=4 go.mod", "less -x4 -N go.mod"},
		[]string{
			"cat ~/.ssh/id_rsa", "head .env", "tail /dev/zero", "cat /dev/urandom", "less +!id go.mod",
			"less -o log.txt go.mod", "less --lesskey-file=k go.mod", "more +!id go.mod", "most ~/.aws/credentials",
			// a tag opens the file the tags file names
			"less -t main", "less -tmain", "less -T tags -t main", "less --tag=main", "less --tag main", "less -Nt main"}},
	{"formatters",
		[]string{
			"sum README.md", "sum -r README.md", "nl a", "tac a", "numfmt --to=iec 1024"},
		[]string{
			"sum ~/.ssh/id_ed25519", "nl ~/.ssh/id_rsa"}},
	{"system queries",
		[]string{
			"pathchk -p a/b", "hostid", "namei -l /usr/bin/ls", "lsattr a", "kill -l", "kill -l 9", "kill -L", "id", "groups",
			"nproc", "arch", "uname -a"},
		[]string{
			"cat /proc/1/maps", "kill 1234", "kill -9 1234", "kill -l 9 1234", "kill -s TERM 1", "namei ~/.ssh/id_rsa",
			"lsattr ~/.ssh/id_rsa"}},
	{"more coreutils and util-linux",
		[]string{
			"dircolors -p", "dircolors -b", "mcookie", "ionice", "ionice -p 1"},
		[]string{
			"dircolors ~/.ssh/id_rsa", "mcookie -f ~/.ssh/id_rsa", "ionice -c 3 -p 1", "ionice -n 7 cmd", "ionice cmd"}},
	{"binaries and metadata",
		[]string{
			"getfacl a", "getfacl -R src"},
		[]string{
			"getfacl ~/.ssh/id_rsa"}},
	{"users, identifiers and terminals",
		[]string{
			"pinky", "pinky -s root", "uuidgen", "uuidgen -r", "uuidgen --md5 --namespace @dns --name example.com", "clear",
			"clear -x", "infocmp", "infocmp -1 xterm", "toe", "toe -a"},
		[]string{
			"pinky -l root", "uuidgen -t", "uuidgen --time", "clear now", "infocmp -o x", "toe /etc/terminfo"}},
	{"endless printers",
		[]string{
			"yes | head", "yes n | head -3", "yes | head -c 100 | wc -c"},
		[]string{
			"yes", "yes > out.txt", "yes -x | head", "yes $(cat ~/.ssh/id_rsa) | head"}},
	{"version and help",
		[]string{
			"ls --help"},
		[]string{}},
}

func TestSafeCoreutils(t *testing.T) { checkSafeExamples(t, coreutilsExamples) }
