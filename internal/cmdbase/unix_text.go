package cmdbase

// Text tools. awk runs programs: an interpreter. The read-only forms of
// grep, sed, jq and the others are the safe list (safe_text.go).
var _ = registerUnix(Text, []Prog{
	{Name: "awk", Is: Interpreter, Version: []string{"--version", "--help"}},
	{Name: "gawk", Is: Interpreter, Version: []string{"--version", "--help"}},
	{Name: "mawk", Is: Interpreter},
	{Name: "nawk", Is: Interpreter},
	{Name: "sed", Version: []string{"--version", "--help"}},
	{Name: "sort", Values: "kStTo", Outputs: []Output{{Short: 'o', Long: "output"}}},
	{Name: "tar", Version: []string{"--version", "--help", "--usage"}},
	{Name: "bsdtar", Version: []string{"--version", "--help"}},
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
