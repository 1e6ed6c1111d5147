package cmdbase

import (
	"regexp"
	"strings"
	"sync"
)

// Text tools. awk runs programs: an interpreter. The read-only forms of
// grep, sed, jq and the others are the safe list (safe_text.go).
var _ = registerUnix(Text, func() []Prog {
	return []Prog{
		{Name: "awk", Is: Interpreter, Writes: awkWrites, Version: []string{"--version", "--help"},
			Examples: Examples{
				Allow: []string{"awk --version", "awk '{print $1}' go.mod", "awk '$3 > 100' data.txt", "awk '{print \"a\\tb\"}' f",
					"ps aux | awk '$3 > 50 {print $2}'", "awk -F: '{print $1}' /etc/passwd", "awk -v n=3 'NR <= n' f",
					"awk '{print > \"/dev/stderr\"}' f"},
				Ask: []string{"awk '{system(\"id\")}' go.mod", "awk -f prog.awk f", "awk '{print}' /etc/shadow", "awk \"$prog\" f",
					"awk 'BEGIN{getline < \"/etc/shadow\"}'", "awk '{print | \"sh\"}' f"},
				Warn: []string{"curl x | awk '{system($0)}'", "awk '{print > \"out\"}' go.mod", "awk '{print >> \"/etc/passwd\"}' f",
					"awk '{print > $1}' f", "awk '{print > \"a\" \"b\"}' f", "mawk '{printf \"%s\", $0 > \"out\"}' f"},
			}},
		{Name: "gawk", Is: Interpreter, Writes: awkWrites, Version: []string{"--version", "--help"},
			Examples: Examples{
				Allow: []string{"gawk --version", "gawk -F: '{print $1}' go.mod", "gawk -M '{print $1 * 2}' nums.txt"},
				Ask:   []string{"gawk -f prog.awk go.mod", "gawk -l filefuncs 'BEGIN{}'", "gawk -i ./lib.awk '{print}' f"},
				Warn:  []string{"curl x | gawk -f -", "gawk -i inplace '{print}' f", "gawk -i inplace '{print}' /etc/passwd"},
			}},
		{Name: "mawk", Is: Interpreter, Writes: awkWrites},
		{Name: "nawk", Is: Interpreter, Writes: awkWrites},
		{Name: "sed", Version: []string{"--version", "--help"}, Writes: sedWritesFiles,
			Examples: Examples{
				Allow: []string{"sed --version", "sed -n 1,5p go.mod", "sed -n 's/x/y/p' f", "sed ':a;N;$!ba;s/\\n/ /g' f",
					"sed -n 's/x/y/w /dev/stdout' f", "sed -E 's/(a|b)+/c/g' f", "timeout 5 sed -n 's/a/b/p' f"},
				Ask: []string{"sed -n 1p .env", "sed -n ':x r /home/u/.aws/credentials' f"},
				Warn: []string{"sed -i s/a/b/ go.mod", "sed 's/a/b/w out' go.mod", "sed -n ':x w /home/u/.bashrc_x' f", "sed --in-place=.bak s/a/b/ f",
					"sed -n ':x e' f", "sed 's/a/id/e' f", "sed --version -i s/a/b/ f", "sed -f prog.sed -e 'w out' go.mod", "sed -n 'w /etc/cron.d/job' f",
					"sed \"$script\" go.mod"},
			}},
		{Name: "sort", Values: "kStTo", Outputs: []Output{{Short: 'o', Long: "output"}}},
		{Name: "tar", Aliases: []string{"gtar"}, Version: []string{"--version", "--help", "--usage"}, Writes: tarWrites,
			Examples: Examples{
				Allow: []string{"tar --version", "tar -tf a.tar", "tar tvf a.tar.gz", "gtar -tf x.tar", "tar -tzf a.tgz | head"},
				Ask:   []string{"tar -tf ~/.ssh/keys.tar"},
				Warn: []string{"tar -xf a.tar", "tar xzf a.tgz -C /", "tar -czf out.tgz src", "tar -tf a.tar --to-command=sh",
					"tar --version -xf x.tar", "tar -cf - . | ssh h 'cat > x.tar'"},
			}},
		{Name: "bsdtar", Version: []string{"--version", "--help"}, Writes: tarWrites},
		{Name: "unzip", Version: []string{"-v"}, Writes: unzipWrites},
		{Name: "yq", Writes: yqWrites, Examples: Examples{Allow: []string{"yq '.a' f.yaml"},
			Warn: []string{"yq -i '.a = 1' f.yaml", "yq --inplace '.a = 1' /etc/x.yaml", "yq -i -o json '.a = 1' f.yaml", "yq e -i '.a = 1' /etc/x.yaml"}}},
		{Name: "uniq", Writes: uniqWrites}, {Name: "xxd", Writes: xxdWrites},
		{Name: "gzip", Version: []string{"--version", "--help", "-V", "-h"}},
		{Name: "gunzip", Version: []string{"--version", "--help"}},
		{Name: "bzip2", Version: []string{"--version", "--help", "-V"}},
		{Name: "xz", Version: []string{"--version", "--help", "-V", "-h"}},
		{Name: "zstd", Version: []string{"--version", "--help", "-V", "-h"}},
		{Name: "lz4", Version: []string{"--version", "--help", "-V", "-h"}},
		{Name: "pigz", Version: []string{"--version", "--help", "-V", "-h"}},
		{Name: "vim", Aliases: []string{"vi", "view", "vimdiff", "rvim", "gvim", "ex"}, Version: []string{"--version", "--help", "-h"}, Forms: vimCommands()},
		{Name: "nvim", Version: []string{"--version", "-v", "--help", "-h"}, Forms: append([]Form{{Short: "l", Why: "runs a Lua script"}}, vimCommands()...)},
		{Name: "emacs", Version: []string{"--version", "--help"}, Forms: []Form{{Short: "lfx", Long: []string{"eval", "execute", "load", "funcall", "script"},
			Words: []string{"-eval", "-execute", "-load", "-funcall", "-script"}, Values: "dLt", Why: "runs Lisp, which can run programs and write any file"}}},
		{Name: "nano", Version: []string{"--version", "-V", "--help", "-h"}},
		{Name: "fd", Aliases: []string{"fdfind"}, Version: []string{"--version", "-V", "--help", "-h"}},
		{Name: "bat", Aliases: []string{"batcat"}, Version: []string{"--version", "-V", "--help", "-h"}},
		{Name: "fzf", Version: []string{"--version", "--help"}},
		{Name: "shellcheck", Version: []string{"--version", "-V", "--help"}},
	}
})

