package policy

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/winshell"
)

// Step 1 of the pipeline: the command parsed once, in its shell's
// language, into the leaf model both parsers produce.

// script is a command parsed in its shell's language (steps 1 and 2),
// with where it runs.
type script struct {
	*shellparse.Analysis
	// cc is where it runs: paths in the form the analysis compares
	// (slashPath), the facts memoised for this decision.
	cc CommandContext
}

// parse is step 1: bash (and any other POSIX shell) by package
// shellparse, cmd.exe and PowerShell by package winshell.
func (e *Engine) parse(command string, cc CommandContext, interactive bool) *script {
	cc.Facts = memoize(cc.Facts, cc.Home)
	cc.interactive = interactive
	if d := dialectOf(cc.Shell); d != shellparse.Bash {
		a := winshell.Analyse(command, d, winshell.Options{Home: cc.Home, Cwd: cc.Cwd, CwdUnknown: cc.CwdUnknown})
		return &script{a, cc}
	}
	cc.Home, cc.Cwd = slashPath(cc.Home), slashPath(cc.Cwd)
	a := analyse(command, shellparse.Options{Home: cc.Home, Cwd: cc.Cwd, CwdUnknown: cc.CwdUnknown, Interactive: interactive})
	if windowsPaths && a.DirAfter.Moved {
		// the analysis's paths are slashed and lower-cased: where a cd
		// leads is seen once it has run
		a.DirAfter = shellparse.DirAfter{}
	}
	return &script{a, cc}
}

// dialectOf is the language of a shell.
func dialectOf(k sysinfo.ShellKind) shellparse.Dialect {
	switch k {
	case sysinfo.ShellCmd:
		return shellparse.Cmd
	case sysinfo.ShellPowerShell:
		return shellparse.PowerShell
	}
	return shellparse.Bash
}

// analyse is the one parser of bash text the engine calls: commands
// (once per decision), rules (once, when they are added) and the scripts
// some programs take as arguments, with the command base telling shells
// and network tools apart. It is a variable so tests can count the parses
// of a decision.
var analyse = func(src string, opts shellparse.Options) *shellparse.Analysis {
	opts.Programs = cmdbase.Programs{}
	return shellparse.Analyse(src, opts)
}

// word is a word of a parsed command line.
type word = shellparse.Word

// isNetworkTool reports a program that talks to the network by design.
func isNetworkTool(name string) bool { return cmdbase.Unix(name).Has(cmdbase.Network) }
