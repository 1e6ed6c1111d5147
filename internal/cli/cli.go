// Package cli turns nb's command line into a run: flag parsing, the chat
// modes, slash commands and the subcommands (mcp, policy, tool). It is the
// one place where errors become messages and exit codes.
package cli

import (
	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/iostreams"
)

// Version is nb's version, set at build time with -ldflags "-X ...".
var Version = "0.1.0-dev"

// Main runs nb with args (without the program name) and returns the exit code.
func Main(args []string, io *iostreams.IO) int {
	// The sandbox's helper (nb executed again by package sandbox) never
	// gets here: package enter runs it while the program initialises.
	// sudo runs nb as its askpass program (package askpass).
	if handled, code := askpass.MaybeHelper(args); handled {
		return code
	}
	host.EnableGuard()
	return finish(io, run(args, io))
}

// run runs nb's command line (see Main).
func run(args []string, io *iostreams.IO) error {
	opts, err := parseFlags(args)
	if err != nil {
		return err
	}
	if len(opts.Words) > 0 && !opts.forcedChat && opts.Help {
		// nb --help tool: the subcommand's help
		if text, ok := helpTopics[opts.Words[0]]; ok {
			printHelp(io, text)
			return nil
		}
	}
	if len(opts.Words) > 0 && !opts.forcedChat && !opts.Help && !opts.Version {
		if sub, ok := subcommands[opts.Words[0]]; ok {
			return sub(opts.Words[1:], io, opts)
		}
	}
	return runChat(opts, io)
}

// subcommands are the reserved first words. Each receives the global flags
// given before it (git-style: nb --config F tool ...), and refuses the ones
// that mean nothing to it.
var subcommands = map[string]func(args []string, io *iostreams.IO, global *Options) error{
	"help":   runHelp,
	"mcp":    runMCP,
	"policy": runPolicy,
	"tool":   runTool,
}
