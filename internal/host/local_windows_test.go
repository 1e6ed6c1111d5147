package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/windows"

	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/wintest"
)

// The helper "processes" below are this test binary started again with
// -test.run naming one of them and NB_HELPER set.

// TestWinHelperSleep appends its pid to NB_HELPER_PIDS and sleeps.
func TestWinHelperSleep(t *testing.T) {
	if os.Getenv("NB_HELPER") != "sleep" {
		t.Skip("helper process")
	}
	appendPid(os.Getenv("NB_HELPER_PIDS"), os.Getpid())
	time.Sleep(60 * time.Second)
}

// TestWinHelperNb runs a command that starts a sleeper, as nb would, and
// sleeps until it is killed.
func TestWinHelperNb(t *testing.T) {
	if os.Getenv("NB_HELPER") != "nb" {
		t.Skip("helper process")
	}
	l := &Local{Shell: cmdExe(t), RuntimeDir: os.Getenv("NB_HELPER_RT")}
	os.Setenv("NB_HELPER", "sleep")
	l.Run(context.Background(), &Command{Script: sleeperCmd(t), Dir: os.Getenv("NB_HELPER_RT")})
}

func appendPid(file string, pid int) {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.WriteString(strconv.Itoa(pid) + "\n")
	f.Close()
}

func readPids(t *testing.T, file string) []int {
	t.Helper()
	data, _ := os.ReadFile(file)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid file %q", data)
		}
		pids = append(pids, n)
	}
	return pids
}

