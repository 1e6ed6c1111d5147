package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/iostreams"
)

// usageIO returns streams with a private HOME, no provider and stdin as
// given (not a terminal unless tty).
func usageIO(t *testing.T, stdin string, tty bool) (*iostreams.IO, func() (string, string)) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state")}
	io, in, out, errOut := iostreams.Test(env)
	in.WriteString(stdin)
	io.InTTY = tty
	return io, func() (string, string) { return out.String(), errOut.String() }
}

// TestUsageErrorsLeaveStdoutEmpty: every exit 2, of nb and of every
// subcommand, in every output format, prints nothing on stdout and one
// "nb: ..." line on stderr.
func TestUsageErrorsLeaveStdoutEmpty(t *testing.T) {
	type usageCase struct {
		args  []string
		stdin string
		tty   bool
		want  string // in the stderr line
	}
	var cases []usageCase
	for _, format := range []string{"text", "json", "stream-json"} {
		f := []string{"--output-format", format}
		cases = append(cases,
			usageCase{args: append(f, "--bogus", "hi"), want: "unknown flag --bogus (see nb --help)"},
			usageCase{args: append(f, "--aprove", "ls", "hi"), want: "unknown flag --aprove (did you mean --approve?)"},
			usageCase{args: append(f, "-x", "hi"), want: "unknown flag -x"},
			usageCase{args: append(f, "--json", "hi"), want: "unknown flag --json (did you mean --output-format json?)"},
			usageCase{args: append(f, "--prompt", "hi"), want: "unknown flag --prompt (did you mean -p (--print)?)"},
			usageCase{args: append(f, "--model"), want: "flag --model needs a value"},
			usageCase{args: append(f, "--reasoning", "extreme", "hi"), want: `--reasoning "extreme"`},
			usageCase{args: append(f, "--no-history", "--history", "h.json", "hi"), want: "cannot be used together"},
			usageCase{args: f, want: "nothing to ask"},
			usageCase{args: f, stdin: "  \n", want: "nothing to ask"},
			usageCase{args: append(f, "/nosuch"), want: "unknown command /nosuch"},
			usageCase{args: append(f, "/insert"), want: "usage: /insert FILE"},
			usageCase{args: append(f, "--approve", "ls; rm x", "hi"), want: "--approve"},
		)
	}
	cases = append(cases,
		usageCase{args: []string{"--output-format", "xml", "hi"}, want: "use text, json or stream-json"},
		usageCase{args: []string{"--output-format", "json"}, tty: true, want: "reports a single-shot run"},
		usageCase{args: []string{"--output-format", "stream-json"}, tty: true, want: "reports a single-shot run"},
		usageCase{args: []string{"help", "frobnicate"}, want: `no help for "frobnicate"`},
		usageCase{args: []string{"policy", "--bogus"}, want: "unknown flag --bogus (see nb policy --help)"},
		usageCase{args: []string{"policy", "check", "--bogus", "--", "ls"}, want: "unknown flag --bogus (see nb policy --help)"},
		usageCase{args: []string{"policy"}, want: "policy needs a subcommand"},
		usageCase{args: []string{"policy", "check", "ls"}, want: "put the command after --"},
		usageCase{args: []string{"policy", "check", "rm", "-rf", "/"}, want: `unexpected "rm": put the command after --: nb policy check -- 'rm -rf /'`},
		usageCase{args: []string{"policy", "check", "--json", "--approve", "ls", "echo", "it's"}, want: `put the command after --: nb policy check -- 'echo it'\''s'`},
		usageCase{args: []string{"policy", "chek", "--", "ls"}, want: "unknown subcommand policy chek (did you mean nb policy check?)"},
		usageCase{args: []string{"mcp", "serv"}, want: "unknown subcommand mcp serv (did you mean nb mcp serve?)"},
		usageCase{args: []string{"help", "polcy"}, want: `no help for "polcy" (did you mean nb help policy?`},
		usageCase{args: []string{"--model", "m", "policy", "check", "--", "ls"}, want: "--model does not apply to nb policy"},
		usageCase{args: []string{"mcp"}, want: "mcp needs a subcommand: serve"},
		usageCase{args: []string{"mcp", "frob"}, want: "unknown subcommand mcp frob"},
		usageCase{args: []string{"mcp", "--bogus"}, want: "unknown flag --bogus (see nb mcp --help)"},
		usageCase{args: []string{"mcp", "serve", "--bogus"}, want: "unknown flag --bogus (see nb mcp serve --help)"},
		usageCase{args: []string{"mcp", "serve", "-bogus"}, want: "unknown flag -bogus (flags are spelled --name; see nb mcp serve --help)"},
		usageCase{args: []string{"mcp", "serve", "--rot", "x"}, want: "unknown flag --rot (did you mean --root?)"},
		usageCase{args: []string{"mcp", "serve", "extra"}, want: `unexpected argument "extra"`},
		usageCase{args: []string{"mcp", "serve", "--http"}, want: "flag --http needs a value"},
		usageCase{args: []string{"mcp", "serve", "--http", "0.0.0.0:7777"}, want: "mcp serve:"},
		usageCase{args: []string{"mcp", "serve", "--http", "7777"}, want: "e.g. 127.0.0.1:7777"},
		usageCase{args: []string{"mcp", "serve", "--root", "/nonexistent-nb-root"}, want: "mcp serve: --root /nonexistent-nb-root: no such directory"},
		usageCase{args: []string{"tool"}, want: "tool needs a tool name"},
		usageCase{args: []string{"tool", "--bogus", "run_cmd"}, want: "unknown flag --bogus (see nb tool --help)"},
		usageCase{args: []string{"tool", "run_cmd", "{", "x"}, want: "unexpected"},
		usageCase{args: []string{"tool", "run_cmd", "not json"}, want: "ARGS_JSON is not valid JSON: invalid character 'o' in literal null (expecting 'u') (byte 2): not json"},
		usageCase{args: []string{"tool", "run_cmd", "{command:ls}"}, want: `the shell removed its double quotes: put ARGS_JSON in single quotes: nb tool run_cmd '{"command":"ls -l"}'`},
		usageCase{args: []string{"tool", "run_cmd", `{command:`, `ls -l}`}, want: `unexpected "ls -l}" after ARGS_JSON: the shell split it into words; put ARGS_JSON in single quotes`},
		usageCase{args: []string{"tool", "run_cmd", ""}, want: "ARGS_JSON is empty: give a JSON object ('{}' for no arguments)"},
		usageCase{args: []string{"tool", "runcmd", "{}"}, want: `unknown tool "runcmd" (did you mean run_cmd? available: `},
		usageCase{args: []string{"--verbose", "tool", "run_cmd"}, want: "--verbose does not apply to nb tool"},
	)
	for _, c := range cases {
		io, output := usageIO(t, c.stdin, c.tty)
		code := Main(c.args, io)
		out, errOut := output()
		if code != ExitUsage {
			t.Errorf("nb %q: exit %d, want 2 (stderr %q)", c.args, code, errOut)
		}
		if out != "" {
			t.Errorf("nb %q: stdout %q, want nothing", c.args, out)
		}
		if !strings.HasPrefix(errOut, "nb: ") || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("nb %q: stderr %q, want one nb: line with %q", c.args, errOut, c.want)
		}
	}
}

