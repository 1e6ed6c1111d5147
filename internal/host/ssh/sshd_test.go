package ssh

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

const sshdPath = "/usr/sbin/sshd"

// server is a real OpenSSH server on a loopback port, started for a test.
type server struct {
	port       int
	user       string
	home       string // a fake local home holding the client key
	keyFile    string
	knownHosts string
	hostKey    gossh.PublicKey
	cmd        *exec.Cmd
}

// startSSHD runs sshd on a free loopback port with a throwaway host key and
// authorized_keys; it is stopped when the test ends.
func startSSHD(t testing.TB) *server {
	t.Helper()
	if _, err := os.Stat(sshdPath); err != nil {
		t.Skip("ssh tests need openssh-server (" + sshdPath + " missing; apt-get install -y openssh-server)")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh tests need ssh-keygen")
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	if u.Uid == "0" {
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Skipf("cannot create /run/sshd: %v", err)
		}
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := &server{user: u.Username, home: home, keyFile: filepath.Join(home, ".ssh", "id_ed25519"), knownHosts: filepath.Join(home, ".ssh", "known_hosts")}
	hostKey := filepath.Join(dir, "host_ed25519")
	for _, k := range []string{hostKey, s.keyFile} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(s.keyFile + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	auth := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(auth, pub, 0o600); err != nil {
		t.Fatal(err)
	}
	hpub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if s.hostKey, _, _, _, err = gossh.ParseAuthorizedKey(hpub); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	conf := filepath.Join(dir, "sshd_config")
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
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
`, s.port, hostKey, auth, filepath.Join(dir, "sshd.pid"))
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	s.cmd = exec.Command(sshdPath, "-D", "-e", "-f", conf)
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
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)), time.Second)
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

// trust writes the server's host key to the client's known_hosts.
func (s *server) trust(t testing.TB) {
	t.Helper()
	line := fmt.Sprintf("[127.0.0.1]:%d %s", s.port, bytes.TrimSpace(gossh.MarshalAuthorizedKey(s.hostKey)))
	if err := os.WriteFile(s.knownHosts, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (s *server) options() Options {
	return Options{Host: "127.0.0.1", Port: s.port, User: s.user, Home: s.home, SSHConfig: "none"}
}

func (s *server) newHost(t testing.TB) *Host {
	t.Helper()
	s.trust(t)
	h, err := New(s.options())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := h.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return h
}
