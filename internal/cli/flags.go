package cli

import (
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/llm"
)

// Options are the global flags of a chat run.
type Options struct {
	Approve  []string
	Provider string
	Model    string
	Config   string
	System   string
	// Reasoning is the reasoning effort (low, medium, high).
	Reasoning string
	// Resume reopens a conversation /clear set aside: the most recent, or
	// the one picked from a list in an interactive chat.
	Resume bool
	// Continue continues the last conversation: the launch directory's,
	// else the most recent one set aside.
	Continue bool
	// Print runs single-shot: the words are the message (a subcommand's
	// name too), the answer is printed and nb exits.
	Print   bool
	NoTools bool
	Verbose bool
	Version bool
	Help    bool
	// OutputFormat is how a single-shot run reports on stdout.
	OutputFormat OutputFormat
	// NoHistory runs without reading or writing any conversation history
	// and without taking its lock (--no-history, --ephemeral).
	NoHistory bool
	// History is the conversation file to use instead of the launch
	// directory's (--history FILE).
	History string
	// Words is the single-shot message; empty means interactive chat.
	Words []string
	// forcedChat is set when `--` ended the flags: the words are a message
	// even when the first one names a subcommand.
	forcedChat bool
	// set lists the flags given, by name, for subcommands to check.
	set []string
	// quietSandbox leaves out the start-up line about a missing sandbox
	// (nb policy check runs nothing).
	quietSandbox bool
}

// OutputFormat is the value of --output-format.
type OutputFormat string

// Output formats.
const (
	FormatText       OutputFormat = "text"
	FormatJSON       OutputFormat = "json"
	FormatStreamJSON OutputFormat = "stream-json"
)

func parseOutputFormat(v string) (OutputFormat, error) {
	switch f := OutputFormat(v); f {
	case FormatText, FormatJSON, FormatStreamJSON:
		return f, nil
	}
	return "", usagef("--output-format %q: use text, json or stream-json", v)
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
	set   func(o *Options, v string) error
}

// setter adapts a setter that cannot fail.
func setter(f func(o *Options, v string)) func(o *Options, v string) error {
	return func(o *Options, v string) error { f(o, v); return nil }
}

var flagSpecs = []flagSpec{
	{"approve", true, setter(func(o *Options, v string) { o.Approve = append(o.Approve, v) })},
	{"provider", true, setter(func(o *Options, v string) { o.Provider = v })},
	{"model", true, setter(func(o *Options, v string) { o.Model = v })},
	{"config", true, setter(func(o *Options, v string) { o.Config = v })},
	{"system", true, setter(func(o *Options, v string) { o.System = v })},
	{"no-tools", false, setter(func(o *Options, _ string) { o.NoTools = true })},
	{"verbose", false, setter(func(o *Options, _ string) { o.Verbose = true })},
	{"version", false, setter(func(o *Options, _ string) { o.Version = true })},
	{"help", false, setter(func(o *Options, _ string) { o.Help = true })},
	{"output-format", true, func(o *Options, v string) (err error) {
		o.OutputFormat, err = parseOutputFormat(v)
		return err
	}},
	{"no-history", false, setter(func(o *Options, _ string) { o.NoHistory = true })},
	{"ephemeral", false, setter(func(o *Options, _ string) { o.NoHistory = true })},
	{"history", true, func(o *Options, v string) error {
		if v == "" {
			return usagef("--history needs a file name")
		}
		o.History = v
		return nil
	}},
	{"reasoning", true, func(o *Options, v string) error {
		if _, err := llm.ParseEffort(v); err != nil || v == "" {
			return usagef("--reasoning %q: use low, medium or high", v)
		}
		o.Reasoning = v
		return nil
	}},
	{"resume", false, setter(func(o *Options, _ string) { o.Resume = true })},
	{"continue", false, setter(func(o *Options, _ string) { o.Continue = true })},
	{"print", false, setter(func(o *Options, _ string) { o.Print = true })},
}

// shortFlags are the one-dash spellings of nb's flags.
var shortFlags = map[string]string{
	"-h": "help", "-v": "version", "-V": "version",
	"-p": "print", "-c": "continue", "-r": "resume", "-m": "model",
}

// meantFlags are flags of other command-line assistants, or of nb's
// subcommands, with nb's own spelling of what they ask for.
var meantFlags = map[string]string{
	"json":        "--output-format json",
	"stream-json": "--output-format stream-json",
	"prompt":      "-p (--print)",
}