// TestHelpOnStdout: every way of asking for help prints it on stdout,
// exits 0 and needs no provider (none is configured here).
func TestHelpOnStdout(t *testing.T) {
	for args, want := range map[string]string{
		"help":                 "nb — a command-line AI assistant",
		"--help":               "nb — a command-line AI assistant",
		"-h":                   "nb — a command-line AI assistant",
		"help help":            "nb — a command-line AI assistant",
		"help mcp":             "usage: nb mcp serve",
		"help policy":          "usage: nb policy check",
		"help policy check":    "usage: nb policy check",
		"help mcp serve":       "usage: nb mcp serve",
		"help tool run_cmd":    "usage: nb tool NAME",
		"help tool":            "usage: nb tool NAME",
		"--help tool":          "usage: nb tool NAME",
		"--config c.json help": "nb — a command-line AI assistant",
		"mcp --help":           "usage: nb mcp serve",
		"mcp help":             "usage: nb mcp serve",
		"mcp serve --help":     "usage: nb mcp serve",
		"mcp serve -h":         "usage: nb mcp serve",
		"policy --help":        "usage: nb policy check",
		"policy check --help":  "usage: nb policy check",
		"policy check -h":      "usage: nb policy check",
		"tool --help":          "usage: nb tool NAME",
		"tool -h":              "usage: nb tool NAME",
		"tool help":            "usage: nb tool NAME",
		"tool run_cmd --help":  "usage: nb tool NAME",
	} {
		io, output := usageIO(t, "", false)
		code := Main(strings.Fields(args), io)
		out, errOut := output()
		if code != ExitOK || !strings.HasPrefix(out, want) || errOut != "" {
			t.Errorf("nb %s: exit %d, stdout %.60q, stderr %q; want exit 0 and %q on stdout only", args, code, out, errOut, want)
		}
		if strings.HasSuffix(out, "\n\n") || !strings.HasSuffix(out, "\n") {
			t.Errorf("nb %s: help should end in exactly one newline: %q", args, out[max(0, len(out)-20):])
		}
	}
}

