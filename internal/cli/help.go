package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nb-cli/nb/internal/iostreams"
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
	if len(args) == 1 {
		if text, ok := helpTopics[args[0]]; ok {
			printHelp(io, text)
			return nil
		}
	}
	var names []string
	for n := range helpTopics {
		if n != "help" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return usagef("no help for %q (subcommands: %s; to ask the model, nb -- help %s)",
		strings.Join(args, " "), strings.Join(names, ", "), strings.Join(args, " "))
}

// printHelp writes a help text on stdout, ending in one newline.
func printHelp(io *iostreams.IO, text string) {
	fmt.Fprint(io.Out, strings.TrimRight(text, "\n")+"\n")
}
