// Package sshtest starts a real OpenSSH server on a loopback port for
// tests of the ssh host and of tools running on it.
package sshtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/testenv"
)

// Path is where the OpenSSH server is expected.
const Path = "/usr/sbin/sshd"

// Server is a real OpenSSH server on a loopback port, started for a test.
type Server struct {
	Port int
	// Ports are all the ports it listens on (Port first; StartPorts).
	Ports []int
	User  string
	// Home is a fake local home holding the client key (.ssh/id_ed25519)
	// and known_hosts.
	Home       string
	KeyFile    string
	KnownHosts string
	HostKey    gossh.PublicKey
	cmd        *exec.Cmd
}

// Pid is the process id of the listening sshd.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Start runs sshd on a free loopback port with a throwaway host key and
// authorized_keys; it is stopped when the test ends. Without sshd the test
// fails in CI and is skipped on a developer machine. Extra lines are
// appended to sshd_config (e.g. "SetEnv NAME=value" for the sessions'
// environment).
func Start(t testing.TB, extra ...string) *Server {
	t.Helper()
	return StartPorts(t, 1, extra...)
}

// StartPorts is Start listening on n loopback ports: one server that
// looks like n hosts (a command tells them apart by the last field of
// $SSH_CONNECTION, the server port).
func StartPorts(t testing.TB, n int, extra ...string) *Server {
	t.Helper()
	return StartWith(t, Options{Ports: n, Extra: extra})
}

// Options start a server another way than Start does.
type Options struct {
	// Ports is how many ports it listens on (one when 0).
	Ports int
	// Extra lines go to sshd_config.
	Extra []string
	// User is the account clients log in as (the current user when "");
	// the server's files are then readable by everyone, so that sshd,
	// reading them as that user, can.
	User string
	// Command, when set, makes the command running sshd's argv (in a
	// test's own mount namespace, say).
	Command func(argv ...string) *exec.Cmd
}

// StartWith is Start with options.
func StartWith(t testing.TB, o Options) *Server {
	t.Helper()
	n := o.Ports
	if n > 16 {
		t.Fatalf("sshtest: one sshd listens on at most 16 ports (asked for %d); start several", n)
	}
	if _, err := os.Stat(Path); err != nil {
		testenv.Missing(t, "ssh tests need openssh-server ("+Path+" missing; apt-get install -y openssh-server)")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		testenv.Missing(t, "ssh tests need ssh-keygen")
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	login := u.Username
	if o.User != "" {
		login = o.User
	}
	if u.Uid == "0" {
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Skipf("cannot create /run/sshd: %v", err)
		}
	}
	dir := t.TempDir()
	if o.User != "" {
		// sshd reads authorized_keys as the user
		if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &Server{User: login, Home: home, KeyFile: filepath.Join(home, ".ssh", "id_ed25519"), KnownHosts: filepath.Join(home, ".ssh", "known_hosts")}
	hostKey := filepath.Join(dir, "host_ed25519")
	for _, k := range []string{hostKey, s.KeyFile} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(s.KeyFile + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	auth := filepath.Join(dir, "authorized_keys")
	authMode := os.FileMode(0o600)
	if o.User != "" {
		authMode = 0o644
	}
	if err := os.WriteFile(auth, pub, authMode); err != nil {
		t.Fatal(err)
	}
	hpub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if s.HostKey, _, _, _, err = gossh.ParseAuthorizedKey(hpub); err != nil {
		t.Fatal(err)
	}
	// Hold every listener until all ports are picked, so they differ.
	var portLines string
	var lns []net.Listener
	for range max(n, 1) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		p := ln.Addr().(*net.TCPAddr).Port
		s.Ports = append(s.Ports, p)
		portLines += fmt.Sprintf("Port %d\n", p)
	}
	for _, ln := range lns {
		ln.Close()
	}
	s.Port = s.Ports[0]
	// SetEnv SHLVL=1: bash started by sshd for a command skips the
	// account's ~/.bashrc (it reads it only at shell level 1), so the
	// machine's own rc files (a pyenv rehash racing between parallel
	// logins) do not write into the tests' outputs.
	conf := filepath.Join(dir, "sshd_config")
	cfg := fmt.Sprintf(`%sListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PidFile %s
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowAgentForwarding no
X11Forwarding no
PrintMotd no
MaxStartups 512
`, portLines, hostKey, auth, filepath.Join(dir, "sshd.pid"))
	// sshd takes the first SetEnv only: one line holds them all.
	setenv := "SetEnv SHLVL=1"
	for _, l := range o.Extra {
		if v, ok := strings.CutPrefix(l, "SetEnv "); ok {
			setenv += " " + v
			continue
		}
		cfg += l + "\n"
	}
	cfg += setenv + "\n"
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	argv := []string{Path, "-D", "-e", "-f", conf}
	if o.Command != nil {
		s.cmd = o.Command(argv...)
	} else {
		s.cmd = exec.Command(argv[0], argv[1:]...)
	}
	s.cmd.Stdout, s.cmd.Stderr = &logs, &logs
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("sshd: %v", err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen: %v\n%s", err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

// Trust writes the server's host key to the client's known_hosts.
func (s *Server) Trust(t testing.TB) {
	t.Helper()
	line := fmt.Sprintf("[127.0.0.1]:%d %s", s.Port, bytes.TrimSpace(gossh.MarshalAuthorizedKey(s.HostKey)))
	if err := os.WriteFile(s.KnownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