// TestEverySubcommandHasHelp: a new subcommand cannot ship without the
// help `nb help NAME` and `nb NAME --help` print.
func TestEverySubcommandHasHelp(t *testing.T) {
	for name := range subcommands {
		if helpTopics[name] == "" {
			t.Errorf("subcommand %q has no help topic (help.go)", name)
		}
		if name != "help" && !strings.Contains(usageText, "nb "+name+" ") {
			t.Errorf("nb --help does not list subcommand %q", name)
		}
	}
}

// TestHelpTexts: no help a user sees holds a template placeholder, and
// each says what a newcomer looks for: nb --help the short flags, the
// provider variables and fleets; /help the input forms and the keys.
func TestHelpTexts(t *testing.T) {
	texts := map[string]string{}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"help", "mcp"}, {"help", "policy"}, {"help", "tool"}, {"mcp", "--help"}, {"policy", "--help"}, {"tool", "--help"}} {
		io, output := usageIO(t, "", false)
		if code := Main(args, io); code != 0 {
			t.Fatalf("nb %q: exit %d", args, code)
		}
		texts["nb "+strings.Join(args, " ")], _ = output()
	}
	io, output := usageIO(t, "", false)
	(&chat{app: &app{io: io}}).slashHelp(context.Background(), nil)
	_, texts["/help"] = output()
	for name, text := range texts {
		if strings.Contains(text, "{{") || strings.Contains(text, "}}") || text == "" {
			t.Errorf("%s holds a placeholder or nothing:\n%s", name, text)
		}
	}
	for _, want := range []string{"-p, --print", "-c, --continue", "-r, --resume", "-m, --model", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "AZURE_OPENAI_ENDPOINT", "Fleets", "/hosts", configDir + "config.json"} {
		for _, name := range []string{"nb --help", "nb help"} {
			if !strings.Contains(texts[name], want) {
				t.Errorf("%s does not mention %q", name, want)
			}
		}
	}
	for _, want := range []string{"!COMMAND", "@path", "Ctrl+G", "Ctrl+R", "Shift+Enter", "Esc", "Ctrl+C twice", "/conversations"} {
		if !strings.Contains(texts["/help"], want) {
			t.Errorf("/help does not mention %q:\n%s", want, texts["/help"])
		}
	}
	for name, text := range texts {
		for _, l := range strings.Split(text, "\n") {
			if n := len([]rune(l)); n > 79 {
				t.Errorf("%s: line of %d columns (an 80-column terminal wraps it): %q", name, n, l)
			}
		}
	}
}

// TestNoProviderNamesTheConfigFile: the message that no provider is
// configured names the configuration file this nb reads: --config's, the
// one under XDG_CONFIG_HOME, or none (no HOME).
func TestNoProviderNamesTheConfigFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}, []string{"hi"}, `or add "providers" to ` + filepath.Join(dir, "xdg", "nb", "config.json") + " (see README)"},
		{map[string]string{"HOME": dir}, []string{"--config", filepath.Join(dir, "none.json"), "hi"}, "cannot read"},
		{map[string]string{}, []string{"hi"}, "pass it with --config FILE"},
	} {
		io, _, _, errOut := iostreams.Test(c.env)
		if code := Main(c.args, io); code != ExitError || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("nb %q with %v: exit %d, stderr %q; want exit 1 and %q", c.args, c.env, code, errOut, c.want)
		}
	}
	cfg := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(cfg, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	io, _, _, errOut := iostreams.Test(map[string]string{"HOME": dir})
	if code := Main([]string{"--config", cfg, "hi"}, io); code != ExitError || !strings.Contains(errOut.String(), `or add "providers" to `+cfg+" (see README)") {
		t.Errorf("nb --config %s hi: exit %d, stderr %q", cfg, code, errOut)
	}
}

