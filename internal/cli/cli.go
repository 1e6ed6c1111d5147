// Package cli turns nb's command line into a run: flag parsing, the chat
// modes, slash commands and the subcommands (mcp, policy, tool). It is the
// one place where errors become messages and exit codes.
package cli

import (
	"errors"
	"fmt"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/sandbox"
	"github.com/nb-cli/nb/internal/iostreams"
)

// Version is nb's version, set at build time with -ldflags "-X ...".
var Version = "0.1.0-dev"

// Exit codes (SPEC §1).
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
	// ExitApproval: a tool call needed an approval nobody could give
	// (no terminal to ask at); the answer may still have been printed.
	ExitApproval = 3
	// ExitToolLimit: the message used up maxToolCalls.
	ExitToolLimit   = 4
	ExitInterrupted = 130
)

// Main runs nb with args (without the program name) and returns the exit code.
func Main(args []string, io *iostreams.IO) int {
	// The Landlock sandbox re-executes nb as a helper that restricts itself
	// and then runs the command; nothing else may happen before it.
	if handled, code := sandbox.MaybeHelper(args); handled {
		return code
	}
	// sudo runs nb as its askpass program (package askpass).
	if handled, code := askpass.MaybeHelper(args); handled {
		return code
	}
	if len(args) > 0 && args[0] == host.GuardArg {
		return host.GuardMain(args[1:])
	}
	host.EnableGuard()
	opts, err := parseFlags(args)
	if err != nil {
		return reportError(io, err)
	}
	if len(opts.Words) > 0 && !opts.forcedChat && opts.Help {
		// nb --help tool: the subcommand's help
		if text, ok := helpTopics[opts.Words[0]]; ok {
			printHelp(io, text)
			return ExitOK
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
var subcommands = map[string]func(args []string, io *iostreams.IO, global *Options) int{
	"help":   runHelp,
	"mcp":    runMCP,
	"policy": runPolicy,
	"tool":   runTool,
}

// reportError prints err as one "nb: ..." message and returns its exit code.
func reportError(io *iostreams.IO, err error) int {
	fmt.Fprintln(io.Err, "nb: "+err.Error())
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	return ExitError
}
