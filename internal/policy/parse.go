package policy

import (
	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// analyse is the one parser of shell text the engine calls: commands
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
