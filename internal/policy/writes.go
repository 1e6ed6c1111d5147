package policy

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// optionWrite reports whether the leaf writes files (or runs a program)
// through its options or arguments rather than through a redirection, as
// the base says (an output option's file, Prog.Writes: git --output,
// find -fprint, sort -o, sed -i or a sed w command, tee, tar -x…). It
// returns what is written ("" when nothing is) and the target words it
// can name.
func optionWrite(l *shellparse.Leaf) (string, []word) {
	ws := l.Args()
	p := cmdbase.Unix(l.Base())
	if f, ok := p.OutputFile(ws); ok {
		shown := f.Text
		if !f.Static() {
			shown = f.Raw
		}
		return l.Base() + " writes " + shown, []word{f}
	}
	return p.ArgsWrite(ws)
}

// optionRuns reports options that make a leaf run programs configured
// elsewhere (git --ext-diff, --textconv, --filters; git -C or --git-dir
// on a repository outside the project, whose configuration nb has not
// seen), as the base says (Prog.RunsConfigured). Such a leaf is approved
// only by an exact rule. With facts, git -C DIR is judged by the facts of
// DIR's repository instead (as a git read in the working directory is).
func optionRuns(l *shellparse.Leaf, facts bool) string {
	return cmdbase.Unix(l.Base()).RunsElsewhere(l.Args(), facts)
}
