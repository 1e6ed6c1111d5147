package cmdbase

import "strings"

// Text tools. awk runs programs: an interpreter. The read-only forms of
// grep, sed, jq and the others are the safe list (safe_text.go).
var _ = registerUnix(Text, []Prog{
	{Name: "awk", Is: Interpreter, Version: []string{"--version", "--help"}},
	{Name: "gawk", Is: Interpreter, Version: []string{"--version", "--help"}},
	{Name: "mawk", Is: Interpreter},
	{Name: "nawk", Is: Interpreter},
	{Name: "sed", Version: []string{"--version", "--help"}, Writes: sedWritesFiles},
	{Name: "sort", Values: "kStTo", Outputs: []Output{{Short: 'o', Long: "output"}}},
	{Name: "tar", Aliases: []string{"gtar"}, Version: []string{"--version", "--help", "--usage"}, Writes: tarWrites},
	{Name: "bsdtar", Version: []string{"--version", "--help"}, Writes: tarWrites},
	{Name: "uniq", Writes: uniqWrites}, {Name: "xxd", Writes: xxdWrites},
	{Name: "gzip", Version: []string{"--version", "--help", "-V", "-h"}},
	{Name: "gunzip", Version: []string{"--version", "--help"}},
	{Name: "bzip2", Version: []string{"--version", "--help", "-V"}},
	{Name: "xz", Version: []string{"--version", "--help", "-V", "-h"}},
	{Name: "zstd", Version: []string{"--version", "--help", "-V", "-h"}},
	{Name: "lz4", Version: []string{"--version", "--help", "-V", "-h"}},
	{Name: "pigz", Version: []string{"--version", "--help", "-V", "-h"}},
	{Name: "vim", Version: []string{"--version", "--help", "-h"}},
	{Name: "emacs", Version: []string{"--version", "--help"}},
	{Name: "nano", Version: []string{"--version", "-V", "--help", "-h"}},
	{Name: "fd", Aliases: []string{"fdfind"}, Version: []string{"--version", "-V", "--help", "-h"}},
	{Name: "bat", Aliases: []string{"batcat"}, Version: []string{"--version", "-V", "--help", "-h"}},
	{Name: "fzf", Version: []string{"--version", "--help"}},
	{Name: "shellcheck", Version: []string{"--version", "-V", "--help"}},
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
