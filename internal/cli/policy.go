package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

const policyUsage = `usage: nb policy check [--approve PATTERN]… [--config FILE] [--json] -- COMMAND

Prints the approval decision nb would make for run_cmd with COMMAND (the
words after -- joined by spaces). Nothing is run. Exit status is 0 whatever
the decision.

  --approve PATTERN  decide as nb run with --approve PATTERN would
                     (repeatable)
  --config FILE      configuration file
                     (default: $XDG_CONFIG_HOME/nb/config.json)
  --json             print the decision as one JSON object

Example: nb policy check -- 'rm -rf /'`

// runPolicy implements `nb policy check`.
func runPolicy(args []string, io *iostreams.IO, global *Options) error {
	if err := global.only("policy", "config", "approve"); err != nil {
		return err
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		printHelp(io, policyUsage)
		return nil
	}
	if len(args) == 0 {
		return usagef("policy needs a subcommand: check (see nb policy --help)")
	}
	if strings.HasPrefix(args[0], "-") {
		return (&cmdLine{cmd: "nb policy"}).unknown(args[0])
	}
	if args[0] != "check" {
		return unknownSubcommand("policy", args[0], "check")
	}
	usage := func(format string, a ...any) error {
		return usagef("policy check: "+format+" (see nb policy --help)", a...)
	}
	approve := append([]string(nil), global.Approve...)
	configPath, asJSON := global.Config, false
	line := cmdLine{cmd: "nb policy", flags: []flagDef{
		{name: "approve", value: true, set: func(v string) error { approve = append(approve, v); return nil }},
		{name: "config", value: true, set: func(v string) error { configPath = v; return nil }},
		{name: "json", set: func(string) error { asJSON = true; return nil }},
	}}
	if w := firstWord(&line, args[1:]); w >= 0 {
		// nb policy check rm -rf /: the command's own options are not
		// nb's.
		cmd := strings.Join(args[1+w:], " ")
		return usage("unexpected %q: put the command after --: nb policy check -- '%s'", args[1+w], strings.ReplaceAll(cmd, "'", `'\''`))
	}
	p, err := line.parse(args[1:])
	if err != nil {
		return err
	}
	if p.help {
		printHelp(io, policyUsage)
		return nil
	}
	if len(p.words) > 0 {
		return usage("unexpected %q: put the command after --", p.words[0])
	}
	if !p.dashes {
		return usage("missing -- before the command")
	}
	command := p.afterDashes
	cmd := strings.Join(command, " ")
	if strings.TrimSpace(cmd) == "" {
		return usage("no command given after --")
	}
	// Decided by run_cmd's own review, built by the composition root every
	// chat uses: the same engine, grants, host, home and disk facts.
	a, err := newApp(io, &Options{Config: configPath, Approve: approve, quietSandbox: true}, false, forTool)
	if err != nil {
		return err
	}
	defer a.close()
	run, ok := a.tools.Get("run_cmd")
	if !ok {
		return fmt.Errorf("policy: run_cmd is not available")
	}
	callArgs, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	inv, err := run.Review(context.Background(), &tool.Call{ID: "nb-policy", Name: "run_cmd", Args: callArgs}, tool.At{Cwd: a.workdir.Cwd()})
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	d := inv.Decision
	// The display is the prompt line (SPEC §6.4), drawn as the prompt
	// draws it.
	shown := *d
	shown.Display = approval.DisplayLine(d)
	if asJSON {
		out, err := json.Marshal(&shown)
		if err != nil {
			return fmt.Errorf("policy: %w", err)
		}
		fmt.Fprintln(io.Out, string(out))
		return nil
	}
	fmt.Fprintf(io.Out, "decision: %s\n", d.Decision)
	fmt.Fprintf(io.Out, "safety:   %s\n", d.Safety)
	fmt.Fprintf(io.Out, "display:  %s\n", strings.ReplaceAll(shown.Display, "\n", "\n          "))
	fmt.Fprintf(io.Out, "default:  %s", d.DefaultAnswer)
	if d.OfferAlways {
		fmt.Fprintf(io.Out, " (Always would save: %s)", strings.ReplaceAll(d.Rule, "\n", ", "))
	}
	fmt.Fprintln(io.Out)
	switch {
	case d.Decision == policy.Ask:
		fmt.Fprintf(io.Out, "by:       the user, at a prompt\n")
	case d.DecidedBy != "":
		if says, ok := deciders[d.DecidedBy]; ok {
			fmt.Fprintf(io.Out, "by:       %s (%s)\n", says, d.DecidedBy)
		} else {
			fmt.Fprintf(io.Out, "by:       %s\n", d.DecidedBy)
		}
	}
	for _, r := range d.Reasons {
		fmt.Fprintf(io.Out, "reason:   %s\n", r)
	}
	return nil
}

// firstWord is the index in args of the first word that is neither one
// of line's flags nor a flag's value, when args hold no "--"; else -1.
func firstWord(line *cmdLine, args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return -1
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if slices.Contains(args[i:], "--") {
				return -1
			}
			return i
		}
		name, _, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := line.find(name); f != nil && f.value && !hasVal {
			i++
		}
	}
	return -1
}

// deciders say in words who decided, for nb policy check (the audit log
// keeps the short names).
var deciders = map[policy.Decider]string{
	policy.ByFlag:      "an --approve pattern of this run",
	policy.ByRule:      "an approval.allow rule of the configuration",
	policy.ByGrant:     "an approval saved with Always (/approvals lists them)",
	policy.BySafeList:  "the safe list: every part only reads",
	policy.BySandbox:   "the sandbox (approval.autoApproveInSandbox)",
	policy.ByDenyRule:  "a deny rule of the configuration",
	policy.BySensitive: "a sensitive path",
}
