package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/spelling"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/wiring"
)

const toolUsage = `usage: nb tool NAME [ARGS_JSON]

Runs one of nb's native tools the way the model would and prints exactly the
text the model would receive, secrets withheld. You typed it, so nothing is
asked.

Tools: run_cmd, read_file, write_file, edit_file, set_cwd, terminal_start,
terminal_continue, terminal_stop, terminal_list. ARGS_JSON is a JSON object
(default {}), in single quotes for the shell; an argument the tool does not
take is an error naming those it takes.
Example: nb tool run_cmd '{"command":"uname -a"}'`

// quoteHint says how to keep ARGS_JSON whole and its quotes in it.
const quoteHint = `put ARGS_JSON in single quotes: nb tool run_cmd '{"command":"ls -l"}'`

// argsJSONProblem says why raw is not JSON (err) and where; when the shell
// took its double quotes away (run_cmd {"command":"ls"} typed unquoted
// arrives as {command:ls}), it says how to keep them.
func argsJSONProblem(raw string, err error) string {
	why := strings.TrimPrefix(err.Error(), "json: ")
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		why += fmt.Sprintf(" (byte %d)", se.Offset)
	}
	if strings.TrimSpace(raw) == "" {
		return "tool: ARGS_JSON is empty: give a JSON object ('{}' for no arguments)"
	}
	msg := fmt.Sprintf("tool: ARGS_JSON is not valid JSON: %s: %s", why, raw)
	if strings.HasPrefix(strings.TrimSpace(raw), "{") && strings.Contains(raw, ":") && !strings.Contains(raw, `"`) {
		return msg + "; the shell removed its double quotes: " + quoteHint
	}
	return msg
}

// runTool implements `nb tool NAME ARGS_JSON`.
func runTool(args []string, io *iostreams.IO, global *Options) error {
	if err := global.only("tool", "config"); err != nil {
		return err
	}
	opts := &Options{Config: global.Config}
	line := cmdLine{cmd: "nb tool", flags: []flagDef{
		{name: "config", value: true, set: func(v string) error { opts.Config = v; return nil }},
	}}
	p, err := line.parse(args)
	if err != nil {
		return err
	}
	if p.help || (len(p.words) > 0 && p.words[0] == "help") {
		printHelp(io, toolUsage)
		return nil
	}
	args = append(p.words, p.afterDashes...)
	if len(args) < 1 {
		return usagef("tool needs a tool name: nb tool NAME [ARGS_JSON] (see nb tool --help)")
	}
	if len(args) > 2 {
		if strings.HasPrefix(args[1], "{") {
			return usagef("tool: unexpected %q after ARGS_JSON: the shell split it into words; %s", args[2], quoteHint)
		}
		return usagef("tool: unexpected %q after ARGS_JSON (see nb tool --help)", args[2])
	}
	raw := "{}"
	if len(args) == 2 {
		raw = args[1]
	}
	if err := json.Unmarshal([]byte(raw), new(any)); err != nil {
		return usagef("%s", argsJSONProblem(raw, err))
	}
	// One call, then the process ends: collecting garbage a quarter as
	// often is worth the memory (the detector's start allocates most).
	debug.SetGCPercent(400)
	// One more P than processors: starting the sandbox's helper holds
	// one in the kernel (its clone, then the wait for its exec) while the
	// detector's warming holds another, and the sandbox's view, made
	// meanwhile, would otherwise wait for either.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1)
	}
	// The user typed the call: it is decided as if a terminal could ask,
	// and runs whatever the decision.
	a, err := newApp(io, opts, false, forTool)
	if err != nil {
		return err
	}
	defer a.close()
	t, ok := a.tools.Get(args[0])
	if !ok {
		var names []string
		for _, s := range a.tools.Specs() {
			names = append(names, s.Name)
		}
		if s := spelling.Suggest(args[0], names); s != "" {
			return usagef("unknown tool %q (did you mean %s? available: %s)", args[0], s, strings.Join(names, ", "))
		}
		return usagef("unknown tool %q (available: %s)", args[0], strings.Join(names, ", "))
	}

	// The detector reads its rules and the secret files while the call
	// is reviewed and runs.
	go a.w.Redact.Warm()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	call := &tool.Call{ID: "nb-tool", Name: args[0], Args: json.RawMessage(raw)}
	// The user typed the call: whatever the policy says, it runs, and the
	// audit log records both.
	at := tool.At{Cwd: a.workdir.Cwd()}
	entry := wiring.Call{Kind: wiring.KindTool, Cwd: at.Cwd, Tool: call.Name, DecidedBy: policy.ByUser}
	var res *tool.Result
	if inv, err := t.Review(ctx, call, at); err != nil {
		res = tool.Errorf("%v", err)
		entry.Outcome = "invalid: " + err.Error()
	} else {
		entry.Decision, entry.Outcome = inv.Decision, string(agent.Ran)
		if res, err = inv.Run(ctx); err != nil {
			res = tool.Errorf("%v", err)
		}
		entry.Result = res
	}
	// What the model would receive has its secrets withheld; stderr says
	// which.
	r := a.w.Redact.Redact(res.Content, nil)
	res.Content, res.Withheld = r.Text, r.Counts()
	a.w.Audit.Write(entry)
	if len(r.Found) > 0 {
		fmt.Fprintf(io.Err, "nb: withheld %s\n", agent.Describe(res.Withheld))
	}
	fmt.Fprintln(io.Out, res.Content)
	switch {
	case ctx.Err() != nil:
		return shown(errInterrupted)
	case res.IsError:
		// The text the model would get is on stdout: it says why.
		return shown(errors.New("the tool failed"))
	}
	return nil
}
