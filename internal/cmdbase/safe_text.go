package cmdbase

import (
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
)

// Text tools (cmdbase/unix_text.go): searchers, stream editors and
// filters, comparers, dumps and encoders, archives and compressors that
// list or write to standard output, and file-name searches. Their file
// operands are read (the secret-path rules judge them); a pattern or
// script comes first where the tool takes one.
var _ = registerSafe(Text, safeText)

// safeText is built on first use (safeTables).
var safeText = func() map[string]safeCmd {
	return map[string]safeCmd{
		// shellcheck reads the scripts it is given (not the files they
		// source: no -x, no source path, no rc file named)
		"shellcheck": {args: &argSpec{flags: "a", values: "efsSoiW", attached: "C", reads: true, extra: shellcheckExtra,
			longs: ltLongs("check-sourced", "color?", "include=", "exclude=", "format=", "enable=", "list-optional", "norc",
				"severity=", "shell=", "wiki-link-count=")}},
		"grep":  {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", recursive: grepRecursive, check: grepCheck},
		"egrep": {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", recursive: grepRecursive, check: grepCheck},
		"fgrep": {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", recursive: grepRecursive, check: grepCheck},
		// grep's spec for compressed files, without recursion
		"zgrep":  {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", check: zgrepCheck},
		"zegrep": {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", check: zgrepCheck},
		"zfgrep": {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", check: zgrepCheck},
		"xzgrep": {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", check: zgrepCheck},
		"bzgrep": {reads: true, pattern: true, patternFlags: "ef", dynOK: true, valueShort: "efmABCdD", check: zgrepCheck},
		"rg": {reads: true, pattern: true, patternFlags: "ef", valueShort: "efmABCgtTjMrE",
			recursive: func([]word) bool { return true }, check: rgCheck},
		"sed":  {reads: true, pattern: true, patternFlags: "ef", valueShort: "efl", check: sedCheck},
		"awk":  {reads: true, pattern: true, valueShort: "Fv", check: awkCheck},
		"gawk": {reads: true, pattern: true, valueShort: "Fv", check: awkCheck},
		"mawk": {reads: true, pattern: true, valueShort: "Fv", check: awkCheck},
		"nawk": {reads: true, pattern: true, valueShort: "Fv", check: awkCheck},
		"jq":   {reads: true, pattern: true, patternFlags: "f", valueShort: "f", check: jqCheck},
		"sort": {reads: true, valueShort: "kStTo", check: sortCheck},
		"uniq": {reads: true, valueShort: "fsw", check: uniqCheck},
		"cut":  reader, "column": reader, "fold": reader, "expand": reader, "unexpand": reader, "paste": reader,
		"join": reader, "comm": reader, "cmp": reader, "tr": reader, "rev": reader, "fmt": reader, "look": reader,
		"od": reader, "hexdump": reader, "bzcat": reader,
		// zcat is gzip -dc: -r reads every file below a directory (with -f,
		// printing those that are not compressed)
		"zcat":    {reads: true, dynOK: true, valueShort: "S", endless: true, recursive: compressorRecursive},
		"strings": {reads: true, valueShort: reader.valueShort, endless: true, atFiles: true},
		// xzcat --files=LIST decompresses (with -f, prints) the files LIST names
		"xzcat": {reads: true, dynOK: true, valueShort: reader.valueShort, endless: true, check: xzcatCheck},
		"diff":  {reads: true, dynOK: true, valueShort: "CUDFILSWXx", recursive: diffRecursive},
		"xxd":   {reads: true, valueShort: "cglosn"},
		// macOS base64 writes FILE with -o FILE / --output; -i FILE is its input
		"base64": {reads: true, dynOK: true, valueShort: "wio", endless: true, check: base64Check},
		"base32": {reads: true, dynOK: true, valueShort: "wio", endless: true, check: base64Check},
		// compressors: listing, testing or writing to standard output only
		"gzip": compressor, "gunzip": compressor, "bzip2": compressor, "bunzip2": compressor, "xz": compressor,
		"unxz": compressor, "zstd": compressor, "unzstd": compressor, "lz4": compressor, "pigz": compressor,
		// zstdcat is zstd -dcf: it takes every option of zstd, -o FILE too
		"zstdcat": {reads: true, dynOK: true, valueShort: "bSTFMLo", check: compressorWrites, recursive: compressorRecursive},
		"unzip":   {reads: true, valueShort: "dxP", check: unzipCheck},
		"zipinfo": {reads: true},
		// tar: listing only (t), no programs, no remote archive
		"tar":    {reads: true, valueShort: "fCbFgHIKLNTVX", check: tarCheck},
		"bsdtar": {reads: true, valueShort: "fCbFgHIKLNTVX", check: tarCheck},
		"gtar":   {reads: true, valueShort: "fCbFgHIKLNTVX", check: tarCheck},
		// text formatters and comparers (GNU coreutils): read files, print
		"pr": {args: &argSpec{flags: "acdfFJmrtTv", digits: true, values: "hlwWoDN", attached: "einsS", plus: true, reads: true, pure: true,
			longs: ltLongs("columns=", "across", "show-control-chars", "double-space", "date-format=", "expand-tabs?",
				"form-feed", "header=", "output-tabs?", "join-lines", "length=", "merge", "number-lines?",
				"first-line-number=", "indent=", "no-file-warnings", "separator?", "sep-string?", "omit-header",
				"omit-pagination", "show-nonprinting", "width=", "page-width=")}},
		"tsort": {args: &argSpec{reads: true, pure: true, longs: ltLongs()}},
		// shuf without -o FILE or --random-source FILE
		"shuf": {args: &argSpec{flags: "erz", values: "in", reads: true,
			longs: ltLongs("echo", "input-range=", "head-count=", "repeat", "zero-terminated")}},
		// iconv without -o FILE
		"iconv": {args: &argSpec{flags: "cls", values: "ft", reads: true,
			longs: ltLongs("from-code=", "to-code=", "list", "silent", "verbose", "usage")}},
		"basenc": {args: &argSpec{flags: "di", values: "w", reads: true, pure: true,
			longs: ltLongs("base64", "base64url", "base58", "base32", "base32hex", "base16", "base2msbf", "base2lsbf",
				"z85", "decode", "ignore-garbage", "wrap=")}},
		// util-linux filters: standard input to standard output
		"col":   {args: &argSpec{flags: "bfhpxV", values: "l", operands: opNone, pure: true, longs: ltLongs("no-backspaces", "fine", "tabs", "pass", "spaces", "lines=")}},
		"colrm": {args: &argSpec{operands: opNumbers, maxOps: 2, longs: ltLongs()}},
		// more comparers: no --diff-program (runs a program), no sdiff -o
		// (interactive merge into a file)
		"diff3": {args: &argSpec{flags: "AeExX3imaT", values: "L", reads: true, maxOps: 3,
			longs: ltLongs("show-all", "ed", "show-overlap", "overlap-only", "easy-only", "merge", "text", "initial-tab",
				"label=", "strip-trailing-cr")}},
		"sdiff": {args: &argSpec{flags: "abBdEHilstWZ", values: "wI", reads: true, maxOps: 2,
			longs: ltLongs("text", "ignore-blank-lines", "ignore-space-change", "minimal", "ignore-tab-expansion",
				"ignore-trailing-space", "speed-large-files", "ignore-case", "ignore-matching-lines=", "left-column",
				"suppress-common-lines", "expand-tabs", "ignore-all-space", "width=", "strip-trailing-cr", "tabsize=")}},
		"hd": {args: &argSpec{flags: "bcCdovx", values: "neLs", reads: true, pure: true, longs: ltLongs("length=", "skip=", "format=")}},
		// file name database (updatedb, which writes it, is another program)
		"locate":  {args: &argSpec{flags: "AbceLiN0SqwPHV", values: "dlnr", pure: true, longs: ltLongs("all", "basename", "count", "existing", "follow", "ignore-case", "literal", "null", "statistics", "quiet", "wholename", "nofollow", "database=", "limit=", "regexp=", "regex")}},
		"plocate": {args: &argSpec{flags: "AbceiN0wV", values: "dlnr", pure: true, longs: ltLongs("all", "basename", "count", "existing", "ignore-case", "literal", "null", "wholename", "database=", "limit=", "regexp=", "regex")}},
		"mlocate": {args: &argSpec{flags: "AbceLiN0SqwPHV", values: "dlnr", pure: true, longs: ltLongs("all", "basename", "count", "existing", "follow", "ignore-case", "null", "statistics", "quiet", "wholename", "nofollow", "database=", "limit=", "regexp=", "regex")}},
		// fd lists file names like find (not -x/-X, which run a program for
		// each, nor -l, which runs ls)
		// the silver searcher: a recursive grep (no --pager, which runs a
		// program, no -z, which decompresses, no -f, which follows links out
		// of the tree searched)
		"ag": {args: &argSpec{flags: "acDFHilLnoQrsStuUvVw0", values: "ABCGgmpW", pattern: true, patternFlags: "g",
			recursive: true, reads: true, longs: ltLongs(append([]string{"ackmate", "affinity", "noaffinity", "all-types",
				"after?", "before?", "context?", "break", "nobreak", "count", "color", "nocolor", "color-line-number=",
				"color-match=", "color-path=", "column", "debug", "depth=", "filename", "nofilename", "fixed-strings",
				"group", "nogroup", "file-search-regex=", "heading", "noheading", "hidden", "ignore=", "ignore-dir=",
				"ignore-case", "files-with-matches", "files-without-matches", "list-file-types", "max-count=", "mmap",
				"nommap", "multiline", "nomultiline", "norecurse", "numbers", "nonumbers", "only-matching", "one-device",
				"path-to-ignore=", "nopager", "parallel", "print-long-lines", "passthrough", "passthru", "literal", "recurse",
				"case-sensitive", "smart-case", "search-binary", "silent", "stats", "stats-only", "all-text", "unrestricted",
				"skip-vcs-ignores", "invert-match", "vimgrep", "word-regexp", "workers=", "width=", "null", "print0",
				"print-all-files", "nofollow"}, agFileTypes...)...)}},
		// yq (the Go yq and the jq wrapper of the same name): a filter like
		// jq's, then the files it reads; every operand is judged as a file
		// (the Go yq takes a lone operand for a file). No -i (writes the
		// files), no -s (the Go yq's --split-exp writes a file per result),
		// no expression from a file, no operators that read files or the
		// environment (yqExtra).
		"yq": {args: &argSpec{flags: "yYrcejnMCPNS0av", values: "wopI", reads: true, verbs: nil,
			longs: ltLongs("yaml-output", "yml-output", "yaml-roundtrip", "yml-roundtrip", "width=", "indentless-lists",
				"indentless", "output-format=", "input-format=", "prettyPrint", "no-colors", "colors", "null-input",
				"exit-status", "unwrapScalar", "no-doc", "nul-output", "indent=", "raw-output", "compact-output", "sort-keys",
				"tojson", "verbose", "ascii-output", "yaml-output-grammar-version=", "yml-out-ver=", "xml-attribute-prefix=",
				"xml-content-name=", "csv-separator=", "tsv-auto-parse", "csv-auto-parse", "header-preprocess"),
			extra: yqExtra}},
		// line counters: counts, languages and file names, never content.
		// cloc: no report, SQL or list files written, no --vcs, --git or
		// --diff (run git or a command), no --extract-with or --config, no
		// --print-filter-stages (prints the code); archives given as
		// operands are extracted into a scratch directory: asked
		"cloc": {args: &argSpec{flags: "v", attached: "v",
			longs: ltLongs("autoconf", "by-file", "by-file-by-lang", "docstring-as-code", "follow-links", "force-lang=",
				"ignore-whitespace", "ignore-case", "ignore-case-ext", "lang-no-ext=", "max-file-size=", "no-autogen?",
				"no-recurse", "read-binary-files", "skip-leading=", "skip-uniqueness", "stat", "timeout=", "processes=",
				"unix", "windows", "exclude-content=", "exclude-dir=", "exclude-ext=", "exclude-lang=", "fullpath",
				"include-ext=", "include-lang=", "match-d=", "not-match-d=", "match-f=", "not-match-f=", "skip-archive=",
				"explain=", "show-ext?", "show-lang?", "show-os", "verbose?", "by-percent=", "csv", "csv-delimiter=",
				"hide-rate", "json", "md", "progress-rate=", "quiet", "summary-cutoff=", "sum-one", "xml", "yaml",
				"unicode", "include-content="),
			extra: clocExtra}},
		// tokei: no --input (reads a previous run's results from a file)
		"tokei": {args: &argSpec{flags: "fhlVvC", values: "ceostn",
			longs: ltLongs("columns=", "exclude=", "files", "hidden", "languages", "no-ignore", "no-ignore-dot",
				"no-ignore-parent", "no-ignore-vcs", "output=", "sort=", "rsort=", "type=", "verbose", "compact",
				"num-format=", "streaming=")}},
		// bat prints files with highlighting: no pager (--pager, --paging
		// other than never), no cache subcommand (writes the syntax cache)
		"bat": {args: &argSpec{flags: "ApPnSfuLdh", values: "lHmr", reads: true,
			longs: ltLongs("show-all", "nonprintable-notation=", "plain", "language=", "highlight-line=", "file-name=", "diff",
				"diff-context=", "tabs=", "wrap=", "chop-long-lines", "terminal-width=", "number", "color=", "italic-text=",
				"decorations=", "force-colorization", "paging=", "map-syntax=", "ignored-suffix=", "theme=", "theme-dark=",
				"theme-light=", "list-themes", "list-languages", "style=", "line-range=", "unbuffered", "no-config",
				"no-custom-assets", "squeeze-blank", "squeeze-limit=", "strip-ansi=", "binary=", "config-file", "config-dir",
				"cache-dir", "acknowledgements", "no-lessopen"),
			extra: batExtra}},
		// ls's successors: names and metadata only (eza --git reads the
		// repository's status in process)
		"eza": {args: &argSpec{flags: "1lGxRTFahdDfrXuUmMSigHnbBZ@o", values: "LsIwt", pure: true,
			longs: ltLongs("oneline", "long", "grid", "across", "recurse", "tree", "classify?", "colour?", "color?",
				"colour-scale?", "color-scale?", "colour-scale-mode=", "color-scale-mode=", "icons?", "no-quotes", "hyperlink",
				"absolute?", "follow-symlinks", "width=", "all", "almost-all", "list-dirs", "only-dirs", "only-files", "show-symlinks",
				"no-symlinks", "level=", "reverse", "sort=", "group-directories-first", "group-directories-last", "ignore-glob=",
				"git-ignore", "binary", "bytes", "group", "smart-group", "header", "links", "modified", "changed", "accessed",
				"created", "time=", "time-style=", "total-size", "no-permissions", "octal-permissions", "no-filesize", "no-user",
				"no-time", "git", "no-git", "git-repos", "git-repos-no-status", "extended", "context", "inode", "blocksize",
				"numeric", "mounts", "dereference")}},
		"exa": {args: &argSpec{flags: "1lGxRTFahdruUmSigHnbB@", values: "LsIt", pure: true,
			longs: ltLongs("oneline", "long", "grid", "across", "recurse", "tree", "classify", "colour=", "color=",
				"colour-scale", "color-scale", "icons", "all", "list-dirs", "level=", "reverse", "sort=", "group-directories-first",
				"only-dirs", "ignore-glob=", "git-ignore", "binary", "bytes", "group", "header", "links", "modified", "changed",
				"accessed", "created", "time=", "time-style=", "no-permissions", "octal-permissions", "no-filesize", "no-user",
				"no-time", "no-icons", "git", "extended", "inode", "blocks", "numeric")}},
		"lsd": {args: &argSpec{flags: "aA1lRdFhiLrStXvUNZ", values: "I", pure: true,
			longs: ltLongs("all", "almost-all", "oneline", "long", "recursive", "human-readable", "tree", "depth=",
				"directory-only", "classify", "inode", "dereference", "reverse", "sizesort", "timesort", "extensionsort",
				"versionsort", "gitsort", "no-sort", "sort=", "group-dirs=", "group-directories-first", "blocks=", "date=",
				"size=", "permission=", "color=", "icon=", "icon-theme=", "ignore-glob=", "ignore-config", "total-size",
				"no-symlink", "hyperlink=", "header", "git", "literal", "truncate-owner-after=", "truncate-owner-marker=",
				"context", "display-indicators", "tree")}},
		// util-linux and bsdextrautils filters: files (or standard input) to
		// standard output
		"ul":     {args: &argSpec{flags: "iV", values: "t", reads: true, pure: true, longs: ltLongs("indicated", "terminal=")}},
		"colcrt": {args: &argSpec{flags: "2V", reads: true, pure: true, longs: ltLongs("no-underlining", "half-lines")}},
		// ptx: permuted index (not -G, whose second operand is an output
		// file)
		"ptx": {args: &argSpec{flags: "ACfrORT", values: "bFgiMSwW", reads: true,
			longs: ltLongs("auto-reference", "references", "ignore-case", "format=", "right-side-refs", "sentence-regexp=",
				"word-regexp=", "break-file=", "ignore-file=", "only-file=", "gap-size=", "width=", "flag-truncation=", "macro-name=",
				"copyright")}},
		// poppler's pdfinfo: the document's information, never written
		"pdfinfo": {args: &argSpec{flags: "v", values: "fl", reads: true}},
		"fd": {args: &argSpec{flags: "HIusiFgaLp01qhV", values: "dteESjco", operands: opFiles,
			longs: ltLongs("hidden", "no-hidden", "no-ignore", "no-ignore-vcs", "no-ignore-parent", "unrestricted", "case-sensitive",
				"ignore-case", "glob", "regex", "fixed-strings", "absolute-path", "relative-path", "follow", "full-path", "print0",
				"max-depth=", "min-depth=", "exact-depth=", "type=", "extension=", "exclude=", "size=", "changed-within=",
				"changed-before=", "newer=", "older=", "owner=", "threads=", "max-results=", "quiet", "show-errors", "color=",
				"ignore-file=", "path-separator=", "search-path=", "strip-cwd-prefix?", "one-file-system", "prune", "and=", "format=")}},
	}
}

func sortCheck(ws []word) string {
	return first(ForbidShort("o", "kStT", ws), ForbidLong(ws, "output", "compress-program"))
}

func uniqCheck(ws []word) string {
	if len(Positionals(ws, "fsw", "skip-fields", "skip-chars", "check-chars")) > 1 {
		return "uniq with an output file"
	}
	return ""
}

func diffRecursive(ws []word) bool {
	return ShortFlags(ws, "CUDFILSWXx")['r'] || HasLong(ws, "recursive")
}

func unzipCheck(ws []word) string {
	f := ShortFlags(ws, "dxP")
	if len(ws) > 0 && (f['l'] || f['v'] || f['t'] || f['Z'] || f['p']) {
		return ""
	}
	return "unzip extracts files"
}

// compressor lists, tests or writes to standard output (-c, -l, -t).
var compressor = safeCmd{reads: true, dynOK: true, valueShort: "bSTFMLo", check: compressorCheck, recursive: compressorRecursive}

// compressorRecursive reports -r (--recursive): gzip, pigz, zstd and lz4
// then read every file below the directories they are given, and with
// -f -c print the ones that are not compressed as they are.
func compressorRecursive(ws []word) bool {
	return ShortFlags(ws, "bSTFMLo")['r'] || HasLong(ws, "recursive")
}

func compressorCheck(ws []word) string {
	if why := compressorWrites(ws); why != "" {
		return why
	}
	f := ShortFlags(ws, "bSTFMLo")
	if f['c'] || f['l'] || f['t'] || HasLong(ws, "stdout", "to-stdout", "list", "test") {
		return ""
	}
	return "compresses or decompresses files in place"
}

func xzcatCheck(ws []word) string {
	if HasLong(ws, "files", "files0") {
		return "xzcat reads the names of its files from a file"
	}
	return ""
}

// compressorWrites says why a compressor's options write files (-o
// FILE, --rm, a suffix or a list of files to compress in place), or "".
func compressorWrites(ws []word) string {
	f := ShortFlags(ws, "bSTFMLo")
	if f['o'] || f['S'] || HasLong(ws, "output", "rm", "files", "filelist", "suffix", "output-dir-flat", "output-dir-mirror", "trace", "patch-from", "train") {
		return "writes files"
	}
	return ""
}

func grepRecursive(ws []word) bool {
	f := ShortFlags(ws, "efmABCdD")
	if f['r'] || f['R'] || HasLong(ws, "recursive", "dereference-recursive") {
		return true
	}
	for _, v := range OptionValues(ws, 'd', "efmABCdD", "directories") {
		if v != "read" && v != "skip" {
			return true
		}
	}
	return false
}

// grepCheck: every long option must be one of grep's (a new one could
// write or run something).
func grepCheck(ws []word) string {
	for _, w := range ws {
		if w.Text == "--" {
			break
		}
		if n, _, _ := strings.Cut(strings.TrimPrefix(w.Text, "--"), "="); strings.HasPrefix(w.Text, "--") && n != "" && shellparse.ResolveLong(n, grepLongs) == "" {
			return "grep option " + w.Text + " is not known"
		}
	}
	return ""
}

func zgrepCheck(ws []word) string {
	return first(grepCheck(ws), ForbidShort("rR", "efmABCdD", ws))
}

// rgCheck: --pre runs a program per file, -z runs decompression programs
// found on PATH.
func rgCheck(ws []word) string {
	return first(ForbidLong(ws, "pre", "pre-glob", "hostname-bin", "search-zip"), ForbidShort("z", "efmABCgtTjMrE", ws))
}

func base64Check(ws []word) string {
	return first(ForbidShort("o", "wi", ws), ForbidLong(ws, "output"))
}

// jqCheck: no filter from a file, no modules, no environment.
func jqCheck(ws []word) string {
	if r := first(ForbidShort("f", "", ws), ForbidLong(ws, "from-file")); r != "" {
		return r
	}
	// modules and data files are read from the search path
	if ShortFlags(ws, "")['L'] || HasLong(ws, "library-path") {
		return "jq -L reads modules and data files from a directory"
	}
	for _, w := range ws {
		if strings.Contains(w.Text, "import") || strings.Contains(w.Text, "include") {
			return "jq filter imports modules or data files"
		}
	}
	pos := Positionals(ws, "", "arg", "argjson", "slurpfile", "rawfile", "indent", "tab")
	// (input_filename only names the file being read)
	if len(pos) > 0 && (strings.Contains(pos[0].Text, "env") || strings.Contains(pos[0].Text, "ENV") || strings.Contains(pos[0].Text, "$__prog")) {
		return "jq filter reads the environment"
	}
	return ""
}

func tarCheck(ws []word) string {
	f := ShortFlags(ws, "fCbFgHIKLNTVX")
	if len(ws) > 0 && !strings.HasPrefix(ws[0].Text, "-") {
		for _, c := range ws[0].Text {
			f[byte(c)] = true
		}
	}
	if !f['t'] && !HasLong(ws, "list") {
		return "tar without -t is not read-only"
	}
	if f['I'] || f['F'] || HasLong(ws, "use-compress-program", "to-command", "checkpoint-action", "info-script",
		"new-volume-script", "rsh-command", "rmt-command", "index-file", "volno-file", "listed-incremental", "g") {
		return "tar runs programs or writes files through its options"
	}
	for _, v := range append(OptionValues(ws, 'f', "fCbFgHIKLNTVX", "file"), archiveWord(ws)...) {
		if strings.Contains(v, ":") && !HasLong(ws, "force-local") {
			return "tar archive " + v + " names a remote host"
		}
	}
	return ""
}

// archiveWord is the archive of old-style tar options (tar tvf X).
func archiveWord(ws []word) []string {
	if len(ws) > 1 && !strings.HasPrefix(ws[0].Text, "-") && strings.Contains(ws[0].Text, "f") {
		return []string{ws[1].Text}
	}
	return nil
}

// awkCheck accepts an awk program given as the first argument that only
// computes and prints to standard output.
func awkCheck(ws []word) string {
	prog, why := awkProgram(ws)
	switch {
	case why != "":
		return why
	case prog == nil:
		return "awk without a program"
	case !prog.Static():
		return "awk program chosen at run time"
	}
	return awkProgramWhy(prog.Text)
}

// awkProgram finds awk's program among its arguments (nil with -f), or
// says which option is not known to be read-only.
func awkProgram(ws []word) (*word, string) {
	var prog *word
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		switch {
		case t == "-F" || t == "-v":
			i++
		case strings.HasPrefix(t, "-F") || strings.HasPrefix(t, "-v") && len(t) > 2:
		case strings.HasPrefix(t, "--field-separator=") || strings.HasPrefix(t, "--assign="):
		case t == "-M" || t == "--bignum" || t == "-b" || t == "--characters-as-bytes" || t == "-P" || t == "--posix" ||
			t == "-c" || t == "--traditional" || t == "-r" || t == "--re-interval" || t == "-N" || t == "--use-lc-numeric":
			// gawk's options of how it computes and matches
		case t == "--":
			if i+1 < len(ws) && prog == nil {
				prog = &ws[i+1]
			}
			i = len(ws)
		case strings.HasPrefix(t, "-") && t != "-":
			return prog, "awk option " + t + " is not known to be read-only"
		default:
			if prog == nil {
				prog = &ws[i]
			}
		}
	}
	return prog, ""
}

// awkWrites: print and printf write the files their > and >> name;
// gawk's inplace extension (-i inplace) edits the files it reads.
func awkWrites(ws []Word) (string, []Word) {
	for _, inc := range OptionWords(ws, 'i', "Ffvi", "include") {
		if t := strings.TrimSuffix(inc.Text, ".awk"); t == "inplace" || !inc.Static() {
			if pos := Positionals(ws, "Ffvi", "field-separator", "assign", "include", "file"); len(pos) > 1 {
				return "gawk -i inplace edits files", pos[1:]
			}
			return "", nil
		}
	}
	prog, _ := awkProgram(ws)
	if prog == nil || !prog.Static() {
		return "", nil
	}
	files, named := awkOutputs(prog.Text)
	var out []Word
	for _, f := range files {
		out = append(out, Word{Text: f, Raw: f})
	}
	if named {
		out = append(out, Word{Text: "print >", Raw: "print >", Dynamic: true})
	}
	if len(out) == 0 {
		return "", nil
	}
	return "awk writes files", out
}

var grepLongs = []string{"extended-regexp", "fixed-strings", "basic-regexp", "perl-regexp", "regexp", "file",
	"ignore-case", "no-ignore-case", "word-regexp", "line-regexp", "null-data", "no-messages", "invert-match",
	"version", "help", "max-count", "byte-offset", "line-number", "no-line-number", "line-buffered",
	"with-filename", "no-filename", "label", "only-matching", "quiet", "silent", "binary-files", "text",
	"directories", "devices", "recursive", "dereference-recursive", "include", "exclude", "exclude-from",
	"exclude-dir", "files-without-match", "files-with-matches", "count", "initial-tab", "null",
	"before-context", "after-context", "context", "color", "colour", "binary", "no-group-separator", "group-separator"}

var sedLongs = []string{"expression", "file", "line-length", "in-place", "null-data", "zero-terminated",
	"quiet", "silent", "regexp-extended", "separate", "unbuffered", "posix", "sandbox", "debug",
	"follow-symlinks", "binary", "help", "version"}

// sedCheck reads sed's options as GNU getopt does (clusters such as -nse,
// abbreviations such as --expr=) and accepts only read-only scripts.
func sedCheck(ws []word) string {
	a := &sedArgs{ws: ws}
	for ; a.i < len(ws); a.i++ {
		w := ws[a.i]
		t := w.Text
		if !w.Static() {
			if strings.HasPrefix(w.Raw, "-") || strings.HasPrefix(w.Raw, "$") || strings.HasPrefix(w.Raw, "\"$") {
				return "sed option chosen at run time"
			}
			a.operands = append(a.operands, w)
			continue
		}
		why := ""
		switch {
		case t == "--":
			a.operands = append(a.operands, ws[a.i+1:]...)
			a.i = len(ws)
		case strings.HasPrefix(t, "--"):
			why = a.long(t)
		case len(t) > 1 && t[0] == '-':
			why = a.shorts(t)
		default:
			a.operands = append(a.operands, w)
		}
		if why != "" {
			return why
		}
	}
	if len(a.scripts) == 0 {
		if len(a.operands) == 0 {
			return "sed without a script"
		}
		if r := a.script(a.operands[0]); r != "" {
			return r
		}
	}
	return sedScriptWhy(a.scripts)
}

// sedArgs is sedCheck's reading of sed's arguments: the word at i, the
// scripts and operands found so far.
type sedArgs struct {
	ws       []word
	i        int
	scripts  []string
	operands []word
}

// script takes w as a script.
func (a *sedArgs) script(w word) string {
	if !w.Static() {
		return "sed script chosen at run time"
	}
	a.scripts = append(a.scripts, w.Text)
	return ""
}

// long reads the long option t (--expression=…, --expr …).
func (a *sedArgs) long(t string) string {
	name, val, eq := strings.Cut(t[2:], "=")
	long := shellparse.ResolveLong(name, sedLongs)
	switch long {
	case "":
		return "sed option " + t + " is not known"
	case "in-place":
		return "sed --in-place writes files"
	case "file":
		return "sed --file reads a script from a file"
	case "expression", "line-length":
		if !eq {
			if a.i+1 >= len(a.ws) {
				return "sed " + t + " without a value"
			}
			a.i++
			if long == "expression" {
				return a.script(a.ws[a.i])
			}
		}
		if long == "expression" {
			a.scripts = append(a.scripts, val)
		}
	}
	return ""
}

// shorts reads a cluster of short options (-ne 'p', -nse'p').
func (a *sedArgs) shorts(t string) string {
	for j := 1; j < len(t); j++ {
		c := t[j]
		switch c {
		case 'i':
			return "sed -i writes files"
		case 'f':
			return "sed -f reads a script from a file"
		case 'e', 'l':
			var v word
			if j+1 < len(t) {
				v = word{Text: t[j+1:], Raw: t[j+1:]}
			} else if a.i+1 < len(a.ws) {
				a.i++
				v = a.ws[a.i]
			} else {
				return "sed -" + string(c) + " without a value"
			}
			if c == 'e' {
				return a.script(v)
			}
			return ""
		case 'n', 'r', 'E', 's', 'u', 'z', 'b':
		default:
			return "sed option -" + string(c) + " is not known to be read-only"
		}
	}
	return ""
}

// sedScriptWhy says why sed scripts (the -e expressions of one command)
// are not read-only, or "". sed joins its expressions with newlines; each
// is also read on its own, and whatever either reading finds counts.
func sedScriptWhy(scripts []string) string {
	eff := sedScriptsEffects(scripts)
	switch {
	case eff.write:
		return "sed script may write files (w, W or s///w)"
	case eff.exec:
		return "sed script runs commands (e or s///e)"
	case eff.read:
		return "sed script reads files (r or R)"
	case eff.bad:
		return "sed script is not understood"
	}
	return ""
}

// sedScriptsEffects are the effects of sed's scripts, read joined (as sed
// reads several -e) and each alone.
func sedScriptsEffects(scripts []string) sedEffects {
	eff := sedScan(strings.Join(scripts, "\n"))
	for _, s := range scripts {
		eff = eff.or(sedScan(s))
	}
	return eff
}

// SedWrites reports whether sed's arguments edit files in place or give a
// script that writes files or runs commands (a script known only at run
// time may). The scripts are read whatever else the arguments hold (an
// option nb does not know does not hide a w command).
func SedWrites(ws []word) bool {
	if ShortFlags(ws, "efl")['i'] || HasLong(ws, "in-place") {
		return true
	}
	eff, runTime := sedArgEffects(ws)
	return runTime || eff.write || eff.exec
}

// sedArgEffects are the effects of the scripts sed's arguments give, or
// runTime when one is known only at run time.
func sedArgEffects(ws []word) (eff sedEffects, runTime bool) {
	scripts := OptionWords(ws, 'e', "efl", "expression")
	if len(scripts) == 0 && len(OptionWords(ws, 'f', "efl", "file")) == 0 {
		if pos := Positionals(ws, "efl", "expression", "file", "line-length"); len(pos) > 0 {
			scripts = pos[:1]
		}
	}
	var texts []string
	for _, s := range scripts {
		if !s.Static() {
			return sedEffects{}, true
		}
		texts = append(texts, s.Text)
	}
	return sedScriptsEffects(texts), false
}

// agFileTypes are ag's file type options (ag --list-file-types).
var agFileTypes = strings.Fields(`actionscript ada asciidoc apl asm asp aspx batch bazel bitbake cc cfmx chpl
	clojure coffee config coq cpp crystal csharp cshtml css cython delphi dlang dot dts ebuild elisp elixir elm erlang
	factor fortran fsharp gettext glsl go gradle groovy haml handlebars haskell haxe hh html idris ini ipython isabelle
	j jade java jinja2 js json jsp julia kotlin less liquid lisp log lua m4 make mako markdown mason matlab mathematica
	md mercury naccess nim nix objc objcpp ocaml octave org parrot pdb perl php pike plist plone powershell proto ps1
	pug puppet python qml racket rake razor restructuredtext rs r rdoc ruby rust salt sass scala scheme shell
	smalltalk sml sql stata stylus swift tcl terraform tex thrift tla tt toml ts twig vala vb velocity verilog vhdl vim
	vue wix wsdl wadl xml yaml zeek zephir`)

// yqOperators are the yq and jq names that read files or the
// environment, or evaluate a string as an expression.
var yqOperators = []string{"load", "env", "ENV", "import", "include", "input_filename", "$__prog", "eval",
	"getpath(\"ENV", "splitdoc", "file"}

// yqExtra: the filter (and every operand, as the Go yq may take the lone
// operand for a file) names no operator that reads files or the
// environment.
func yqExtra(_ []word, _ string, ops []word) string {
	for _, o := range ops {
		for _, op := range yqOperators {
			if strings.Contains(o.Text, op) {
				return "yq " + o.Raw + " may read files or the environment (" + op + ")"
			}
		}
	}
	return ""
}

// clocExtra: archives named as operands are extracted by running tar,
// unzip and others into a scratch directory.
func clocExtra(_ []word, _ string, ops []word) string {
	for _, o := range ops {
		t := strings.ToLower(o.Text)
		for _, ext := range []string{".tar", ".tgz", ".tbz", ".txz", ".taz", ".zip", ".gz", ".bz2", ".xz", ".z",
			".7z", ".jar", ".war", ".ear", ".whl", ".deb", ".rpm", ".egg", ".apk", ".ipa", ".vsix", ".nupkg", ".crx",
			".xpi", ".zst", ".lz", ".lzma", ".cpio", ".iso", ".ar"} {
			if strings.HasSuffix(t, ext) || strings.Contains(t, ext+".") {
				return "cloc extracts the archive " + o.Raw + " into a scratch directory"
			}
		}
	}
	return ""
}

// batExtra: bat pages only with --paging=never (or not at all); its first
// operand "cache" is a subcommand that writes the syntax cache.
func batExtra(ws []word, _ string, ops []word) string {
	if len(ops) > 0 && ops[0].Text == "cache" {
		return "bat cache writes the syntax cache"
	}
	for i, w := range ws {
		if w.Text == "--" {
			break
		}
		v, ok := strings.CutPrefix(w.Text, "--paging=")
		if !ok && w.Text == "--paging" && i+1 < len(ws) {
			v, ok = ws[i+1].Text, true
		}
		if ok && v != "never" {
			return "bat --paging=" + v + " runs a pager"
		}
	}
	return ""
}

// shellcheckExtra: -a (--check-sourced) reports, with their lines, the
// problems of the files a script sources; the project's .shellcheckrc
// (external-sources=true) lets shellcheck follow a source of any file,
// a secret too. With --norc only the files named are followed.
func shellcheckExtra(ws []word, _ string, _ []word) string {
	if (ShortFlags(ws, "efsSoiW")['a'] || HasLong(ws, "check-sourced")) && !HasLong(ws, "norc") {
		return "shellcheck -a prints the lines of the files a script sources, which the project's .shellcheckrc may let it follow anywhere"
	}
	return ""
}
