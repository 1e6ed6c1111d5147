package policy

import "github.com/nb-cli/nb/internal/shellparse"

// analyse is shellparse.Analyse, the one parser of shell text the engine
// calls: commands (once per decision), rules (once, when they are added)
// and the scripts some programs take as arguments. It is a variable so
// tests can count the parses of a decision.
var analyse = shellparse.Analyse
