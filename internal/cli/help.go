package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/spelling"
)

// helpTopics is the help of every subcommand, printed on stdout by
// `nb help NAME`, `nb NAME --help` and `nb --help NAME`; none needs a
// provider or configuration.
var helpTopics = map[string]string{
	"help":   usageText,
	"mcp":    mcpUsage,
	"policy": policyUsage,
	"tool":   toolUsage,
}

// runHelp implements `nb help [SUBCOMMAND]`.
func runHelp(args []string, io *iostreams.IO, _ *Options) error {
	if len(args) == 0 {
		printHelp(io, helpTopics["help"])
		return nil
	}
	// nb help mcp serve, nb help policy check: the subcommand's help.
	if text, ok := helpTopics[args[0]]; ok && args[0] != "help" {
		printHelp(io, text)
		return nil
	}
	if len(args) == 1 && args[0] == "help" {
		printHelp(io, helpTopics["help"])
		return nil
	}
	var names []string
	for n := range helpTopics {
		if n != "help" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if s := spelling.Suggest(args[0], names); s != "" && len(args) == 1 {
		return usagef("no help for %q (did you mean nb help %s? to ask the model, nb -- help %s)", args[0], s, args[0])
	}
	return usagef("no help for %q (subcommands: %s; to ask the model, nb -- help %s)",
		strings.Join(args, " "), strings.Join(names, ", "), strings.Join(args, " "))
}

// unknownSubcommand is the usage error of a word after cmd (mcp, policy)
// that is not its subcommand sub, suggesting sub when the word is a
// misspelling of it.
func unknownSubcommand(cmd, word, sub string) error {
	if spelling.Suggest(word, []string{sub}) != "" {
		return usagef("unknown subcommand %s %s (did you mean nb %s %s?)", cmd, word, cmd, sub)
	}
	return usagef("unknown subcommand %s %s (see nb %s --help)", cmd, word, cmd)
}

// printHelp writes a help text on stdout, ending in one newline.
func printHelp(io *iostreams.IO, text string) {
	fmt.Fprint(io.Out, strings.TrimRight(text, "\n")+"\n")
}
