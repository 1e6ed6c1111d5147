package cli

import (
	"strings"

	"github.com/nb-cli/nb/internal/spelling"
)

// The one command-line grammar of nb and its subcommands: flags are spelled
// --name, --name VALUE or --name=VALUE; -h is --help; `--` ends the flags;
// every mistake is a usage error worded the same way for every command
// ("unknown flag --bogus (see nb mcp serve --help)").

// flagDef is one flag of a command.
type flagDef struct {
	name string
	// value says the flag takes a value.
	value bool
	set   func(v string) error
}

// cmdLine is a command's flags and how its words mix with them.
type cmdLine struct {
	// cmd names the command in messages: "nb", "nb policy check".
	cmd   string
	flags []flagDef
	// short maps one-dash spellings to flag names (-h is always help).
	short map[string]string
	// stopAtWord ends the flags at the first word (nb's chat message:
	// `nb explain ls -la` keeps "-la" as text); otherwise words and flags
	// may come in any order.
	stopAtWord bool
	// meant maps flags other tools spell differently to what the
	// command says instead (json: "--output-format json").
	meant map[string]string
}

// parsedLine is what a command line held besides its flags.
type parsedLine struct {
	// words are the words before `--` (all of them when stopAtWord ended
	// the flags).
	words []string
	// afterDashes are the words after `--`; dashes says there was one.
	afterDashes []string
	dashes      bool
	// help says --help or -h was given (when the command defines no help
	// flag of its own).
	help bool
	// set lists the names of the flags given, in order.
	set []string
}

func (c *cmdLine) find(name string) *flagDef {
	for i := range c.flags {
		if c.flags[i].name == name {
			return &c.flags[i]
		}
	}
	return nil
}

// unknown is the usage error for a flag c does not define.
func (c *cmdLine) unknown(flag string) error {
	names := []string{"help"}
	for _, f := range c.flags {
		names = append(names, f.name)
	}
	if strings.HasPrefix(flag, "--") {
		if m, ok := c.meant[flag[2:]]; ok {
			return usagef("unknown flag %s (did you mean %s?)", flag, m)
		}
		if s := spelling.Suggest(flag[2:], names); s != "" {
			return usagef("unknown flag %s (did you mean --%s?)", flag, s)
		}
	} else {
		return usagef("unknown flag %s (flags are spelled --name; see %s --help)", flag, c.cmd)
	}
	return usagef("unknown flag %s (see %s --help)", flag, c.cmd)
}

// parse reads args by c's grammar.
func (c *cmdLine) parse(args []string) (*parsedLine, error) {
	p := &parsedLine{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.afterDashes, p.dashes = args[i+1:], true
			break
		}
		if name, ok := c.short[a]; ok {
			a = "--" + name
		} else if a == "-h" {
			a = "--help"
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if c.stopAtWord {
				p.words = args[i:]
				break
			}
			p.words = append(p.words, a)
			continue
		}
		if !strings.HasPrefix(a, "--") {
			return nil, c.unknown(a)
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		f := c.find(name)
		if f == nil && name == "help" {
			f = &flagDef{name: "help", set: func(string) error { p.help = true; return nil }}
		}
		if f == nil {
			return nil, c.unknown("--" + name)
		}
		if f.value {
			if !hasVal {
				if i+1 >= len(args) {
					return nil, usagef("flag --%s needs a value (see %s --help)", name, c.cmd)
				}
				i++
				val = args[i]
			}
		} else if hasVal {
			return nil, usagef("flag --%s takes no value", name)
		}
		if err := f.set(val); err != nil {
			return nil, err
		}
		p.set = append(p.set, name)
	}
	return p, nil
}