// waitPids waits until file lists n pids.
func waitPids(t *testing.T, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if p := readPids(t, file); len(p) >= n {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("helpers did not start: %v", readPids(t, file))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// running reports whether process pid still runs.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, 0)
	return ev == uint32(windows.WAIT_TIMEOUT)
}

// assertDead fails when one of pids still runs a few seconds from now.
func assertDead(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for running(pid) {
			if time.Now().After(deadline) {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
				t.Fatalf("process %d outlived its command", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func cmdExe(t testing.TB) string {
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(sys, "cmd.exe")
}

// sleeperCmd is a cmd.exe line starting one helper in the background and
// one in the foreground.
func sleeperCmd(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	one := `"` + exe + `" -test.run=TestWinHelperSleep`
	return `start "" /b ` + one + ` & ` + one
}

// winRun runs script under cmd.exe in dir and returns stdout, stderr and
// the exit.
func winRun(t *testing.T, l *Local, ctx context.Context, c Command) (string, string, *Exit) {
	t.Helper()
	var out, errb syncBuf
	c.Stdout, c.Stderr = &out, &errb
	ex, err := l.Run(ctx, &c)
	if err != nil {
		t.Fatalf("run %q: %v", c.Script, err)
	}
	return out.String(), errb.String(), ex
}

func newWinLocal(t *testing.T) *Local {
	proctest.Check(t)
	l := &Local{Shell: cmdExe(t), RuntimeDir: wintest.TempDir(t)}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestWinCmdScriptIntact(t *testing.T) {
	l := newWinLocal(t)
	dir := wintest.TempDir(t)
	out, _, ex := winRun(t, l, context.Background(), Command{Dir: dir,
		Script: `echo "a & b | c" ^<x^> & echo second`})
	if ex.Code != 0 || strings.ReplaceAll(out, "\r\n", "\n") != "\"a & b | c\" <x> \nsecond\n" {
		t.Fatalf("out %q %+v", out, ex)
	}
}

func TestWinCmdExitCodeAndCwd(t *testing.T) {
	l := newWinLocal(t)
	dir := wintest.TempDir(t)
	sub := filepath.Join(dir, "Sub Dir")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	_, _, ex := winRun(t, l, context.Background(), Command{Dir: dir, Script: `cd "Sub Dir" && cmd /c exit 5`})
	if ex.Code != 5 {
		t.Errorf("code %d, want 5", ex.Code)
	}
	if !strings.EqualFold(ex.Cwd, sub) {
		t.Errorf("cwd %q, want %q", ex.Cwd, sub)
	}
	_, _, ex = winRun(t, l, context.Background(), Command{Dir: dir, Script: `cd /d "` + sub + `" & echo "unbalanced`})
	if ex.Code != 0 || ex.Cwd != "" {
		t.Errorf("odd quotes: %+v, want code 0 and an unmeasured cwd", ex)
	}
	_, _, ex = winRun(t, l, context.Background(), Command{Dir: dir, Script: `cd nowhere-at-all`})
	if ex.Code == 0 || !strings.EqualFold(ex.Cwd, dir) {
		t.Errorf("failed cd: %+v", ex)
	}
}

func TestWinStdinIsNul(t *testing.T) {
	l := newWinLocal(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, _, ex := winRun(t, l, ctx, Command{Dir: wintest.TempDir(t), Script: `set /p x=answer? & echo done`})
	if ex.Interrupted || !strings.Contains(out, "done") {
		t.Fatalf("a prompt waited for input: %q %+v", out, ex)
	}
}

func TestWinTimeoutKillsTree(t *testing.T) {
	l := newWinLocal(t)
	rt := wintest.TempDir(t)
	pids := filepath.Join(rt, "pids")
	t.Setenv("NB_HELPER", "sleep")
	t.Setenv("NB_HELPER_PIDS", pids)
	start := time.Now()
	_, _, ex := winRun(t, l, context.Background(), Command{Dir: rt, Script: sleeperCmd(t), Timeout: 3 * time.Second})
	if !ex.TimedOut || time.Since(start) > 30*time.Second {
		t.Fatalf("exit %+v after %v", ex, time.Since(start))
	}
	got := readPids(t, pids)
	if len(got) != 2 {
		t.Fatalf("helpers %v, want 2", got)
	}
	assertDead(t, got)
}

func TestWinCancelKillsTree(t *testing.T) {
	l := newWinLocal(t)
	rt := wintest.TempDir(t)
	pids := filepath.Join(rt, "pids")
	t.Setenv("NB_HELPER", "sleep")
	t.Setenv("NB_HELPER_PIDS", pids)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitPids(t, pids, 2)
		cancel()
	}()
	_, _, ex := winRun(t, l, ctx, Command{Dir: rt, Script: sleeperCmd(t)})
	if !ex.Interrupted {
		t.Fatalf("exit %+v", ex)
	}
	assertDead(t, readPids(t, pids))
}

func TestWinBackgroundEndsWithShell(t *testing.T) {
	l := newWinLocal(t)
	rt := wintest.TempDir(t)
	pids := filepath.Join(rt, "pids")
	t.Setenv("NB_HELPER", "sleep")
	t.Setenv("NB_HELPER_PIDS", pids)
	exe, _ := os.Executable()
	// the shell returns while the helper runs on; wait until it has started
	script := `start "" /b "` + exe + `" -test.run=TestWinHelperSleep & ping -n 4 127.0.0.1 >nul`
	_, _, ex := winRun(t, l, context.Background(), Command{Dir: rt, Script: script})
	got := readPids(t, pids)
	if len(got) != 1 {
		t.Fatalf("helper pids %v", got)
	}
	if !ex.Orphans {
		t.Errorf("exit %+v: Orphans not set", ex)
	}
	assertDead(t, got)
}

// TestWinKilledNbTakesTreeAlong kills an nb-like process hard while its
// command runs: the kill-on-close job must end the command's processes.
func TestWinKilledNbTakesTreeAlong(t *testing.T) {
	rt := wintest.TempDir(t)
	pids := filepath.Join(rt, "pids")
	exe, _ := os.Executable()
	nb := exec.Command(exe, "-test.run=TestWinHelperNb")
	nb.Env = append(os.Environ(), "NB_HELPER=nb", "NB_HELPER_RT="+rt, "NB_HELPER_PIDS="+pids)
	if err := nb.Start(); err != nil {
		t.Fatal(err)
	}
	got := waitPids(t, pids, 2)
	nb.Process.Kill()
	nb.Wait()
	assertDead(t, got)
}

// The job lists its processes by id and their names can be read: what
// conTerminal.Foreground reports.
func TestWinJobProcesses(t *testing.T) {
	rt := wintest.TempDir(t)
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "-test.run=TestWinHelperSleep")
	cmd.Env = append(os.Environ(), "NB_HELPER=sleep", "NB_HELPER_PIDS="+filepath.Join(rt, "pids"))
	tree, err := startTree(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		tree.kill()
		cmd.Wait()
		tree.release()
	}()
	pids, err := jobPids(tree.job)
	if err != nil || len(pids) != 1 || int(pids[0]) != cmd.Process.Pid {
		t.Fatalf("job processes %v, %v; want [%d]", pids, err, cmd.Process.Pid)
	}
	if got, want := processName(pids[0]), filepath.Base(exe); !strings.EqualFold(got, want) {
		t.Errorf("process name %q, want %q", got, want)
	}
	if !tree.alive() {
		t.Error("job with a running process reported not alive")
	}
}

func TestWinNativeDir(t *testing.T) {
	for in, want := range map[string]string{
		`/c/Users/me/My Project`: `C:\Users\me\My Project`,
		`/d`:                     `D:\`,
		`/c/`:                    `C:\`,
		`C:\Users\me`:            `C:\Users\me`,
		`/usr/bin`:               ``,
		`/tmp`:                   ``,
	} {
		if got := nativeDir(in); got != want {
			t.Errorf("nativeDir(%q) = %q, want %q", in, got, want)
		}
	}
}

// Output of cmd.exe's built-ins is UTF-8: the code page is set before the
// script runs, so a file name outside the console's code page is text.
func TestWinCmdBuiltinOutputIsUTF8(t *testing.T) {
	l := newWinLocal(t)
	dir := wintest.TempDir(t)
	for _, n := range []string{"café.txt", "日本.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, _, ex := winRun(t, l, context.Background(), Command{Dir: dir, Script: `dir /b & echo naïve`})
	if ex.Code != 0 || !utf8.ValidString(out) || !strings.Contains(out, "café.txt") || !strings.Contains(out, "日本.txt") || !strings.Contains(out, "naïve") {
		t.Fatalf("out %q (valid UTF-8: %v) %+v", out, utf8.ValidString(out), ex)
	}
}
