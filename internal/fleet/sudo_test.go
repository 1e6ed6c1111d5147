package fleet

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/askpass/sudotest"
	"github.com/nb-cli/nb/internal/fleet/fleettest"
	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
)

// sudoHost is a real sshd whose sessions meet a real sudo with its own
// users and rules (a sudo world of package sudotest).
func sudoHost(t *testing.T, o sudotest.Options) *sshtest.Server {
	t.Helper()
	w := sudotest.New(t, o)
	return sshtest.StartWith(t, sshtest.Options{User: sudotest.User, Command: w.RootCommand})
}

// sudoFleet is a fleet of the hosts (web-01 … in order).
func sudoFleet(t *testing.T, srvs ...*sshtest.Server) (*Fleet, []*Host, string) {
	t.Helper()
	home := t.TempDir()
	ft := fleettest.Of(t, home, srvs...)
	inv, err := Load(Sources{SSH: SSHConfigFiles{User: ft.Config, Home: home, LocalUser: sudotest.User}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(home, "outputs")
	f := New(inv, Options{ConnectTimeout: 10 * time.Second, Home: home, OutputRoot: out})
	t.Cleanup(func() { f.Close() })
	return f, inv.Hosts(), out
}

// answers answers password questions from a list and records them.
type answers struct {
	mu    sync.Mutex
	list  []askpass.Answer
	asked []askpass.Question
}

func (a *answers) AskPassword(_ context.Context, q askpass.Question) (askpass.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, q)
	if len(a.list) == 0 {
		return askpass.Answer{}, askpass.ErrCancelled
	}
	ans := a.list[0]
	a.list = a.list[1:]
	return ans, nil
}

// sudoRun runs command on hosts with s answering for sudo, watching the
// process table for every password of the worlds meanwhile.
func sudoRun(t *testing.T, f *Fleet, hosts []*Host, s *askpass.Sudo, command string) *Result {
	t.Helper()
	stops := []func() []string{sudotest.Watch(sudotest.Password), sudotest.Watch(sudotest.OtherPassword)}
	var passwords *askpass.Passwords
	res := f.Run(context.Background(), hosts, Request{Command: command, Timeout: time.Minute,
		Sudo: func(ctx context.Context, names []string) (SudoPasswords, error) {
			pw, err := s.Passwords(ctx, command, names)
			if err != nil {
				return nil, err
			}
			passwords = pw
			return pw, nil
		}})
	passwords.Wipe()
	for _, stop := range stops {
		if seen := stop(); len(seen) > 0 {
			t.Errorf("a password was in the process table: %v", seen)
		}
	}
	for _, h := range res.Hosts {
		t.Logf("%s: %s exit %d error %q\nstdout %q\nstderr %q", h.Host, h.Status, h.ExitCode, h.Error, h.Stdout.Text, h.Stderr.Text)
	}
	return res
}

func hostResult(t *testing.T, res *Result, name string) *HostResult {
	t.Helper()
	for _, h := range res.Hosts {
		if h.Host == name {
			return h
		}
	}
	t.Fatalf("no result for %s", name)
	return nil
}

// The remote sudo runs the script's sudo commands after one password,
// and a pipe into sudo still reaches it.
const sudoScript = "echo piped | sudo tee /dev/null; sudo id -u; sudo whoami"

func TestFleetSudoAsksOnceForTheHostsThatNeedIt(t *testing.T) {
	f, hosts, outputs := sudoFleet(t,
		sudoHost(t, sudotest.Options{}),
		sudoHost(t, sudotest.Options{Sudoers: []string{"%u ALL=(ALL) NOPASSWD: ALL"}}))
	a := &answers{list: []askpass.Answer{{Password: []byte(sudotest.Password)}}}
	s := askpass.New(askpass.Options{Asker: a})
	defer s.Close()
	res := sudoRun(t, f, hosts, s, sudoScript)
	for _, name := range []string{"web-01", "web-02"} {
		h := hostResult(t, res, name)
		if h.Status != StatusOK || h.Stdout.Text != "piped\n0\nroot\n" {
			t.Errorf("%s: %s %q %q", name, h.Status, h.Stdout.Text, h.Stderr.Text)
		}
	}
	if len(a.asked) != 1 || !slices.Equal(a.asked[0].Hosts, []string{"web-01"}) || a.asked[0].Command != sudoScript {
		t.Fatalf("questions: %+v", a.asked)
	}
	if hits := sudotest.FilesHolding(t, sudotest.Password, outputs); len(hits) > 0 {
		t.Errorf("the password is in the saved outputs: %v", hits)
	}
}

func TestFleetSudoPasswordPerHost(t *testing.T) {
	f, hosts, _ := sudoFleet(t,
		sudoHost(t, sudotest.Options{}),
		sudoHost(t, sudotest.Options{Password: sudotest.OtherPassword}),
		sudoHost(t, sudotest.Options{}))
	// one per host; the third host's empty answer is the one before
	a := &answers{list: []askpass.Answer{{PerHost: true, Remember: true},
		{Password: []byte(sudotest.Password)}, {Password: []byte(sudotest.OtherPassword)}, {Password: []byte{}}}}
	s := askpass.New(askpass.Options{Asker: a})
	defer s.Close()
	res := sudoRun(t, f, hosts, s, "sudo whoami")
	for _, name := range []string{"web-01", "web-02"} {
		if h := hostResult(t, res, name); h.Status != StatusOK || h.Stdout.Text != "root\n" {
			t.Errorf("%s: %s %q", name, h.Status, h.Stdout.Text)
		}
	}
	if h := hostResult(t, res, "web-03"); h.Status != StatusFailed || !strings.Contains(h.Error, "did not accept") {
		t.Errorf("web-03 took web-02's password: %s %q", h.Status, h.Error)
	}
	if len(a.asked) != 4 || !a.asked[0].PerHost || a.asked[1].Previous || !a.asked[2].Previous {
		t.Fatalf("questions: %+v", a.asked)
	}
	// remembered: the next run asks nothing, except for the host whose
	// password was refused
	a.list = []askpass.Answer{{Password: []byte(sudotest.Password)}}
	res = sudoRun(t, f, hosts, s, "sudo whoami")
	if len(a.asked) != 5 || !slices.Equal(a.asked[4].Hosts, []string{"web-03"}) {
		t.Fatalf("questions of the second run: %+v", a.asked[4:])
	}
	for _, h := range res.Hosts {
		if h.Status != StatusOK {
			t.Errorf("second run, %s: %s %q", h.Host, h.Status, h.Error)
		}
	}
}

func TestFleetSudoWrongPasswordIsThatHostsError(t *testing.T) {
	f, hosts, _ := sudoFleet(t,
		sudoHost(t, sudotest.Options{}),
		sudoHost(t, sudotest.Options{Password: sudotest.OtherPassword}))
	a := &answers{list: []askpass.Answer{{Password: []byte(sudotest.Password)}}}
	s := askpass.New(askpass.Options{Asker: a})
	defer s.Close()
	res := sudoRun(t, f, hosts, s, "sudo touch /ran-with-a-wrong-password; sudo whoami")
	if h := hostResult(t, res, "web-01"); h.Status != StatusOK || h.Stdout.Text != "root\n" {
		t.Errorf("web-01: %s %q", h.Status, h.Stdout.Text)
	}
	h := hostResult(t, res, "web-02")
	if h.Status != StatusFailed || h.Ran || !strings.Contains(h.Error, "did not accept the password") || !strings.Contains(h.Stderr.Text, "incorrect password") {
		t.Errorf("web-02: %s ran=%v %q %q", h.Status, h.Ran, h.Error, h.Stderr.Text)
	}
	if res.Summary.OK != 1 || res.Summary.Failed != 1 {
		t.Errorf("summary %+v", res.Summary)
	}
}

func TestFleetSudoWithoutTerminal(t *testing.T) {
	f, hosts, _ := sudoFleet(t,
		sudoHost(t, sudotest.Options{}),
		sudoHost(t, sudotest.Options{Sudoers: []string{"%u ALL=(ALL) NOPASSWD: ALL"}}))
	s := askpass.New(askpass.Options{})
	defer s.Close()
	start := time.Now()
	res := sudoRun(t, f, hosts, s, "sudo whoami")
	if h := hostResult(t, res, "web-01"); h.Status != StatusFailed || h.Ran || !strings.Contains(h.Error, "sudo -v") {
		t.Errorf("web-01: %s ran=%v %q", h.Status, h.Ran, h.Error)
	}
	if h := hostResult(t, res, "web-02"); h.Status != StatusOK || h.Stdout.Text != "root\n" {
		t.Errorf("web-02: %s %q", h.Status, h.Stdout.Text)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v", d)
	}
}
