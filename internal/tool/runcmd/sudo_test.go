package runcmd

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/askpass"
	"github.com/nb-cli/nb/internal/askpass/sudotest"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/fleet"
	"github.com/nb-cli/nb/internal/fleet/fleettest"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/ssh"
	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

// asker answers password questions from a list and records them.
type asker struct {
	mu    sync.Mutex
	list  []askpass.Answer
	asked []askpass.Question
}

func (a *asker) AskPassword(_ context.Context, q askpass.Question) (askpass.Answer, error) {
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

// sudoSSH is a real sshd whose sessions meet a real sudo asking for its
// password (package sudotest).
func sudoSSH(t *testing.T) *sshtest.Server {
	t.Helper()
	w := sudotest.New(t, sudotest.Options{})
	srv := sshtest.StartWith(t, sshtest.Options{User: sudotest.User, Command: w.RootCommand})
	srv.Trust(t)
	return srv
}

func sudoTool(t *testing.T, h host.Host, a askpass.Asker, f *fleet.Fleet) tool.Tool {
	t.Helper()
	var s *askpass.Sudo
	if a != nil {
		s = askpass.New(askpass.Options{Asker: a})
	} else {
		s = askpass.New(askpass.Options{})
	}
	t.Cleanup(func() { s.Close() })
	o := Options{
		Hosts: host.NewActive(h), Workdir: tool.NewWorkdir(t.TempDir()), Config: config.Default().TerminalIntegration,
		Policy: tooltest.Engine(t, func(o *policy.Options) { o.Headless = true }), Getenv: os.Getenv, Sudo: s,
	}
	if f != nil {
		o.Fleet = func() (*fleet.Fleet, error) { return f, nil }
	}
	run, _ := New(o)
	return run
}

// On an ssh host (terminal.provider ssh), sudo is given the password the
// user typed over the connection.
func TestRunCmdSudoOnSSHHost(t *testing.T) {
	srv := sudoSSH(t)
	h, err := ssh.New(ssh.Options{Name: "box", Host: "127.0.0.1", Port: srv.Port, User: srv.User, Home: srv.Home, SSHConfig: "none"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	at := tool.At{Cwd: "/"}
	a := &asker{list: []askpass.Answer{{Password: []byte(sudotest.Password)}, {Password: []byte("wrong")}}}
	run := sudoTool(t, h, a, nil)
	stop := sudotest.Watch(sudotest.Password)
	_, res, _ := tooltest.Call(t, run, at, map[string]string{"command": "sudo whoami"})
	if !strings.Contains(res.Content, `"stdout":"root\n"`) {
		t.Fatalf("sudo on the ssh host: %s", res.Content)
	}
	if len(a.asked) != 1 || len(a.asked[0].Hosts) != 1 || a.asked[0].Hosts[0] != "box" {
		t.Fatalf("questions: %+v", a.asked)
	}
	// a command that does not run sudo asks nothing
	if _, res, _ = tooltest.Call(t, run, at, map[string]string{"command": "grep -c sudo /etc/group || true"}); len(a.asked) != 1 {
		t.Fatalf("asked for a command without sudo: %s", res.Content)
	}
	_, res, _ = tooltest.Call(t, run, at, map[string]string{"command": "sudo touch /made-with-a-wrong-password"})
	if !strings.Contains(res.Content, "did not accept the password") || !strings.Contains(res.Content, "incorrect password") {
		t.Fatalf("a wrong password: %s", res.Content)
	}
	if seen := stop(); len(seen) > 0 {
		t.Errorf("the password was in the process table: %v", seen)
	}
	// nobody to ask: the call fails at once, saying what to do
	run = sudoTool(t, h, nil, nil)
	start := time.Now()
	_, res, _ = tooltest.Call(t, run, at, map[string]string{"command": "sudo whoami"})
	if !res.IsError || !strings.Contains(res.Content, "sudo -v") || time.Since(start) > 30*time.Second {
		t.Fatalf("headless: %s", res.Content)
	}
}

// run_cmd with hosts asks once for the hosts whose sudo needs a password
// and only when the command runs sudo.
func TestRunCmdSudoOnFleet(t *testing.T) {
	home := t.TempDir()
	ft := fleettest.Of(t, home, sudoSSH(t))
	inv, err := fleet.Load(fleet.Sources{SSH: fleet.SSHConfigFiles{User: ft.Config, Home: home, LocalUser: sudotest.User}})
	if err != nil {
		t.Fatal(err)
	}
	f := fleet.New(inv, fleet.Options{Home: home, ConnectTimeout: 10 * time.Second})
	t.Cleanup(func() { f.Close() })
	local := &host.Local{}
	t.Cleanup(func() { local.Close() })
	a := &asker{list: []askpass.Answer{{Password: []byte(sudotest.Password)}}}
	run := sudoTool(t, local, a, f)
	at := tool.At{Cwd: t.TempDir()}
	_, res, _ := tooltest.Call(t, run, at, map[string]string{"command": "echo sudo", "hosts": "web-01"})
	if len(a.asked) != 0 || !strings.Contains(res.Content, `"ok":1`) {
		t.Fatalf("a command without sudo: asked %+v, %s", a.asked, res.Content)
	}
	_, res, _ = tooltest.Call(t, run, at, map[string]string{"command": "sudo whoami", "hosts": "web-01"})
	if len(a.asked) != 1 || !strings.Contains(res.Content, `"stdout":"root\n"`) {
		t.Fatalf("asked %+v, %s", a.asked, res.Content)
	}
}
