// Package e2e runs nb's end-to-end scripts: testscript (.txtar) files that
// drive the real nb program against scripted fake model servers speaking
// the providers' wire formats.
package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nb-cli/nb/internal/cli"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"nb": func() { os.Exit(cli.Main(os.Args[1:], iostreams.System())) },
	})
}

func TestScripts(t *testing.T) {
	p := testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := env.WorkDir + "/home"
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", home+"/.config")
			env.Setenv("XDG_STATE_HOME", home+"/.local/state")
			env.Setenv("TERM", "xterm-256color")
			env.Setenv("NB_TEST_NPM", os.Getenv("NB_TEST_NPM"))
			if err := os.MkdirAll(home+"/.config/nb", 0o755); err != nil {
				return err
			}
			env.Values[scriptTKey{}] = env.T()
			return llmtest.TestscriptSetup(env)
		},
		Cmds: commands(),
	}
	if raceEnabled {
		// nb runs as the race-built test binary, several times slower:
		// the scripts where nb's goroutines meet run (raceScripts);
		// scripts/test.sh runs every script without the race detector.
		p.Dir, p.Files = "", raceScripts(t, "testdata")
	}
	testscript.Run(t, p)
}

// raceMark begins a script's line saying why the race detector runs it:
// its nb is interrupted, streams, serves or runs commands while other
// goroutines work (Ctrl+C while an answer streams, a sandboxed command,
// an MCP server).
const raceMark = "# race: "

// raceScripts are the scripts of dir holding a raceMark line.
func raceScripts(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(b, []byte(raceMark)) || bytes.Contains(b, []byte("\n"+raceMark)) {
			out = append(out, f)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d scripts of %s are marked %q", len(out), dir, raceMark)
	}
	return out
}

// scriptTKey holds a script's testscript.T (for need).
type scriptTKey struct{}

// cmdNeed: need NAME... ends the script through testenv when a program it
// needs is not installed (a failure in CI, a skip elsewhere); the name
// mcp-packages stands for the MCP test packages scripts/test.sh installs
// (NB_TEST_NPM).
func cmdNeed(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: need PROGRAM...")
	}
	t := ts.Value(scriptTKey{}).(testscript.T)
	for _, name := range args {
		if name != "mcp-packages" {
			testenv.Tool(t, name)
			continue
		}
		dir := os.Getenv("NB_TEST_NPM")
		if _, err := os.Stat(dir + "/node_modules/@modelcontextprotocol/server-everything/dist/index.js"); dir == "" || err != nil {
			testenv.Missing(t, "the MCP test packages are not installed (scripts/test.sh installs them)")
		}
	}
}

// commands are the script commands: fakellm (a scripted model server, see
// package llmtest), ptyrun, outputschema and nbexit (output_test.go), need.
func commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := llmtest.TestscriptCommands()
	cmds["ptyrun"] = cmdPTYRun
	cmds["outputschema"] = cmdOutputSchema
	cmds["nbexit"] = cmdNBExit
	cmds["need"] = cmdNeed
	return cmds
}

// ptyrun [STEP...] -- nb ARGS... runs nb on a pseudo-terminal. Steps run in
// order: wait:TEXT waits (up to 20s) until the output contains TEXT; send:KEYS
// types KEYS (^C is Ctrl+C, ^D Ctrl+D, \r Enter, \e Escape); kill:SIG sends TERM, HUP or
// INT; sleep:DURATION pauses; exit:N expects exit code N (checked at the end;
// default 0). The terminal transcript, with escape
// sequences removed, becomes the command's stdout.
func cmdPTYRun(ts *testscript.TestScript, neg bool, args []string) {
	sep := -1
	for i, a := range args {
		if a == "--" {
			sep = i
			break
		}
	}
	if sep < 0 || sep+1 >= len(args) || args[sep+1] != "nb" {
		ts.Fatalf("usage: ptyrun [wait:TEXT|send:KEYS|kill:SIG|sleep:D|exit:N]... -- nb ARGS...")
	}
	// testscript puts a copy of the test binary named nb on PATH; it runs
	// cli.Main when started under that name.
	exe, err := exec.LookPath("nb")
	ts.Check(err)
	cmd := exec.Command(exe, args[sep+2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 100})
	ts.Check(err)
	defer f.Close()

	rec := record(f)
	text := func() string { return stripANSI(rec.String()) }
	wantExit := 0
	for _, step := range args[:sep] {
		kind, arg, _ := strings.Cut(step, ":")
		switch kind {
		case "wait":
			deadline := time.Now().Add(20 * time.Second)
			for !strings.Contains(text(), arg) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					ts.Fatalf("timed out waiting for %q; screen so far:\n%s", arg, text())
				}
				time.Sleep(20 * time.Millisecond)
			}
		case "send":
			keys := strings.NewReplacer(`^C`, "\x03", `^D`, "\x04", `\r`, "\r", `\n`, "\n", `\e`, "\x1b").Replace(arg)
			_, err := io.WriteString(f, keys)
			ts.Check(err)
		case "kill":
			sig := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP, "INT": syscall.SIGINT}[arg]
			if sig == 0 {
				ts.Fatalf("kill: unknown signal %q", arg)
			}
			ts.Check(cmd.Process.Signal(sig))
		case "sleep":
			d, err := time.ParseDuration(arg)
			ts.Check(err)
			time.Sleep(d)
		case "exit":
			wantExit, err = strconv.Atoi(arg)
			ts.Check(err)
		default:
			ts.Fatalf("unknown ptyrun step %q", step)
		}
	}
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	select {
	case err = <-waitErr:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-waitErr
		ts.Fatalf("nb did not exit; screen:\n%s", text())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		ts.Fatalf("wait: %v", err)
	}
	// Read what nb wrote before it exited: the terminal reports its end
	// once drained, unless a leftover process still holds it open.
	select {
	case <-rec.done:
	case <-time.After(2 * time.Second):
	}
	f.Close()
	<-rec.done
	fmt.Fprint(ts.Stdout(), text())
	if code != wantExit {
		ts.Fatalf("exit code %d, want %d; screen:\n%s", code, wantExit, text())
	}
}

// transcript collects everything a program writes to its terminal.
type transcript struct {
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{} // closed when the terminal is closed
}

// record reads f until it fails (the terminal closed).
func record(f *os.File) *transcript {
	t := &transcript{done: make(chan struct{})}
	go func() {
		defer close(t.done)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			t.mu.Lock()
			t.out.Write(buf[:n])
			t.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return t
}

func (t *transcript) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TERM", "TMPDIR",
		"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY", "GEMINI_BASE_URL", "NO_COLOR"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\r`)

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }
