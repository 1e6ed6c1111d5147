//go:build unix

package ssh

import (
	"context"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/nb-cli/nb/internal/host/ssh/sshtest"
)

// server is a real OpenSSH server on a loopback port, started for a test.
type server struct {
	port       int
	user       string
	home       string // a fake local home holding the client key
	keyFile    string
	knownHosts string
	hostKey    gossh.PublicKey
	s          *sshtest.Server
}

// startSSHD runs sshd on a free loopback port (package sshtest); it is
// stopped when the test ends.
func startSSHD(t testing.TB) *server {
	t.Helper()
	s := sshtest.Start(t)
	return &server{port: s.Port, user: s.User, home: s.Home, keyFile: s.KeyFile, knownHosts: s.KnownHosts, hostKey: s.HostKey, s: s}
}

// trust writes the server's host key to the client's known_hosts.
func (s *server) trust(t testing.TB) { s.s.Trust(t) }

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
