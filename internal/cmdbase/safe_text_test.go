package cmdbase_test

import (
	"testing"
)

// textExamples are the examples of safe_text.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var textExamples = []safeGroup{
	{"shellcheck",
		[]string{"shellcheck build.sh", "shellcheck -f gcc -S warning a.sh b.sh", "shellcheck --shell=bash -e SC2086 x.sh", "shellcheck --norc -a x.sh"},
		[]string{"shellcheck -x build.sh", "shellcheck --rcfile /tmp/r x.sh", "shellcheck ~/.ssh/id_rsa", "shellcheck -P /tmp x.sh",
			// the project's .shellcheckrc may let it follow a source of any file
			"shellcheck -a x.sh", "shellcheck --check-sourced x.sh", "shellcheck -af gcc x.sh", "shellcheck --check x.sh"}},

	{"viewers, listers and filters",
		[]string{
			"bat README.md", "bat -n --paging=never go.mod", "bat -P -l go main.go", "bat -r 10:20 main.go", "batcat go.mod",
			"fdfind -e go", "eza -la", "eza -T -L 2 src", "eza --git -l", "exa -l", "exa --tree", "lsd -la", "lsd --tree",
			"ul a.txt", "colcrt a.txt", "ptx a.txt", "pdfinfo a.pdf", "pdfinfo -f 1 -l 2 a.pdf"},
		[]string{
			"bat --pager=sh a", "bat --paging=always a", "bat --paging always a", "bat cache --build", "bat cache --clear",
			"bat ~/.ssh/id_rsa", "bat .env", "bat --lessopen a", "bat --diagnostic", "batcat --pager x a", "fdfind -x rm",
			"fdfind -X rm", "eza --frob", "eza ~/.ssh", "exa --frob", "lsd --frob", "ul ~/.ssh/id_rsa", "colcrt .env",
			"ptx -G a.txt out.txt", "ptx -O a.txt > x", "ptx .env", "pdfinfo ~/.ssh/id_rsa", "pdfinfo -meta x.pdf"}},

	{"silver searcher, yq and line counters",
		[]string{
			"ag foo", "ag -i foo src", "ag -g go", "ag --go -l foo", "ag -A 3 foo | head", "ag --ignore vendor -w Foo .",
			"yq . f.yaml", "yq '.a' f.yaml", "yq e '.a.b' f.yaml", "yq -r '.items[].name' f.yaml", "yq -o json . f.yaml",
			"yq -y . a.json", "cloc .", "cloc src --by-file", "cloc --json --exclude-dir=vendor .", "cloc --include-lang=Go .",
			"tokei", "tokei src", "tokei -o json", "tokei -f -s code"},
		[]string{
			"ag --pager less foo", "ag --pager=less foo", "ag -z foo", "ag -f foo", "ag foo ~/.ssh", "ag password .env",
			"ag --filename-pattern x", "ag foo $DIR",
			"yq -i '.a = 1' f.yaml", "yq --in-place '.a = 1' f.yaml", "yq -s '.a' f.yaml", "yq --split-exp '.a' f.yaml",
			"yq 'load(\"/etc/passwd\")' f.yaml", "yq -n 'env(HOME)'", "yq -n strenv(TOKEN)", "yq '.a | envsubst' f.yaml",
			"yq -n '$ENV'", "yq --from-file x.yq f.yaml", "yq . ~/.kube/config", "yq . .env", "yq .env",
			"yq -n 'eval(\"lo\" + \"ad(1)\")'", "yq --front-matter=process . a.md",
			"cloc --out=x .", "cloc --report-file=r .", "cloc --sql=x .", "cloc --vcs=git", "cloc --git HEAD",
			"cloc --extract-with='sh -c id' a.tgz", "cloc a.tar.gz", "cloc src.zip", "cloc --config c.txt .",
			"cloc --print-filter-stages .", "cloc --script-lang=Perl,perl .", "cloc --diff a b", "cloc --strip-comments=x .",
			"cloc --write-lang-def=x", "cloc --report=x .", "cloc --sdir=/tmp/x .", "cloc --found=x .",
			"tokei -i previous.json", "tokei --input previous.json", "tokei --frob"}},

	{"searchers",
		[]string{
			"mlocate -i readme",
			"grep -rn TODO src", "egrep 'a|b' go.mod", "fgrep -n x go.mod", "zgrep error app.log.gz",
			"zegrep 'a|b' app.log.gz", "zfgrep x app.log.gz", "xzgrep x a.xz", "bzgrep x a.bz2", "rg TODO",
			"rg -n func -g '*.go'"},
		[]string{
			"mlocate ~/.ssh/id_rsa", "plocate --frob x",
			"grep --frobnicate x go.mod", "grep -r password ~/.ssh", "egrep x .env", "fgrep -f ~/.ssh/id_rsa go.mod",
			"zgrep -r x .", "zegrep x ~/.aws/credentials", "zfgrep x .env", "xzgrep -R x .", "bzgrep x ~/.ssh/id_rsa",
			"rg --pre ./x.sh TODO", "rg -z TODO"}},
	{"editors and filters",
		[]string{
			"mawk 'NR==1' go.mod",
			"nawk '{n++} END {print n}' go.mod", "jq .name package.json", "jq -r '.[] | .id' a.json", "sort -u go.mod",
			"sort -k2 -n a.txt", "uniq -c a.txt", "cut -d: -f1 a.txt", "tr a-z A-Z < a.txt", "look abc", "strings a.bin",
			"od -c a.bin", "hexdump -C a.bin", "xxd a.bin", "base64 a.bin", "base64 -d a.b64", "base32 a.bin", "diff -ru a b"},
		[]string{
			"mawk 'BEGIN{getline < \"/etc/shadow\"}'",
			"nawk '{print | \"sh\"}' go.mod", "jq -f filter.jq a.json", "jq -n env",
			"jq -L lib 'import \"x\" as x; .' a.json", "sort -o out.txt go.mod", "sort --compress-program=sh go.mod",
			"uniq a.txt out.txt", "cut -f1 .env", "diff .env .env.example", "xxd ~/.ssh/id_rsa", "xxd -r hex out",
			"base64 -o out a.bin", "base32 --output=x a.bin", "strings ~/.ssh/id_rsa", "od /dev/zero", "strings @list", "strings -- @list"}},
	{"archives and compressors",
		[]string{
			"zcat a.gz", "bzcat a.bz2", "xzcat a.xz", "gzip -c a.txt", "gzip -l a.gz", "gunzip -c a.gz", "bzip2 -dc a.bz2",
			"bunzip2 -c a.bz2", "xz -l a.xz", "unxz -c a.xz", "zstd -dc a.zst", "unzstd -c a.zst", "lz4 -dc a.lz4",
			"pigz -dc a.gz", "zstdcat a.zst", "unzip -l a.zip", "zipinfo a.zip",
			"bsdtar -tf a.tar", "gtar -tzf a.tgz"},
		[]string{
			"gzip a.txt", "gunzip a.gz", "bzip2 a.txt", "bunzip2 a.bz2", "xz a.txt", "unxz a.xz", "zstd a.txt",
			"unzstd a.zst", "lz4 a.txt out.lz4", "pigz a.txt", "zcat ~/.ssh/id_rsa.gz", "zstdcat ~/.ssh/id_rsa.zst", "zstdcat -o out a.zst", "zstdcat --output=out a.zst", "zstdcat --filelist=l",
			"xzcat -f --files=list", "xzcat --files0 list", "xzcat --fil=list",
			"zcat -rf ~", "zcat -f --recursive /", "gunzip -cfr ~", "gzip -cdrf ~/.ssh", "pigz -dcfr ~", "zstd -dcfr ~", "zstdcat -rf /etc", "lz4 -dcfr ~",
			"unzip a.zip", "zipinfo ~/.ssh/keys.zip", "bsdtar -xf a.tar",
			"gtar -tf host:/a.tar"}},
	{"formatters",
		[]string{
			"pr README.md", "pr -2 -t README.md", "pr -n:3 -h Title README.md", "pr +2 -l 40 README.md", "pr *.md",
			"tsort deps.txt", "shuf README.md", "shuf -n 3 -e a b c", "shuf -i 1-10", "iconv -f latin1 -t utf-8 a.txt",
			"iconv -l", "basenc --base16 README.md", "basenc -d --base32 x", "col -b < x", "colrm 1 4 < x",
			"fold -w 80 README.md", "column -t a.txt", "rev a", "cmp a b", "comm a b", "diff -u a b", "join a b", "paste a b",
			"expand a", "unexpand a", "fmt a"},
		[]string{
			"pr ~/.ssh/id_rsa", "pr -o5 ~/.aws/credentials", "tsort .env", "shuf -o out.txt a", "shuf --output=out a",
			"shuf --random-source=/dev/urandom a", "iconv -o out.txt a", "iconv --output=x a", "iconv -f x -t y ~/.netrc",
			"basenc --base64 ~/.ssh/id_rsa", "pr /dev/zero", "column ~/.aws/credentials", "fold .env", "pr $FILE",
			"shuf -x a", "col x", "colrm a"}},
	{"more coreutils and util-linux",
		[]string{
			"diff3 a b c", "diff3 -m a b c", "sdiff a b", "sdiff -w 120 -s a b", "hd a.bin"},
		[]string{
			"diff3 --diff-program=sh a b c", "sdiff -o out a b", "sdiff --output=x a b", "sdiff --diff-program=x a b",
			"diff3 ~/.ssh/id_rsa b c", "sdiff .env b", "hd ~/.ssh/id_rsa", "hd -f fmt a"}},
	{"status tools",
		[]string{
			"locate nginx.conf", "locate -i -n 10 readme", "plocate -c '*.go'"},
		[]string{
			"locate ~/.ssh/id_rsa", "locate --frob x"}},
	{"file names and keys",
		[]string{
			"fd", "fd -e go", "fd -H -t f config", "fd -d 2 . src", "fd --exclude node_modules test"},
		[]string{
			"fd -x rm", "fd -X rm", "fd --exec cat", "fd -e go --exec-batch wc", "fd -l", "fd . ~/.ssh", "fd --frob"}},
	{"version and help",
		[]string{
			"gzip --version", "grep --version"},
		[]string{"gzip --version -d a.gz"}},
}

func TestSafeText(t *testing.T) { checkSafeExamples(t, textExamples) }
