package host

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/proctest"
	"github.com/nb-cli/nb/internal/testenv"
	"go.uber.org/goleak"
)

// syncBuf is a goroutine-safe buffer.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func hygiene(t *testing.T) {
	t.Helper()
	proctest.Check(t)
	t.Cleanup(func() { goleak.VerifyNone(t) })
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

type runOut struct {
	stdout, stderr string
	ex             *Exit
}

func run(t *testing.T, l *Local, c Command) runOut {
	t.Helper()
	var out, errb syncBuf
	c.Stdout, c.Stderr = &out, &errb
	if c.Dir == "" {
		c.Dir = t.TempDir()
	}
	ex, err := l.Run(testCtx(t), &c)
	if err != nil {
		t.Fatalf("run %q: %v", c.Script, err)
	}
	return runOut{out.String(), errb.String(), ex}
}

func newLocal(t *testing.T, shell string) *Local {
	l := &Local{Shell: shell}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestRunQuoting(t *testing.T) {
	hygiene(t)
	home := t.TempDir()
	tests := []struct{ script, want string }{
		{`echo 'a b c' | awk '{print $1}'`, "a\n"},
		{`echo $HOME`, home + "\n"},
		{"cat <<'EOF'\n$HOME \"q\" `x`\nEOF", "$HOME \"q\" `x`\n"},
		{"cat <<EOF\n[$HOME]\nEOF", "[" + home + "]\n"},
		{"x=1\ny=$((x+1))\necho $y\n", "2\n"},
		{`printf '%s|' "$0" "$#"; echo`, "bash|0|\n"},
		{`cat; echo done`, "done\n"},
		{`[ -t 0 ] || echo no-tty`, "no-tty\n"},
		{`echo "$PAGER $GIT_PAGER $NB $GIT_TERMINAL_PROMPT $EDITOR $TERM"`, "cat cat 1 0 true dumb\n"},
		{`echo "${NB_CWD_FILE-unset} ${BASH_ENV-unset}"`, "unset unset\n"},
		{`bash -c 'trap -p EXIT; echo nested'`, "nested\n"},
		{`echo "a\"b" 'c'"'"'d' $'e\tf'`, "a\"b c'd e\tf\n"},
		{`f() { echo "$@"; }; f 1 "2 3"`, "1 2 3\n"},
		{`set -o noclobber; echo ok`, "ok\n"},
		{`set -u; echo ok`, "ok\n"},
		{`echo $PWD`, "DIR\n"},
	}
	l := &Local{Env: append(os.Environ(), "HOME="+home)}
	t.Cleanup(func() { l.Close() })
	for _, tt := range tests {
		dir := t.TempDir()
		r := run(t, l, Command{Script: tt.script, Dir: dir})
		want := strings.ReplaceAll(tt.want, "DIR", dir)
		if r.stdout != want || r.ex.Code != 0 {
			t.Errorf("%q: stdout %q (code %d, stderr %q), want %q", tt.script, r.stdout, r.ex.Code, r.stderr, want)
		}
	}
}

func TestRunExitCodesAndStderr(t *testing.T) {
	hygiene(t)
	l := newLocal(t, "")
	tests := []struct {
		script         string
		code           int
		stdout, stderr string
	}{
		{"exit 3", 3, "", ""},
		{"false", 1, "", ""},
		{"echo out; echo err >&2; exit 7", 7, "out\n", "err\n"},
		{"kill -TERM $$", 143, "", ""},
		{"kill -KILL $$", 137, "", ""},
		{"nb-no-such-command-x", 127, "", "bash: line 1: nb-no-such-command-x: command not found\n"},
		{"if", 2, "", "bash: -c: line 2: syntax error: unexpected end of file\n"},
	}
	for _, tt := range tests {
		r := run(t, l, Command{Script: tt.script})
		if r.ex.Code != tt.code || r.stdout != tt.stdout || (tt.stderr != "" && r.stderr != tt.stderr) {
			t.Errorf("%q: code %d stdout %q stderr %q", tt.script, r.ex.Code, r.stdout, r.stderr)
		}
		if r.ex.TimedOut || r.ex.Interrupted || r.ex.Orphans {
			t.Errorf("%q: flags %+v", tt.script, r.ex)
		}
	}
}

func TestRunTimeout(t *testing.T) {
	hygiene(t)
	l := newLocal(t, "")
	r := run(t, l, Command{Script: "echo start; sleep 30; echo never", Timeout: time.Second})
	if !r.ex.TimedOut || (r.ex.Code != 143 && r.ex.Code != 137) || r.stdout != "start\n" || r.ex.Cwd != "" {
		t.Fatalf("timeout: %+v %q", r.ex, r.stdout)
	}
	if r.ex.Duration > 20*time.Second {
		t.Fatalf("timeout did not end the command: %v", r.ex.Duration)
	}
	// a shell ignoring SIGTERM gets SIGKILL after the grace period
	r = run(t, l, Command{Script: "trap '' TERM; echo start; while :; do sleep 0.05; done", Timeout: time.Second, KillGrace: 300 * time.Millisecond})
	if !r.ex.TimedOut || r.ex.Code != 137 || r.stdout != "start\n" {
		t.Fatalf("kill after grace: %+v %q", r.ex, r.stdout)
	}
}

func TestRunInterrupted(t *testing.T) {
	hygiene(t)
	l := newLocal(t, "")
	ctx, cancel := context.WithCancel(testCtx(t))
	var out syncBuf
	done := make(chan *Exit)
	go func() {
		ex, err := l.Run(ctx, &Command{Script: "echo started; sleep 30", Dir: t.TempDir(), Stdout: &out})
		if err != nil {
			t.Error(err)
		}
		done <- ex
	}()
	// cancel once the command is running, learned from its output
	for !strings.Contains(out.String(), "started") {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	ex := <-done
	// 143 normally; 137 when SIGTERM caught bash mid-fork and the child
	// only died of the SIGKILL after the grace period
	if ex == nil || !ex.Interrupted || ex.TimedOut || (ex.Code != 143 && ex.Code != 137) {
		t.Fatalf("interrupt: %+v", ex)
	}
	ex, err := l.Run(ctx, &Command{Script: "echo x", Dir: t.TempDir()})
	if err != nil || !ex.Interrupted {
		t.Fatalf("cancelled context: %+v %v", ex, err)
	}
}

func TestRunBackgroundChildren(t *testing.T) {
	hygiene(t)
	l := newLocal(t, "")
	for _, script := range []string{
		"sleep 600 & echo started",
		"nohup sleep 600 >/dev/null 2>&1 & echo started",
		"(trap '' TERM; sleep 600) & echo started",
		"setsid sleep 600 & echo started",
		"setsid sh -c 'sleep 600 </dev/null >/dev/null 2>&1' & echo started",
	} {
		r := run(t, l, Command{Script: script})
		if r.ex.Code != 0 || r.stdout != "started\n" || !r.ex.Orphans {
			t.Errorf("%q: %+v %q %q", script, r.ex, r.stdout, r.stderr)
		}
		if r.ex.Duration > 20*time.Second {
			t.Errorf("%q held run_cmd for %v", script, r.ex.Duration)
		}
	}
	// a background job that finishes in time is not an orphan
	r := run(t, l, Command{Script: "echo a & wait; echo b"})
	if r.ex.Orphans || r.stdout != "a\nb\n" {
		t.Errorf("finished job: %+v %q", r.ex, r.stdout)
	}
}

func TestRunCwd(t *testing.T) {
	hygiene(t)
	home := t.TempDir()
	base := t.TempDir()
	os.Mkdir(filepath.Join(base, "real"), 0o755)
	os.Symlink("real", filepath.Join(base, "link"))
	userEnv := filepath.Join(base, "userenv.sh")
	os.WriteFile(userEnv, []byte("echo from-user-bash-env\n"), 0o644)
	tests := []struct {
		script string
		want   string // "" means not measured; START is the start directory
		code   int
	}{
		{"true", "START", 0},
		{"cd /tmp", "/tmp", 0},
		{"cd /tmp && ls >/dev/null", "/tmp", 0},
		{"(cd /tmp)", "START", 0},
		{"(cd /tmp; pwd) >/dev/null", "START", 0},
		{"echo $(cd /tmp)", "START", 0},
		{"cd /nonexistent-nb", "START", 1},
		{"[ -d /nonexistent-nb ] && cd /nonexistent-nb", "START", 1},
		{"cd /tmp; exit 3", "/tmp", 3},
		{"pushd /tmp >/dev/null", "/tmp", 0},
		{"pushd /tmp >/dev/null; pushd / >/dev/null; popd >/dev/null", "/tmp", 0},
		{"cd /tmp; cd - >/dev/null", "START", 0},
		{"cd", "HOME", 0},
		{"cd ~", "HOME", 0},
		{"cd link", "START/link", 0},
		{"cd link/..", "START", 0},
		{"cd /tmp; bash -c 'cd /'", "/tmp", 0},
		{"set -o noclobber; cd /tmp", "/tmp", 0},
		{"cd /tmp; exec true", "", 0},
		{"cd /tmp; trap 'true' EXIT", "", 0},
		{"f() { cd /tmp; }; f", "/tmp", 0},
		{"cd /tmp; set -e; false", "/tmp", 1},
	}
	l := &Local{Env: append(os.Environ(), "HOME="+home)}
	t.Cleanup(func() { l.Close() })
	for _, tt := range tests {
		r := run(t, l, Command{Script: tt.script, Dir: base})
		want := strings.NewReplacer("START", base, "HOME", home).Replace(tt.want)
		if r.ex.Cwd != want || r.ex.Code != tt.code {
			t.Errorf("%q: cwd %q code %d, want %q %d (stderr %q)", tt.script, r.ex.Cwd, r.ex.Code, want, tt.code, r.stderr)
		}
	}
	// the user's BASH_ENV is still sourced, and the cwd still measured
	lu := &Local{Env: append(os.Environ(), "BASH_ENV="+userEnv)}
	t.Cleanup(func() { lu.Close() })
	r := run(t, lu, Command{Script: `cd /tmp; echo "$BASH_ENV"`, Dir: base})
	if r.stdout != "from-user-bash-env\n"+userEnv+"\n" || r.ex.Cwd != "/tmp" {
		t.Errorf("user BASH_ENV: %q %q", r.stdout, r.ex.Cwd)
	}
}

// TestRunCwdSequences runs command sequences one call at a time, each in the
// directory the previous one left, and compares the final directory with a
// single bash running the same lines.
func TestRunCwdSequences(t *testing.T) {
	hygiene(t)
	base := t.TempDir()
	for _, d := range []string{"a/b", "c"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	os.Symlink("a/b", filepath.Join(base, "lnk"))
	seqs := [][]string{
		{"cd a", "cd b", "cd ../.."},
		{"cd a && cd b", "(cd /)", "cd nope || true"},
		{"pushd a >/dev/null", "cd b", "cd /tmp; cd -  >/dev/null"},
		{"cd lnk", "cd ..", "pwd >/dev/null"},
		{"mkdir -p new/dir && cd new/dir", "cd ..", "echo $(cd /; pwd) >/dev/null"},
		{"cd c; cd /nonexistent-nb", "cd ../a"},
		{"for d in a c; do cd $d; cd ..; done; cd c"},
	}
	l := newLocal(t, "")
	for _, seq := range seqs {
		dir := base
		for _, s := range seq {
			r := run(t, l, Command{Script: s, Dir: dir})
			if r.ex.Cwd != "" {
				dir = r.ex.Cwd
			}
		}
		// reference: one bash session, with PWD set like a login into base
		ref := exec.Command("bash", "-c", strings.Join(seq, "\n")+"\npwd")
		ref.Dir = base
		ref.Env = append(os.Environ(), "PWD="+base)
		out, _ := ref.Output()
		if want := strings.TrimSpace(string(out)); dir != want {
			t.Errorf("%q: nb tracked %q, bash says %q", seq, dir, want)
		}
		os.RemoveAll(filepath.Join(base, "new"))
	}
}

func TestRunPosixShell(t *testing.T) {
	hygiene(t)
	if _, err := os.Stat("/bin/sh"); err != nil {
		testenv.Missing(t, "no /bin/sh")
	}
	l := newLocal(t, "/bin/sh")
	base := t.TempDir()
	tests := []struct{ script, stdout, cwd string }{
		{`echo 'a b' | awk '{print $2}'`, "b\n", base},
		{`printf '%s|%s\n' "$#" "${NB_CWD_FILE-unset}"`, "0|unset\n", base},
		{"cd /tmp", "", "/tmp"},
		{"(cd /tmp)", "", base},
		{"cd /tmp; exit 4", "", "/tmp"},
		{"x=1\nif [ $x = 1 ]; then\n  echo one\nfi", "one\n", base},
	}
	for _, tt := range tests {
		r := run(t, l, Command{Script: tt.script, Dir: base})
		if r.stdout != tt.stdout || r.ex.Cwd != tt.cwd {
			t.Errorf("%q: %q cwd %q (stderr %q)", tt.script, r.stdout, r.ex.Cwd, r.stderr)
		}
	}
	if r := run(t, l, Command{Script: "exit 4"}); r.ex.Code != 4 {
		t.Errorf("exit code %d", r.ex.Code)
	}
}

func TestRunWrapAndEnv(t *testing.T) {
	hygiene(t)
	var got []string
	l := &Local{Wrap: func(w *Launch) error {
		got = w.Argv
		w.Argv = append([]string{"env", "WRAPPED=yes"}, w.Argv...)
		return nil
	}}
	t.Cleanup(func() { l.Close() })
	r := run(t, l, Command{Script: `echo "$WRAPPED $EXTRA"; cd /tmp`, Env: []string{"EXTRA=x", "PAGER=less"}})
	if r.stdout != "yes x\n" || r.ex.Cwd != "/tmp" {
		t.Fatalf("wrapped: %q %+v", r.stdout, r.ex)
	}
	if len(got) != 3 || got[1] != "-c" || got[2] != `echo "$WRAPPED $EXTRA"; cd /tmp` {
		t.Fatalf("argv given to Wrap: %q", got)
	}
}

func TestRunStartErrors(t *testing.T) {
	hygiene(t)
	l := newLocal(t, "")
	if _, err := l.Run(testCtx(t), &Command{Script: "true", Dir: "/nonexistent-nb"}); err == nil {
		t.Fatal("missing dir: no error")
	}
	if _, err := (&Local{Shell: "/nonexistent-shell"}).Run(testCtx(t), &Command{Script: "true"}); err == nil {
		t.Fatal("missing shell: no error")
	}
}

func TestCloseKillsRunning(t *testing.T) {
	hygiene(t)
	l := &Local{}
	var out syncBuf
	done := make(chan *Exit)
	go func() {
		ex, _ := l.Run(testCtx(t), &Command{Script: "echo started; sleep 600", Dir: t.TempDir(), Stdout: &out})
		done <- ex
	}()
	for !strings.Contains(out.String(), "started") {
		time.Sleep(5 * time.Millisecond)
	}
	l.Close()
	if ex := <-done; ex == nil || ex.Code != 137 {
		t.Fatalf("after Close: %+v", ex)
	}
	if _, err := l.Run(testCtx(t), &Command{Script: "true"}); err == nil {
		t.Fatal("Run after Close succeeded")
	}
}

func TestProbe(t *testing.T) {
	l := &Local{}
	info, err := l.Probe(testCtx(t), []string{"bash", "nb-surely-missing"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Shell != "bash" || len(info.Present) != 1 || len(info.Missing) != 1 {
		t.Fatalf("%+v", info)
	}
}

func TestCloseKillsDetached(t *testing.T) {
	hygiene(t)
	l := &Local{}
	r := run(t, l, Command{Script: "setsid sh -c 'touch ready; exec sleep 600' </dev/null >/dev/null 2>&1 & until [ -e ready ]; do sleep 0.01; done; echo ok"})
	if r.stdout != "ok\n" {
		t.Fatalf("%q", r.stdout)
	}
	other := &Local{}
	run(t, other, Command{Script: "true"})
	other.Close() // another host's Close leaves this one's processes alone
	if len(proctest.Leftovers()) == 0 {
		t.Fatal("detached process already gone: test proves nothing")
	}
	l.Close()
}

func TestRunOrphansGetSIGTERMFirst(t *testing.T) {
	hygiene(t)
	l := newLocal(t, "")
	dir := t.TempDir()
	mark := filepath.Join(dir, "term")
	r := run(t, l, Command{Dir: dir, Script: `nohup sh -c 'trap "echo bye > term; exit 0" TERM; touch ready; sleep 600 & wait' >/dev/null 2>&1 &
until [ -e ready ]; do sleep 0.01; done; echo started`})
	if !r.ex.Orphans || r.stdout != "started\n" {
		t.Fatalf("%+v %q", r.ex, r.stdout)
	}
	if data, err := os.ReadFile(mark); err != nil || string(data) != "bye\n" {
		t.Fatalf("orphan did not get SIGTERM: %q %v", data, err)
	}
}

// A repository's core.fsmonitor must not run when nb runs git status.
func TestGitFsmonitorNeutralised(t *testing.T) {
	testenv.Tool(t, "git")
	dir := t.TempDir()
	marker := filepath.Join(dir, "pwned")
	script := "git init -q . && git config core.fsmonitor 'touch " + marker + "; false' && git status >/dev/null 2>&1; true"
	l := &Local{}
	defer l.Close()
	ex, err := l.Run(context.Background(), &Command{Script: script, Dir: dir, Stdout: io.Discard, Stderr: io.Discard, Timeout: 20 * time.Second})
	if err != nil || ex.Code != 0 {
		t.Fatalf("run: %v %+v", err, ex)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("core.fsmonitor from the repository ran")
	}
}
