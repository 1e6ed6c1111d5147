package cli

import (
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/spelling"
)

// Options are the global flags of a chat run.
type Options struct {
	Approve  []string
	Provider string
	Model    string
	Config   string
	System   string
	NoTools  bool
	Verbose  bool
	Version  bool
	Help     bool
	// Words is the single-shot message; empty means interactive chat.
	Words []string
}

// usageError is a command-line mistake (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

type flagSpec struct {
	name  string
	value bool // takes a value
	set   func(o *Options, v string)
}

var flagSpecs = []flagSpec{
	{"approve", true, func(o *Options, v string) { o.Approve = append(o.Approve, v) }},
	{"provider", true, func(o *Options, v string) { o.Provider = v }},
	{"model", true, func(o *Options, v string) { o.Model = v }},
	{"config", true, func(o *Options, v string) { o.Config = v }},
	{"system", true, func(o *Options, v string) { o.System = v }},
	{"no-tools", false, func(o *Options, _ string) { o.NoTools = true }},
	{"verbose", false, func(o *Options, _ string) { o.Verbose = true }},
	{"version", false, func(o *Options, _ string) { o.Version = true }},
	{"help", false, func(o *Options, _ string) { o.Help = true }},
}

// parseFlags reads leading flags; the first word that is not a flag starts
// the message, so `nb explain ls -la` passes "-la" through as text. `--`
// ends the flags explicitly.
func parseFlags(args []string) (*Options, error) {
	o := &Options{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.Words = args[i+1:]
			return o, nil
		}
		if a == "-h" {
			o.Help = true
			continue
		}
		if a == "-v" || a == "-V" {
			o.Version = true
			continue
		}
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			if strings.HasPrefix(a, "-") && len(a) > 1 {
				return nil, usagef("unknown flag %s (flags are spelled --name; see nb --help)", a)
			}
			o.Words = args[i:]
			return o, nil
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		spec := findFlag(name)
		if spec == nil {
			if s := suggestFlag(name); s != "" {
				return nil, usagef("unknown flag --%s (did you mean --%s?)", name, s)
			}
			return nil, usagef("unknown flag --%s (see nb --help)", name)
		}
		if spec.value {
			if !hasVal {
				if i+1 >= len(args) {
					return nil, usagef("flag --%s needs a value", name)
				}
				i++
				val = args[i]
			}
			spec.set(o, val)
		} else {
			if hasVal {
				return nil, usagef("flag --%s takes no value", name)
			}
			spec.set(o, "")
		}
	}
	return o, nil
}

func findFlag(name string) *flagSpec {
	for i := range flagSpecs {
		if flagSpecs[i].name == name {
			return &flagSpecs[i]
		}
	}
	return nil
}

func suggestFlag(name string) string {
	var names []string
	for _, f := range flagSpecs {
		names = append(names, f.name)
	}
	return spelling.Suggest(name, names)
}

const usageText = `nb — a command-line AI assistant that can act on this machine

Usage:
  nb [flags]                 interactive chat in the current directory
  nb [flags] WORDS...        ask once, print the answer, exit
  cmd | nb [flags] WORDS...  piped input is added to the message
  nb -- WORDS...             chat even when the first word is a subcommand

Subcommands:
  nb mcp serve [--http ADDR] [--root DIR]...   serve nb's tools over MCP
  nb policy check [--json] -- COMMAND          show the approval decision for a command
  nb tool NAME ARGS_JSON                       run one tool as the model would

Flags:
  --approve PATTERN   pre-approve commands matching PATTERN (repeatable), e.g. 'git log *'
  --provider NAME     model provider (configured name, or openai/anthropic/gemini/azure)
  --model NAME        model to use
  --config FILE       configuration file (default ~/.config/nb/config.json)
  --system FILE       extra system prompt (default ~/.config/nb/system.md)
  --no-tools          chat only; the model cannot run anything
  --verbose           show the full result of every tool call
  --version           print the version
  --help              show this help

In chat, type /help for commands. Exit codes: 0 ok, 1 error, 2 usage, 130 interrupted.
`