// parseFlags reads leading flags; the first word that is not a flag starts
// the message, so `nb explain ls -la` passes "-la" through as text. `--`
// ends the flags explicitly.
func parseFlags(args []string) (*Options, error) {
	o := &Options{OutputFormat: FormatText}
	line := cmdLine{cmd: "nb", stopAtWord: true, short: shortFlags, meant: meantFlags}
	for _, f := range flagSpecs {
		line.flags = append(line.flags, flagDef{name: f.name, value: f.value, set: func(v string) error { return f.set(o, v) }})
	}
	p, err := line.parse(args)
	if err != nil {
		return nil, err
	}
	o.Words, o.forcedChat, o.set = p.words, p.dashes || o.Print, p.set
	if p.dashes {
		o.Words = p.afterDashes
	}
	if o.History != "" && o.NoHistory {
		return nil, usagef("--history and --no-history cannot be used together")
	}
	for _, f := range []struct {
		set  bool
		name string
	}{{o.Resume, "--resume"}, {o.Continue, "--continue"}} {
		if f.set && o.NoHistory {
			return nil, usagef("%s and --no-history cannot be used together: a run without history opens no earlier conversation", f.name)
		}
	}
	if o.Resume && o.Continue {
		return nil, usagef("--resume and --continue cannot be used together: --continue goes on with the last conversation, --resume picks an earlier one")
	}
	return o, nil
}

// only returns a usage error naming the first flag given that cmd does not
// accept; global flags before a subcommand must mean something to it.
func (o *Options) only(cmd string, allowed ...string) error {
	for _, name := range o.set {
		ok := false
		for _, a := range allowed {
			ok = ok || a == name
		}
		if !ok {
			return usagef("--%s does not apply to nb %s (it accepts: --%s)", name, cmd, strings.Join(allowed, ", --"))
		}
	}
	return nil
}

// usageText is the help (nb --help, nb help); configDir is where the
// configuration lives on this platform (usage_*.go).
const usageText = `nb — a command-line AI assistant that can act on this machine

Usage:
  nb [flags]                 interactive chat in the current directory
  nb [flags] WORDS...        ask once, print the answer, exit (also nb -p)
  cmd | nb [flags] WORDS...  piped input is added to the message
  nb -- WORDS...             chat even when the first word is a subcommand

Subcommands (global flags may come before them: nb --config F tool ...):
  nb mcp serve [--http ADDR] [--root DIR]...  serve nb's tools over MCP
  nb policy check [--json] -- COMMAND         the approval decision for COMMAND
  nb tool NAME ARGS_JSON                      run one tool as the model would
  nb help [SUBCOMMAND]                        this help, or a subcommand's

Flags:
  -p, --print        ask once with the words that follow (even a subcommand's
                     name), print the answer and exit
  -c, --continue     go on with the last conversation: this directory's, or
                     when it is empty the most recent one /clear kept
  -r, --resume       reopen a conversation /clear kept: pick it from a list
                     (without a terminal, the most recent); see /conversations
  -m, --model NAME   model to use (a local server's models: /model in chat)
  --provider NAME    model provider (configured name, or openai, anthropic,
                     gemini, azure)
  --approve PATTERN  pre-approve commands matching PATTERN (repeatable),
                     e.g. 'git log *'
  --config FILE      configuration file (default ` + configDir + `config.json)
  --system FILE      extra system prompt (default ` + configDir + `system.md)
  --reasoning LEVEL  reasoning effort: low, medium or high (Anthropic: extended
                     thinking)
  --no-tools         chat only; the model cannot run anything
  --verbose          show the full result of every tool call, the project
                     instructions read and, in single-shot runs, the tokens
                     and cost of the turn (on stderr)
  --output-format F  text (default), json (one object at the end) or
                     stream-json (one object per line as the run goes); see
                     docs/output-format.md
  --no-history       neither read nor write the conversation history, take no
                     lock (also --ephemeral)
  --history FILE     keep the conversation in FILE instead of
                     .nb_conversation_history.json
  -v, --version      print the version
  -h, --help         show this help

Providers: set one of these (or add "providers" to ` + configDir + `config.json):
  OPENAI_API_KEY     OpenAI; OPENAI_MODEL picks the model
  OPENAI_BASE_URL    an OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM
                     Studio): no key needed, nb asks the server for its models
  ANTHROPIC_API_KEY  Anthropic; ANTHROPIC_MODEL
  GEMINI_API_KEY     Gemini (or GOOGLE_API_KEY); GEMINI_MODEL
  AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT
                     Azure OpenAI; AZURE_OPENAI_DEPLOYMENT

Fleets: the hosts of ~/.ssh/config and of Ansible inventories ("fleet":
{"inventory": [...]} in the config) can run one command together: the model
passes run_cmd a selection (web-0*, @group, a list), and in chat /hosts lists
them and /run @web uptime runs your own.

In chat, type /help for commands and keys.
Exit codes: 0 answered, 1 error, 2 usage, 3 a command needed approval that
could not be asked for (re-run with --approve), 4 maxToolCalls reached,
130 interrupted.
`