// TestToolHelpListsTheTools: nb tool --help names every tool nb tool runs
// (those its unknown-tool error lists).
func TestToolHelpListsTheTools(t *testing.T) {
	io, output := usageIO(t, "", false)
	if code := Main([]string{"tool", "no_such_tool"}, io); code != ExitUsage {
		t.Fatalf("nb tool no_such_tool: exit %d", code)
	}
	_, errOut := output()
	_, list, ok := strings.Cut(errOut, "available: ")
	if !ok {
		t.Fatalf("no list of tools: %q", errOut)
	}
	names := strings.Split(strings.TrimSuffix(strings.TrimSpace(list), ")"), ", ")
	if len(names) < 5 {
		t.Fatalf("tools: %q", names)
	}
	help := strings.Join(strings.Fields(toolUsage), " ")
	for _, n := range names {
		if !strings.Contains(help, " "+n+",") && !strings.Contains(help, " "+n+".") {
			t.Errorf("nb tool --help does not list %s:\n%s", n, toolUsage)
		}
	}
}

// TestPolicyHelpSaysItsFlags: nb policy --help says what each of its flags
// does and shows a command to try.
func TestPolicyHelpSaysItsFlags(t *testing.T) {
	for _, want := range []string{"  --approve PATTERN ", "  --config FILE ", "  --json ", "Example: nb policy check -- 'rm -rf /'"} {
		if !strings.Contains(policyUsage, want) {
			t.Errorf("nb policy --help lacks %q:\n%s", want, policyUsage)
		}
	}
}

// TestMCPServeAtATerminalSaysWhatWaits: nb mcp serve typed at a terminal
// says on stderr that it waits for an MCP client's messages; started by a
// client (stdin not a terminal) it says nothing.
func TestMCPServeAtATerminalSaysWhatWaits(t *testing.T) {
	for _, tty := range []bool{true, false} {
		io, output := usageIO(t, "", tty)
		if code := Main([]string{"mcp", "serve"}, io); code != ExitOK {
			t.Fatalf("nb mcp serve (terminal %v): exit %d", tty, code)
		}
		out, errOut := output()
		if said := strings.Contains(errOut, "nb mcp serve: serving MCP on stdin and stdout") && strings.Contains(errOut, "Ctrl+D"); said != tty || out != "" {
			t.Errorf("nb mcp serve (terminal %v): stdout %q, stderr %q", tty, out, errOut)
		}
	}
}

// TestServerRootWithoutV1: a chat with a server reached at its root (no
// /v1) that answers 404 says to add /v1, not that the model is unknown.
func TestServerRootWithoutV1(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 page not found", http.StatusNotFound)
	}))
	defer srv.Close()
	dir := t.TempDir()
	io, _, _, errOut := iostreams.Test(map[string]string{
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"OPENAI_BASE_URL": srv.URL, "OPENAI_MODEL": "qwen",
	})
	code := Main([]string{"--no-history", "hello"}, io)
	want := "the server at " + srv.URL + " has no such path: OpenAI-compatible servers answer under /v1: set OPENAI_BASE_URL=" + srv.URL + "/v1"
	if code != ExitError || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "does not know the model") {
		t.Errorf("exit %d, stderr %q; want %q", code, errOut, want)
	}
}

// TestRefusedKeySaysWhereItCameFrom: a chat whose key the provider refuses
// says which variable the key came from.
func TestRefusedKeySaysWhereItCameFrom(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"Incorrect API key provided"}}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	io, _, _, errOut := iostreams.Test(map[string]string{
		"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": "sk-wrong", "OPENAI_MODEL": "m",
	})
	if code := Main([]string{"--no-history", "hello"}, io); code != ExitError || !strings.Contains(errOut.String(), "the key comes from OPENAI_API_KEY") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
