// Package fleettest gives tests a fleet of real OpenSSH hosts: one sshd
// on loopback listening on several ports, each port a host of an OpenSSH
// client configuration written for the test (Host web-01 … with HostName,
// Port, User, IdentityFile, UserKnownHostsFile and strict host keys).
package fleettest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
)

// Fleet is the running servers and the client files naming them.
type Fleet struct {
	// Server is the first sshd (each serves up to 16 hosts).
	Server *sshtest.Server
	// Config is the ssh client configuration; Home the client's home.
	Config string
	Home   string
	// Names are the hosts (web-01 …), Ports their ports.
	Names []string
	Ports map[string]int
}

// perServer is how many ports one sshd listens on (OpenSSH's limit of
// listen sockets is 16).
const perServer = 16

// Start runs n hosts named web-01 … web-NN, written to the client home
// of the first server (Server.Home). Extra lines go to every sshd_config.
func Start(t testing.TB, n int, extra ...string) *Fleet {
	t.Helper()
	srvs := servers(t, n, extra...)
	return write(t, srvs, srvs[0].Home)
}

// StartIn is Start with the client configuration written to
// home/.ssh/config (the keys stay in the servers' files; the paths are
// absolute).
func StartIn(t testing.TB, n int, home string) *Fleet {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	return write(t, servers(t, n), home)
}

// Of names the ports of running servers as hosts web-01 …, in order,
// with the client configuration written to home/.ssh/config.
func Of(t testing.TB, home string, srvs ...*sshtest.Server) *Fleet {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	return write(t, srvs, home)
}

func servers(t testing.TB, n int, extra ...string) []*sshtest.Server {
	var out []*sshtest.Server
	for n > 0 {
		k := min(n, perServer)
		out = append(out, sshtest.StartPorts(t, k, extra...))
		n -= k
	}
	return out
}

func write(t testing.TB, srvs []*sshtest.Server, home string) *Fleet {
	t.Helper()
	f := &Fleet{Server: srvs[0], Home: home, Config: filepath.Join(home, ".ssh", "config"), Ports: map[string]int{}}
	var kh, cfg bytes.Buffer
	known := filepath.Join(home, ".ssh", "fleet_known_hosts")
	i := 0
	for _, srv := range srvs {
		for _, port := range srv.Ports {
			i++
			name := fmt.Sprintf("web-%02d", i)
			f.Names = append(f.Names, name)
			f.Ports[name] = port
			fmt.Fprintf(&kh, "[127.0.0.1]:%d %s", port, gossh.MarshalAuthorizedKey(srv.HostKey))
			fmt.Fprintf(&cfg, "Host %s\n  HostName 127.0.0.1\n  Port %d\n  User %s\n  IdentityFile %s\n  UserKnownHostsFile %s\n  StrictHostKeyChecking yes\n",
				name, port, srv.User, srv.KeyFile, known)
		}
	}
	if err := os.WriteFile(known, kh.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.Config, cfg.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
