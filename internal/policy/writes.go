package policy

import (
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// optionWrite reports whether the leaf writes files (or runs a program)
// through its options or arguments rather than through a redirection:
// git --output, find -fprint, sort -o, sed -i or a sed w command, tee,
// tar -x… It returns what is written ("" when nothing is) and the target
// words it can name.
func optionWrite(l *shellparse.Leaf) (string, []word) {
	ws := l.Args()
	base := l.Base()
	if f := cmdbase.Unix(base).OutputFile(ws); f != "" {
		return base + " writes " + f, []word{{Text: f, Raw: f}}
	}
	switch base {
	case "git":
		if cmdbase.AnyWord(ws, "format-patch") && (cmdbase.ShortFlags(ws, "o")['o'] || cmdbase.HasLong(ws, "output-directory")) {
			return "git format-patch -o writes files", nil
		}
	case "find":
		if f := cmdbase.ReadFind(ws); f.Writer != "" {
			return "find " + f.Writer + " writes a file", f.Writes[:min(1, len(f.Writes))]
		}
	case "sed":
		if cmdbase.SedWrites(ws) {
			pos := cmdbase.Positionals(ws, "efl", "expression", "file", "line-length")
			if len(cmdbase.OptionValues(ws, 'e', "efl", "expression")) == 0 && len(cmdbase.OptionValues(ws, 'f', "efl", "file")) == 0 && len(pos) > 0 {
				pos = pos[1:]
			}
			return "sed edits files", pos
		}
	case "tee":
		if pos := cmdbase.Positionals(ws, ""); len(pos) > 0 {
			return "tee writes " + pos[0].Raw, pos
		}
	case "uniq":
		if pos := cmdbase.Positionals(ws, "fsw", "skip-fields", "skip-chars", "check-chars"); len(pos) > 1 {
			return "uniq writes " + pos[1].Raw, pos[1:2]
		}
	case "xxd":
		pos := cmdbase.Positionals(ws, "cglosn", "cols", "groupsize", "len", "offset", "seek", "name")
		if len(pos) > 1 {
			return "xxd writes " + pos[1].Raw, pos[1:2]
		}
	case "curl":
		if cmdbase.ShortFlags(ws, "odDcKHXTuAeEbrmwxyYzF")['O'] || cmdbase.HasLong(ws, "remote-name", "remote-name-all") {
			return "curl -O writes a file", nil
		}
	case "tar", "bsdtar", "gtar":
		f := cmdbase.ShortFlags(ws, "fCbFgHIKLNTVX")
		if len(ws) > 0 && !strings.HasPrefix(ws[0].Text, "-") {
			for _, c := range ws[0].Text {
				f[byte(c)] = true
			}
		}
		if f['c'] || f['x'] || f['u'] || f['r'] || f['A'] || cmdbase.HasLong(ws, "create", "extract", "get", "append", "update", "catenate", "concatenate", "delete", "to-command", "use-compress-program", "checkpoint-action", "info-script", "new-volume-script", "rsh-command") {
			t := cmdbase.OptionValues(ws, 'C', "fCbFgHIKLNTVX", "directory")
			var tw []word
			for _, v := range t {
				tw = append(tw, word{Text: v, Raw: v})
			}
			return "tar writes files or runs programs", tw
		}
	}
	return "", nil
}

// optionRuns reports options that make a leaf run programs configured
// elsewhere (git --ext-diff, --textconv, --filters; git -C or --git-dir
// on a repository outside the project, whose configuration nb has not
// seen). Such a leaf is approved only by an exact rule. With facts, git
// -C DIR is judged by the facts of DIR's repository instead (as a git
// read in the working directory is).
func optionRuns(l *shellparse.Leaf, facts bool) string {
	if l.Base() != "git" {
		return ""
	}
	ws := l.Args()
	if r := cmdbase.ForbidLong(ws, "ext-diff", "textconv", "filters", "open-files-in-pager", "exec", "upload-pack", "receive-pack", "run", "extcmd", "tool"); r != "" {
		return "git " + strings.TrimPrefix(r, "option ")
	}
	globals, _, _ := cmdbase.GitSubcommand(ws)
	for _, g := range globals {
		switch {
		case g.Name == "-C" && facts:
			// judged by the disk facts of the repository it names
		case g.Name == "-C" || g.Name == "--git-dir" || g.Name == "--work-tree":
			v := g.Value.Text
			if g.HasValue && (strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || v == ".." || strings.HasPrefix(v, "../") || strings.Contains(v, "/../")) {
				return "git on a repository outside the project runs the programs its configuration names"
			}
		}
	}
	return ""
}
