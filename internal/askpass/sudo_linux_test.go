package askpass

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/askpass/sudotest"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/proctest"
)

// These tests meet a real sudo. Each runs twice: as root it builds a sudo
// world (package sudotest) and runs itself in it as the world's
// unprivileged user, watching every process's command line and
// environment for the password meanwhile and the user's files after; in
// the world it runs commands through a real local host, as run_cmd does.

const envInside = "NB_ASKPASS_TEST_INSIDE"

// inWorld reports whether t runs in its sudo world (then it goes on);
// outside, it runs t there and checks what the password left behind.
func inWorld(t *testing.T, o sudotest.Options) bool {
	t.Helper()
	if os.Getenv(envInside) == t.Name() {
		return true
	}
	w := sudotest.New(t, o)
	w.MakeTmp(t)
	bin := w.Install(t, os.Args[0])
	cmd := w.Command(bin, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = w.Env(envInside + "=" + t.Name())
	stop := sudotest.Watch(w.Password)
	out, err := cmd.CombinedOutput()
	seen := stop()
	t.Logf("in the sudo world:\n%s", out)
	if err != nil {
		t.Fatalf("in the sudo world: %v", err)
	}
	if !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatal("the test did not pass in the sudo world")
	}
	if len(seen) > 0 {
		t.Errorf("the password was in the process table: %v", seen)
	}
	if hits := sudotest.FilesHolding(t, w.Password, w.Home, w.Tmp()); len(hits) > 0 {
		t.Errorf("the password is in files: %v", hits)
	}
	return false
}

type ran struct {
	stdout, stderr string
	code           int
	out            Outcome
	took           time.Duration
}

