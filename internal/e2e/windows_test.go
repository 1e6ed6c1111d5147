//go:build windows

package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nb-cli/nb/internal/llm/llmtest"
)

// TestWinScripts runs the scripts of testdata/windows with nb.exe (also
// under Wine): the whole chat path on Windows, with cmd.exe as the shell.
func TestWinScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "windows"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("USERPROFILE", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
			if err := os.MkdirAll(filepath.Join(home, "config", "nb"), 0o755); err != nil {
				return err
			}
			return llmtest.TestscriptSetup(env)
		},
		Cmds: winCommands(),
	})
}

func winCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	cmds := commands()
	cmds["mcpstdio"] = cmdMCPStdio
	return cmds
}

// mcpstdio FILE ARGS... runs nb ARGS (an MCP server on stdio) with pipes:
// it sends the lines of FILE, waits up to 30s for the answer to the last
// request with an id, lets the server run two seconds more (a session's
// program would write meanwhile), then closes its stdin. The server's
// stdout becomes the command's stdout.
func cmdMCPStdio(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mcpstdio FILE ARGS...")
	}
	lines := strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n")
	last := ""
	for _, l := range lines {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && len(m.ID) > 0 {
			last = `"id":` + string(m.ID) + ","
		}
	}
	var nb string
	for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
		if p := filepath.Join(d, "nb.exe"); fileExists(p) {
			nb = p
			break
		}
	}
	if nb == "" {
		ts.Fatalf("nb.exe not on the script's PATH")
	}
	cmd := exec.Command(nb, args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = os.Environ()
	for _, k := range []string{"PATH", "HOME", "USERPROFILE", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "TEMP", "TMP"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	in, err := cmd.StdinPipe()
	ts.Check(err)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	var mu sync.Mutex
	var got strings.Builder
	answered := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		once := sync.Once{}
		for sc.Scan() {
			mu.Lock()
			got.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if last != "" && strings.Contains(sc.Text(), last) {
				once.Do(func() { close(answered) })
			}
		}
	}()
	for _, l := range lines {
		io.WriteString(in, l+"\n")
	}
	select {
	case <-answered:
	case <-time.After(30 * time.Second):
	}
	time.Sleep(2 * time.Second)
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
	}
	mu.Lock()
	defer mu.Unlock()
	ts.Stdout().Write([]byte(got.String()))
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
