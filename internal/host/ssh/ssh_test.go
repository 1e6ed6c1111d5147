//go:build unix

package ssh

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosttest"
	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
	"github.com/nb-cli/nb/internal/testenv"
)

func run(t *testing.T, h host.Host, dir, script string) (string, string, *host.Exit) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var o, e bytes.Buffer
	ex, err := h.Run(ctx, &host.Command{Script: script, Dir: dir, Stdout: &o, Stderr: &e, Timeout: 15 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), ex
}

func TestRunBasics(t *testing.T) {
	s := startSSHD(t)
	h := s.newHost(t)
	dir := t.TempDir()
	out, errs, ex := run(t, h, dir, "echo out; echo err >&2; printf '%s\\n' \"it's\" '$HOME'; cd /; exit 3")
	if out != "out\nit's\n$HOME\n" || errs != "err\n" || ex.Code != 3 || ex.Cwd != "/" {
		t.Fatalf("out %q err %q exit %+v", out, errs, ex)
	}
}

func TestUnknownHostKey(t *testing.T) {
	s := startSSHD(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()

	// Headless: refused, nothing recorded.
	h, err := New(s.options())
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Connect(ctx); err == nil || !strings.Contains(err.Error(), "unknown host key") {
		t.Fatalf("headless unknown key: %v", err)
	}
	h.Close()
	if _, err := os.Stat(s.knownHosts); err == nil {
		t.Fatal("known_hosts written without consent")
	}

	// Asked, refused.
	o := s.options()
	asked := 0
	o.AskHostKey = func(hp string, k gossh.PublicKey) (bool, error) { asked++; return false, nil }
	h, _ = New(o)
	if err := h.Connect(ctx); err == nil || asked != 1 {
		t.Fatalf("refused key: err %v asked %d", err, asked)
	}
	h.Close()

	// Asked, accepted: recorded, and not asked again.
	o.AskHostKey = func(hp string, k gossh.PublicKey) (bool, error) {
		asked++
		if !bytes.Equal(k.Marshal(), s.hostKey.Marshal()) {
			t.Errorf("asked about the wrong key")
		}
		return true, nil
	}
	h, _ = New(o)
	if err := h.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	h.Close()
	h, _ = New(o)
	if err := h.Connect(ctx); err != nil || asked != 2 {
		t.Fatalf("second connection: %v, asked %d times", err, asked)
	}
	h.Close()
}

func TestHostKeyMismatch(t *testing.T) {
	s := startSSHD(t)
	other := startSSHD(t) // a different host key
	line := "[127.0.0.1]:" + itoa(s.port) + " " + string(bytes.TrimSpace(gossh.MarshalAuthorizedKey(other.hostKey)))
	if err := os.WriteFile(s.knownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := s.options()
	o.AskHostKey = func(string, gossh.PublicKey) (bool, error) {
		t.Error("a mismatched key must not be offered for acceptance")
		return true, nil
	}
	h, _ := New(o)
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err := h.Connect(ctx)
	if err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("mismatch: %v", err)
	}
}

func TestReconnect(t *testing.T) {
	s := startSSHD(t)
	h := s.newHost(t)
	out, _, _ := run(t, h, "/", "echo one")
	h.dropConnection()
	out2, _, ex := run(t, h, "/", "echo two")
	if out != "one\n" || out2 != "two\n" || ex.Code != 0 {
		t.Fatalf("%q %q %+v", out, out2, ex)
	}
	// The server side drops the connection: sshd's per-connection
	// processes are killed, the listener stays.
	kids, err := os.ReadFile("/proc/" + itoa(s.s.Pid()) + "/task/" + itoa(s.s.Pid()) + "/children")
	if err != nil || len(strings.Fields(string(kids))) == 0 {
		t.Fatalf("no sshd connection process: %v", err)
	}
	for _, k := range strings.Fields(string(kids)) {
		pid, _ := strconv.Atoi(k)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	out3, _, ex := run(t, h, "/", "echo three")
	if out3 != "three\n" || ex.Code != 0 {
		t.Fatalf("after a server-side drop: %q %+v", out3, ex)
	}
}

func TestSSHConfigAlias(t *testing.T) {
	s := startSSHD(t)
	s.trust(t)
	cfg := s.home + "/.ssh/config"
	conf := "Host other\n  HostName 192.0.2.1\nHost box *.example\n  HostName 127.0.0.1\n  Port " + itoa(s.port) + "\n  User " + s.user + "\n  IdentityFile ~/.ssh/id_ed25519\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Host: "box", Home: s.home})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.Address() != s.user+"@127.0.0.1:"+itoa(s.port) {
		t.Fatalf("address %s", h.Address())
	}
	out, _, _ := run(t, h, "/", "echo via-alias")
	if out != "via-alias\n" {
		t.Fatalf("%q", out)
	}
}

func TestNoServer(t *testing.T) {
	h, err := New(Options{Host: "127.0.0.1", Port: 1, User: "x", Home: t.TempDir(), SSHConfig: "none", DialTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, err = h.Run(context.Background(), &host.Command{Script: "true", Dir: "/"})
	var oe interface{ Timeout() bool }
	if err == nil || errors.As(err, &oe) && oe.Timeout() {
		t.Fatalf("want a refused connection, got %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestConformance(t *testing.T) {
	s := startSSHD(t)
	hosttest.Run(t, func(t *testing.T, dir string) host.Host { return s.newHost(t) })
}

// leftover reports whether a process whose command line contains s runs.
func leftover(s string) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			return true
		}
	}
	return false
}

func waitGone(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if !leftover(s) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("a remote process %q outlived its run", s)
}

func TestNoRemoteLeftovers(t *testing.T) {
	s := startSSHD(t)
	h := s.newHost(t)
	_, _, ex := run(t, h, "/", "sleep 31.25 & echo started")
	if !ex.Orphans {
		t.Errorf("background child holding the output not reported: %+v", ex)
	}
	waitGone(t, "sleep 31.25")

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ex, err := h.Run(ctx, &host.Command{Script: "sleep 31.5 & sleep 31.75", Dir: "/", Timeout: 300 * time.Millisecond})
	if err != nil || !ex.TimedOut {
		t.Fatalf("%+v %v", ex, err)
	}
	waitGone(t, "sleep 31.5")
	waitGone(t, "sleep 31.75")

	// A timeout before the remote shell even started its script.
	ex, err = h.Run(ctx, &host.Command{Script: "sleep 34.5", Dir: "/", Timeout: time.Millisecond})
	if err != nil || !ex.TimedOut {
		t.Fatalf("%+v %v", ex, err)
	}
	waitGone(t, "sleep 34.5")

	term, err := h.StartPTY(ctx, &host.PTYCommand{Script: "sleep 32.5", Dir: "/"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100 && !leftover("sleep 32.5"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	term.Close()
	waitGone(t, "sleep 32.5")
}

// BenchmarkRun compares a run over an open ssh connection with a local run
// (target: under 10 ms of overhead on loopback).
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	bench := func(b *testing.B, h host.Host) {
		for b.Loop() {
			ex, err := h.Run(ctx, &host.Command{Script: "true", Dir: "/"})
			if err != nil || ex.Code != 0 {
				b.Fatalf("%+v %v", ex, err)
			}
		}
	}
	b.Run("local", func(b *testing.B) {
		l := &host.Local{}
		defer l.Close()
		bench(b, l)
	})
	s := startSSHD(b)
	h := s.newHost(b)
	b.Run("ssh", func(b *testing.B) { bench(b, h) })
	// A bare session on the same connection: the server's own cost (the
	// remote login shell reads the user's rc files). nb's overhead is
	// ssh minus ssh-bare.
	b.Run("ssh-bare", func(b *testing.B) {
		c, err := h.conn(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			ss, err := c.NewSession()
			if err != nil {
				b.Fatal(err)
			}
			if err := ss.Run("true"); err != nil {
				b.Fatal(err)
			}
			ss.Close()
		}
	})
}

func TestAgent(t *testing.T) {
	testenv.Tool(t, "ssh-agent")
	s := startSSHD(t)
	s.trust(t)
	sock := filepath.Join(t.TempDir(), "agent.sock")
	agentCmd := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agentCmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = agentCmd.Process.Kill()
		_ = agentCmd.Wait()
	}()
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	add := exec.Command("ssh-add", s.keyFile)
	add.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v %s", err, out)
	}
	// The key file is out of reach: only the agent can authenticate.
	o := s.options()
	o.IdentityFile = filepath.Join(t.TempDir(), "missing")
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := h.Connect(ctx); err == nil {
		t.Fatal("connected without any key")
	}
	h.Close()
	o.AgentSocket = sock
	h, _ = New(o)
	defer h.Close()
	out, _, _ := run(t, h, "/", "echo agent-ok")
	if out != "agent-ok\n" {
		t.Fatalf("%q", out)
	}
}

// proxy forwards loopback connections to target; freeze makes the current
// connections silent without closing them (a network black hole).
type proxy struct {
	ln     net.Listener
	mu     sync.Mutex
	frozen []net.Conn
	conns  []net.Conn
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			pipe := func(dst, src net.Conn) {
				defer wg.Done()
				buf := make([]byte, 32<<10)
				for {
					n, err := src.Read(buf)
					if err != nil {
						dst.Close()
						return
					}
					if p.isFrozen(src) {
						continue // swallowed
					}
					if _, err := dst.Write(buf[:n]); err != nil {
						return
					}
				}
			}
			wg.Add(2)
			go pipe(u, c)
			go pipe(c, u)
		}
	}()
	return p
}