// runSudo runs command on a real local host as run_cmd does.
func runSudo(t *testing.T, s *Sudo, command string) ran {
	t.Helper()
	h := &host.Local{}
	defer h.Close()
	ctx := context.Background()
	r, err := s.Prepare(ctx, command)
	if err != nil || r == nil {
		t.Fatalf("Prepare: %v, %v", r, err)
	}
	var o, e bytes.Buffer
	start := time.Now()
	ex, err := h.Run(ctx, &host.Command{Script: command, Dir: os.Getenv("HOME"), Env: r.Env(), Stdout: &o, Stderr: &e, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	res := ran{stdout: o.String(), stderr: e.String(), code: ex.Code, out: r.End(), took: time.Since(start)}
	t.Logf("%s: exit %d\nstdout: %s\nstderr: %s\noutcome: %+v", command, res.code, res.stdout, res.stderr, res.out)
	return res
}

func newSudo(t *testing.T, a Asker) *Sudo {
	s := New(Options{Asker: a})
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRealSudoAsksTheUser(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	given := pw(sudotest.Password)
	a := &scripted{answers: []Answer{{Password: given}}}
	r := runSudo(t, newSudo(t, a), "sudo whoami")
	if r.code != 0 || r.stdout != "root\n" {
		t.Fatalf("sudo whoami: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	qs := a.questions()
	if len(qs) != 1 || qs[0].Command != "sudo whoami" || !strings.Contains(qs[0].Prompt, "password for "+sudotest.User) || qs[0].Retry {
		t.Fatalf("questions: %+v", qs)
	}
	if r.out.Asked != 1 || r.out.Note() != "" {
		t.Errorf("outcome: %+v", r.out)
	}
	if !bytes.Equal(given, make([]byte, len(given))) {
		t.Errorf("the password given was not wiped: %q", given)
	}
}

func TestRealSudoWrongPasswordThreeTimes(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	a := &scripted{answers: []Answer{{Password: pw("wrong 1")}, {Password: pw("wrong 2")}, {Password: pw("wrong 3")}}}
	r := runSudo(t, newSudo(t, a), "sudo true")
	if r.code != 1 || !strings.Contains(r.stderr, "3 incorrect password attempts") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	qs := a.questions()
	if len(qs) != 3 || qs[0].Retry || !qs[1].Retry || !qs[2].Retry {
		t.Fatalf("questions: %+v", qs)
	}
}

func TestRealSudoNopasswd(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	a := &scripted{}
	r := runSudo(t, newSudo(t, a), "sudo id -u")
	if r.code != 0 || r.stdout != "0\n" {
		t.Fatalf("exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if len(a.questions()) != 0 || r.out.Asked != 0 {
		t.Fatalf("asked %+v for a command that needs no password", a.questions())
	}
}

func TestRealSudoRememberForTheSession(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	a := &scripted{answers: []Answer{{Password: pw(sudotest.Password), Remember: true}, {Password: pw(sudotest.Password)}}}
	s := newSudo(t, a)
	for i := range 2 {
		// each run is a new shell: sudo asks again, and nb answers
		if r := runSudo(t, s, "sudo whoami"); r.code != 0 || r.out.Asked != 1 {
			t.Fatalf("run %d: exit %d, %+v", i, r.code, r.out)
		}
	}
	if n := len(a.questions()); n != 1 {
		t.Fatalf("asked %d times; the second run should have used the remembered password", n)
	}
	s.Forget() // /clear
	if r := runSudo(t, s, "sudo whoami"); r.code != 0 {
		t.Fatalf("after Forget: exit %d", r.code)
	}
	if n := len(a.questions()); n != 2 {
		t.Fatalf("asked %d times; after Forget the user is asked again", n)
	}
}

func TestRealSudoRememberedPasswordRefused(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	// A remembered password sudo refuses (it changed) is forgotten: the
	// same sudo asks again and the user is asked, saying why.
	a := &scripted{answers: []Answer{{Password: pw(sudotest.Password)}, {Password: pw(sudotest.Password)}}}
	s := newSudo(t, a)
	s.mem.put(localKey, pw("an old password"))
	r := runSudo(t, s, "sudo whoami")
	if r.code != 0 || r.stdout != "root\n" {
		t.Fatalf("exit %d, %q", r.code, r.stderr)
	}
	qs := a.questions()
	if len(qs) != 1 || !qs[0].Retry {
		t.Fatalf("questions: %+v", qs)
	}
	if s.mem.has(localKey) {
		t.Fatal("the refused password is still remembered")
	}
}

func TestRealSudoHeadlessFailsAtOnce(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	r := runSudo(t, newSudo(t, nil), "sudo true")
	if r.code != 1 || !strings.Contains(r.stderr, NoTerminalAdvice) || !r.out.NoTerminal {
		t.Fatalf("exit %d, stderr %q, %+v", r.code, r.stderr, r.out)
	}
	if !strings.Contains(r.out.Note(), "sudo -v") {
		t.Errorf("note: %q", r.out.Note())
	}
	if r.took > 20*time.Second {
		t.Errorf("took %v: it must fail at once", r.took)
	}
}

func TestRealSudoStdinPasswordRefused(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	// A password the command itself pipes to sudo -S is not used: nb's
	// sudo takes the password only from nb's prompt.
	a := &scripted{}
	r := runSudo(t, newSudo(t, a), "printf '%s\\n' 'guess' | sudo -S whoami")
	if r.code == 0 || !strings.Contains(r.stderr, "-A and -S") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if len(a.questions()) != 0 {
		t.Fatal("asked the user")
	}
}

func TestRealSudoHelperOutsideSudo(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	// The command runs nb's helper itself: the bridge refuses it, and the
	// user is never asked.
	a := &scripted{answers: []Answer{{Password: pw(sudotest.Password)}}}
	r := runSudo(t, newSudo(t, a), `"$SUDO_ASKPASS" 'Password:'`)
	if r.code == 0 || strings.Contains(r.stdout, sudotest.Password) || !strings.Contains(r.stderr, "not started by sudo") {
		t.Fatalf("exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if len(a.questions()) != 0 || len(r.out.Refused) != 1 {
		t.Fatalf("asked %+v, outcome %+v", a.questions(), r.out)
	}
}

func TestRealSudoHelperAsSudoCommand(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	// sudo runs the helper as its command (as the user: sudo asks no
	// password for that), with the run's token passed along and its
	// output read by root (sudo tee, which the time stamp of the first
	// sudo lets run): its parent is a root sudo too, but it is not sudo's
	// askpass program (its SUDO_COMMAND says so), and it gets nothing,
	// although the password is remembered.
	a := &scripted{answers: []Answer{{Password: pw(sudotest.Password), Remember: true}}}
	r := runSudo(t, newSudo(t, a), `sudo true && sudo -u "$USER" `+EnvBridge+`="$`+EnvBridge+`" "$SUDO_ASKPASS" 'Password:' | sudo tee /dev/stderr`)
	if strings.Contains(r.stdout+r.stderr, sudotest.Password) || !strings.Contains(r.stderr, "as a command of sudo") {
		t.Fatalf("exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if n := len(a.questions()); n != 1 || len(r.out.Refused) != 1 {
		t.Fatalf("asked %d times, outcome %+v", n, r.out)
	}
}

func TestRealSudoHelperOutputToTheCommand(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	// The same without sudo's marks in its environment: what it would
	// write goes to a process of the command (cat), not to sudo.
	a := &scripted{answers: []Answer{{Password: pw(sudotest.Password), Remember: true}}}
	r := runSudo(t, newSudo(t, a), `sudo true && sudo -u "$USER" env -u SUDO_COMMAND `+EnvBridge+`="$`+EnvBridge+`" "$SUDO_ASKPASS" 'Password:' | cat`)
	if strings.Contains(r.stdout+r.stderr, sudotest.Password) || !strings.Contains(r.stderr, "not to sudo") {
		t.Fatalf("exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if n := len(a.questions()); n != 1 || len(r.out.Refused) != 1 {
		t.Fatalf("asked %d times, outcome %+v", n, r.out)
	}
}

func TestRealSuSaysWhy(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	r := runSudo(t, newSudo(t, nil), "su -c true root")
	if r.code == 0 || !strings.Contains(r.stderr, suNote) {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if r.took > 20*time.Second {
		t.Errorf("took %v: it must fail at once", r.took)
	}
}

// waiting is an Asker that waits, as a person who has not typed yet,
// until its question is withdrawn; it then leaves a file saying so.
type waiting struct {
	asked chan struct{}
	mark  string
}

func (w *waiting) AskPassword(ctx context.Context, q Question) (Answer, error) {
	close(w.asked)
	<-ctx.Done()
	_ = os.WriteFile(w.mark, nil, 0o600)
	return Answer{}, ErrCancelled
}

// A sudo killed while its question waits for the user withdraws it: the
// prompt does not stay open, for a sudo that is gone, until the command
// ends, and nb's helper does not outlive it.
func TestRealSudoKilledMidPrompt(t *testing.T) {
	if !inWorld(t, sudotest.Options{}) {
		return
	}
	proctest.Check(t)
	home := os.Getenv("HOME")
	pidFile, mark := filepath.Join(home, "sudo.pid"), filepath.Join(home, "withdrawn")
	a := &waiting{asked: make(chan struct{}), mark: mark}
	go func() {
		<-a.asked
		b, err := os.ReadFile(pidFile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			t.Errorf("no sudo pid: %v", err)
			return
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Errorf("kill sudo: %v", err)
		}
	}()
	// The command goes on after its sudo is gone, until the question is
	// withdrawn (or its timeout).
	r := runSudo(t, newSudo(t, a), "sudo true & echo $! > sudo.pid; wait; until [ -e withdrawn ]; do sleep 0.1; done; echo went on")
	if r.code != 0 || r.stdout != "went on\n" {
		t.Fatalf("the question stayed open after its sudo was killed: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	if r.out.Cancelled {
		t.Errorf("the run says the user cancelled the prompt: %+v", r.out)
	}
}