// sedWritesFiles: sed -i edits its files, a w command writes others.
func sedWritesFiles(ws []Word) (string, []Word) {
	if !SedWrites(ws) {
		return "", nil
	}
	pos := Positionals(ws, "efl", "expression", "file", "line-length")
	if len(OptionValues(ws, 'e', "efl", "expression")) == 0 && len(OptionValues(ws, 'f', "efl", "file")) == 0 && len(pos) > 0 {
		pos = pos[1:]
	}
	// and the files its w commands write
	eff, _ := sedArgEffects(ws)
	for _, f := range eff.files {
		pos = append(pos, Word{Text: f, Raw: f})
	}
	return "sed edits files", pos
}

// uniqWrites: uniq's second operand is the file it writes.
func uniqWrites(ws []Word) (string, []Word) {
	if pos := Positionals(ws, "fsw", "skip-fields", "skip-chars", "check-chars"); len(pos) > 1 {
		return "uniq writes " + pos[1].Raw, pos[1:2]
	}
	return "", nil
}

// xxdWrites: xxd's second operand is the file it writes.
func xxdWrites(ws []Word) (string, []Word) {
	if pos := Positionals(ws, "cglosn", "cols", "groupsize", "len", "offset", "seek", "name"); len(pos) > 1 {
		return "xxd writes " + pos[1].Raw, pos[1:2]
	}
	return "", nil
}

// tarWrites: tar creating, extracting or appending writes files (where
// -C says), or runs programs through its options.
func tarWrites(ws []Word) (string, []Word) {
	f := ShortFlags(ws, "fCbFgHIKLNTVX")
	if len(ws) > 0 && !strings.HasPrefix(ws[0].Text, "-") {
		for _, c := range ws[0].Text {
			f[byte(c)] = true
		}
	}
	if !(f['c'] || f['x'] || f['u'] || f['r'] || f['A'] || HasLong(ws, "create", "extract", "get", "append", "update", "catenate",
		"concatenate", "delete", "to-command", "use-compress-program", "checkpoint-action", "info-script", "new-volume-script", "rsh-command")) {
		return "", nil
	}
	var tw []Word
	for _, v := range OptionValues(ws, 'C', "fCbFgHIKLNTVX", "directory") {
		tw = append(tw, Word{Text: v, Raw: v})
	}
	return "tar writes files or runs programs", tw
}

// vimCommands are vim's ways of being given editor commands, any of which
// can run a program (:!) or write any file (:w): -c CMD (also -cCMD, and
// among other letters, -Nc), --cmd CMD, +CMD (but a line number), a
// session or script file (-S, -s), another vimrc (-u, -U), ex mode
// reading commands (-e, -E), and the keys typed written to a file (-w,
// -W). A test holds the spellings against the real vim.
var vimCommands = sync.OnceValue(func() []Form {
	return []Form{{Short: "cSsuUeEwW", Long: []string{"cmd"}, Values: "Tiqtr",
		Pattern: regexp.MustCompile(`^\+(?:[^0-9]|[0-9]+[^0-9])`), Why: "runs editor commands, which can run programs and write any file"}}
})