func (p *proxy) freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.frozen = append(p.frozen, p.conns...)
}

func (p *proxy) isFrozen(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.frozen {
		if f == c {
			return true
		}
	}
	return false
}

func TestKeepaliveRedials(t *testing.T) {
	s := startSSHD(t)
	p := newProxy(t, "127.0.0.1:"+itoa(s.port))
	port := p.ln.Addr().(*net.TCPAddr).Port
	line := "[127.0.0.1]:" + itoa(port) + " " + string(bytes.TrimSpace(gossh.MarshalAuthorizedKey(s.hostKey)))
	if err := os.WriteFile(s.knownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := s.options()
	o.Port = port
	o.Keepalive = 200 * time.Millisecond
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	out, _, _ := run(t, h, "/", "echo before")
	p.freeze()
	h.mu.Lock()
	dead := h.dead
	h.mu.Unlock()
	select {
	case <-dead:
	case <-time.After(10 * time.Second):
		t.Fatal("a silent connection was not detected")
	}
	out2, _, ex := run(t, h, "/", "echo after")
	if out != "before\n" || out2 != "after\n" || ex.Code != 0 {
		t.Fatalf("%q %q %+v", out, out2, ex)
	}
}

func TestConnectionLostMidRun(t *testing.T) {
	s := startSSHD(t)
	h := s.newHost(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		time.Sleep(500 * time.Millisecond)
		h.dropConnection()
	}()
	ex, err := h.Run(ctx, &host.Command{Script: "sleep 33.25", Dir: "/"})
	if err == nil || !strings.Contains(err.Error(), "connection lost") {
		t.Fatalf("want connection lost, got %+v %v", ex, err)
	}
	waitGone(t, "sleep 33.25")
	out, _, _ := run(t, h, "/", "echo back")
	if out != "back\n" {
		t.Fatalf("%q", out)
	}
}

// dropConnection closes the underlying connection without closing the
// host, as a network failure would (for tests of reconnection).
func (h *Host) dropConnection() {
	h.mu.Lock()
	c, dead := h.client, h.dead
	h.mu.Unlock()
	if c != nil {
		_ = c.Close()
		<-dead
	}
}

func TestEnvScrubbed(t *testing.T) {
	// The canaries are in the remote login environment (sshd's SetEnv):
	// the wrapper removes them there.
	ss := sshtest.Start(t, "SetEnv "+strings.Join(hosttest.Canaries, " "))
	s := &server{port: ss.Port, user: ss.User, home: ss.Home, keyFile: ss.KeyFile, knownHosts: ss.KnownHosts, hostKey: ss.HostKey, s: ss}
	s.trust(t)
	o := s.options()
	o.EnvPolicy = hosttest.CanaryPolicy
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hosttest.EnvScrubbed(t, h, t.TempDir(), true)
}
