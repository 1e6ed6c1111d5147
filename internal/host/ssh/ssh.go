// Package ssh runs commands on a remote machine over SSH
// (golang.org/x/crypto/ssh): host keys are verified against known_hosts and
// an unknown key is put to the user, never ignored; keys come from the
// configured identity file, ~/.ssh/config and the ssh-agent. Each run is a
// session whose working directory is tracked on the remote side; PTY
// sessions use a remote pseudo-terminal; a dropped connection is redialled.
package ssh

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/nb-cli/nb/internal/host"
)

// AskHostKeyFunc asks the user whether to trust an unknown host key
// (shown by its SHA256 fingerprint). Returning true records the key in
// known_hosts.
type AskHostKeyFunc func(hostport string, key gossh.PublicKey) (bool, error)

// Fingerprint is the SHA256 fingerprint of a host key, as OpenSSH shows it.
func Fingerprint(key gossh.PublicKey) string { return gossh.FingerprintSHA256(key) }

// Options configures an SSH host.
type Options struct {
	// Name is the provider name ("ssh" when empty).
	Name string
	// Host is a host name or a ~/.ssh/config alias; User, Port and
	// IdentityFile override the config file.
	Host         string
	User         string
	Port         int
	IdentityFile string
	// KnownHosts is the known_hosts file (~/.ssh/known_hosts when empty).
	KnownHosts string
	// Shell runs the scripts remotely ("bash" when present, else sh).
	Shell string
	// Home is the local home directory (for ~ and ~/.ssh).
	Home string
	// SSHConfig is the OpenSSH client config (~/.ssh/config when empty;
	// "none" to ignore it).
	SSHConfig string
	// LocalUser is the user name used when neither User nor ~/.ssh/config
	// names one.
	LocalUser string
	// AgentSocket is $SSH_AUTH_SOCK ("" for no agent).
	AgentSocket string
	// AskHostKey decides about unknown host keys; nil refuses them.
	AskHostKey AskHostKeyFunc
	// EnvPolicy says which variables of the remote login environment
	// commands see (host.EnvPolicy.RemoteScrub runs in the wrapper).
	EnvPolicy host.EnvPolicy
	// DialTimeout bounds connecting (10s when zero).
	DialTimeout time.Duration
	// IdentityFiles and KnownHostsFiles, when set, are used as resolved
	// (a fleet inventory resolves ~/.ssh/config itself and passes
	// SSHConfig "none"): keys offered after IdentityFile, and the
	// known_hosts files in place of the defaults (new keys go to the
	// first).
	IdentityFiles   []string
	KnownHostsFiles []string
	// IdentitiesOnly offers only the identity files' keys, also when the
	// agent holds them (OpenSSH's IdentitiesOnly), not every agent key.
	IdentitiesOnly bool
	// Dial, when set, opens the connection to host:port in place of a TCP
	// dial (ProxyJump: through another Host's DialContext).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Keepalive is the interval of keepalive requests (30s when zero); a
	// connection that stops answering is closed and redialled on next use.
	Keepalive time.Duration
}

// Host is a remote host.Host.
type Host struct {
	name       string
	addr       string // host:port dialled
	user       string
	shell      string
	keyFiles   []string
	knownHosts []string
	agentSock  string
	ask        AskHostKeyFunc
	envPolicy  host.EnvPolicy
	timeout    time.Duration
	keepalive  time.Duration
	dialFn     func(ctx context.Context, network, addr string) (net.Conn, error)
	idOnly     bool

	mu     sync.Mutex
	client *gossh.Client
	dead   chan struct{} // closed when client's connection ends
	closed bool
}

var _ host.Host = (*Host)(nil)

// New resolves the configuration; the connection is made on first use (or
// by Connect).
func New(o Options) (*Host, error) {
	if o.Host == "" {
		return nil, errors.New("ssh: no host")
	}
	h := &Host{name: o.Name, shell: o.Shell, agentSock: o.AgentSocket, ask: o.AskHostKey, envPolicy: o.EnvPolicy, timeout: o.DialTimeout}
	if h.name == "" {
		h.name = "ssh"
	}
	if h.timeout == 0 {
		h.timeout = 10 * time.Second
	}
	h.keepalive = o.Keepalive
	if h.keepalive == 0 {
		h.keepalive = 30 * time.Second
	}
	var ce configEntry
	cfgPath := o.SSHConfig
	if cfgPath == "" && o.Home != "" {
		cfgPath = filepath.Join(o.Home, ".ssh", "config")
	}
	if cfgPath != "" && cfgPath != "none" {
		if f, err := os.Open(cfgPath); err == nil {
			ce = parseSSHConfig(f, o.Host, o.Home)
			f.Close()
		}
	}
	hostname := o.Host
	if ce.HostName != "" {
		hostname = ce.HostName
	}
	port := o.Port
	if port == 0 {
		port = ce.Port
	}
	if port == 0 {
		port = 22
	}
	h.addr = net.JoinHostPort(hostname, strconv.Itoa(port))
	h.user = o.User
	if h.user == "" {
		h.user = ce.User
	}
	if h.user == "" {
		h.user = o.LocalUser
	}
	if h.user == "" {
		return nil, errors.New("ssh: no user (set user in the provider or ~/.ssh/config)")
	}
	if o.IdentityFile != "" {
		h.keyFiles = append(h.keyFiles, expandTilde(o.IdentityFile, o.Home))
	}
	h.keyFiles = append(h.keyFiles, ce.IdentityFiles...)
	h.keyFiles = append(h.keyFiles, o.IdentityFiles...)
	h.dialFn, h.idOnly = o.Dial, o.IdentitiesOnly
	if len(h.keyFiles) == 0 && o.Home != "" {
		for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			h.keyFiles = append(h.keyFiles, filepath.Join(o.Home, ".ssh", n))
		}
	}
	switch {
	case len(o.KnownHostsFiles) > 0:
		h.knownHosts = o.KnownHostsFiles
	case o.KnownHosts != "":
		h.knownHosts = []string{expandTilde(o.KnownHosts, o.Home)}
	case len(ce.KnownHosts) > 0:
		h.knownHosts = ce.KnownHosts
	case o.Home != "":
		h.knownHosts = []string{filepath.Join(o.Home, ".ssh", "known_hosts")}
	default:
		return nil, errors.New("ssh: no known_hosts file (set knownHosts)")
	}
	return h, nil
}

// ErrHostKey is wrapped by the errors of a host key that is not trusted
// (a mismatch, or an unknown key refused).
var ErrHostKey = errors.New("host key verification failed")

// DialError is a failure to reach the server at all (no route, refused,
// no answer within the dial timeout): nothing was said to the server.
type DialError struct {
	Addr string
	Err  error
}

func (e *DialError) Error() string { return "ssh " + e.Addr + ": " + e.Err.Error() }
func (e *DialError) Unwrap() error { return e.Err }

// DialContext opens a TCP connection from the remote host (a ProxyJump
// hop), connecting to h first when needed.
func (h *Host) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := h.conn(ctx, nil)
	if err != nil {
		return nil, err
	}
	nc, err := c.DialContext(ctx, network, addr)
	if err != nil {
		return nil, fmt.Errorf("ssh jump %s → %s: %w", h.addr, addr, err)
	}
	return nc, nil
}

// Name implements host.Host.
func (h *Host) Name() string { return h.name }

// Isolation implements host.Host.
func (h *Host) Isolation() host.Isolation { return host.IsolationRemote }

// Address is user@host:port.
func (h *Host) Address() string { return h.user + "@" + h.addr }

// Connect dials now (it is otherwise done on first use).
func (h *Host) Connect(ctx context.Context) error {
	_, err := h.conn(ctx, nil)
	return err
}

// conn returns a live client, dialling when there is none, when it died,
// or when it is stale (a caller saw it fail).
func (h *Host) conn(ctx context.Context, stale *gossh.Client) (*gossh.Client, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errors.New("ssh: host closed")
	}
	if h.client != nil && h.client != stale {
		select {
		case <-h.dead:
		default:
			return h.client, nil
		}
	}
	if h.client != nil {
		_ = h.client.Close()
		h.client = nil
	}
	c, err := h.dial(ctx)
	if err != nil {
		return nil, err
	}
	dead := make(chan struct{})
	go func() {
		_ = c.Wait()
		close(dead)
	}()
	go keepalive(c, dead, h.keepalive)
	h.client, h.dead = c, dead
	return c, nil
}

func (h *Host) dial(ctx context.Context) (*gossh.Client, error) {
	auth, closeAgent := h.authMethods()
	defer closeAgent()
	cfg := &gossh.ClientConfig{
		User:            h.user,
		Auth:            auth,
		HostKeyCallback: h.hostKeyCallback(),
		Timeout:         h.timeout,
	}
	dctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	var nc net.Conn
	var err error
	if h.dialFn != nil {
		nc, err = h.dialFn(dctx, "tcp", h.addr)
	} else {
		d := net.Dialer{Timeout: h.timeout}
		nc, err = d.DialContext(dctx, "tcp", h.addr)
	}
	if err != nil {
		return nil, &DialError{Addr: h.addr, Err: err}
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	} else {
		_ = nc.SetDeadline(time.Now().Add(h.timeout))
	}
	// Connections that ignore deadlines (a channel through a jump host)
	// and a cancelled ctx end the handshake by closing the connection.
	stop := context.AfterFunc(dctx, func() { nc.Close() })
	cc, chans, reqs, err := gossh.NewClientConn(nc, h.addr, cfg)
	if !stop() && err == nil {
		err = dctx.Err()
	}
	if err != nil {
		nc.Close()
		if dctx.Err() != nil && !errors.Is(err, ErrHostKey) {
			return nil, &DialError{Addr: h.addr, Err: fmt.Errorf("handshake: %w", context.Cause(dctx))}
		}
		return nil, fmt.Errorf("ssh %s: %w", h.addr, err)
	}
	_ = nc.SetDeadline(time.Time{})
	return gossh.NewClient(cc, chans, reqs), nil
}

// authMethods offers the agent's keys and the identity files. The returned
// func closes the agent connection once authentication is over.
func (h *Host) authMethods() ([]gossh.AuthMethod, func()) {
	var signers []gossh.Signer
	closer := func() {}
	allowed := map[string]bool{} // the identity files' public keys
	for _, f := range h.keyFiles {
		if b, err := os.ReadFile(f + ".pub"); err == nil {
			if pk, _, _, _, err := gossh.ParseAuthorizedKey(b); err == nil {
				allowed[string(pk.Marshal())] = true
			}
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		s, err := gossh.ParsePrivateKey(b)
		if err != nil {
			continue // encrypted keys are for the agent
		}
		allowed[string(s.PublicKey().Marshal())] = true
		signers = append(signers, s)
	}
	var methods []gossh.AuthMethod
	if h.agentSock != "" {
		if c, err := net.Dial("unix", h.agentSock); err == nil {
			ag := agent.NewClient(c)
			closer = func() { c.Close() }
			cb := ag.Signers
			if h.idOnly {
				cb = func() ([]gossh.Signer, error) {
					all, err := ag.Signers()
					var keep []gossh.Signer
					for _, s := range all {
						if allowed[string(s.PublicKey().Marshal())] {
							keep = append(keep, s)
						}
					}
					return keep, err
				}
			}
			methods = append(methods, gossh.PublicKeysCallback(cb))
		}
	}
	if len(signers) > 0 {
		methods = append(methods, gossh.PublicKeys(signers...))
	}
	return methods, closer
}

// hostKeyCallback verifies against known_hosts: a known matching key
// passes, a different key for a known host is refused, and an unknown host
// is put to AskHostKey (and remembered on yes).
func (h *Host) hostKeyCallback() gossh.HostKeyCallback {
	return func(hostname string, remote net.Addr, key gossh.PublicKey) error {
		var files []string
		for _, f := range h.knownHosts {
			if _, err := os.Stat(f); err == nil {
				files = append(files, f)
			}
		}
		if len(files) > 0 {
			cb, err := knownhosts.New(files...)
			if err != nil {
				return fmt.Errorf("known_hosts: %w", err)
			}
			err = cb(hostname, remote, key)
			var ke *knownhosts.KeyError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &ke) && len(ke.Want) > 0:
				return fmt.Errorf("%w: host key for %s does not match known_hosts (%s:%d): possible man-in-the-middle attack; got %s",
					ErrHostKey, hostname, ke.Want[0].Filename, ke.Want[0].Line, gossh.FingerprintSHA256(key))
			case !errors.As(err, &ke):
				return err
			}
		}
		if h.ask == nil {
			return fmt.Errorf("%w: unknown host key for %s (%s): add it to %s or connect interactively", ErrHostKey, hostname, gossh.FingerprintSHA256(key), h.knownHosts[0])
		}
		ok, err := h.ask(hostname, key)
		if err != nil {
			return fmt.Errorf("host key: %w", err)
		}
		if !ok {
			return fmt.Errorf("%w: host key for %s refused", ErrHostKey, hostname)
		}
		return appendKnownHost(h.knownHosts[0], hostname, key)
	}
}

func appendKnownHost(file, hostname string, key gossh.PublicKey) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("known_hosts: %w", err)
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("known_hosts: %w", err)
	}
	line := knownhosts.Line([]string{knownhosts.Normalize(hostname)}, key)
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return fmt.Errorf("known_hosts: %w", err)
	}
	return f.Close()
}

// session opens a session, redialling once when the connection dropped.
func (h *Host) session(ctx context.Context) (*gossh.Session, *gossh.Client, error) {
	c, err := h.conn(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	s, err := c.NewSession()
	if err == nil {
		return s, c, nil
	}
	c, err2 := h.conn(ctx, c)
	if err2 != nil {
		return nil, nil, fmt.Errorf("ssh session: %w (reconnect: %v)", err, err2)
	}
	s, err = c.NewSession()
	if err != nil {
		return nil, nil, fmt.Errorf("ssh session: %w", err)
	}
	return s, c, nil
}

// Close implements host.Host.
func (h *Host) Close() error {
	h.mu.Lock()
	c, dead := h.client, h.dead
	h.client = nil
	h.closed = true
	h.mu.Unlock()
	if c == nil {
		return nil
	}
	err := c.Close()
	<-dead
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("ssh close: %w", err)
	}
	return nil
}

// keepalive probes the connection every interval and closes it when the
// server stops answering, so the next use redials.
func keepalive(c *gossh.Client, dead <-chan struct{}, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-dead:
			return
		case <-t.C:
		}
		res := make(chan error, 1)
		go func() {
			_, _, err := c.SendRequest("keepalive@openssh.com", true, nil)
			res <- err
		}()
		wait := time.NewTimer(every)
		select {
		case err := <-res:
			wait.Stop()
			if err != nil {
				_ = c.Close()
				return
			}
		case <-wait.C:
			_ = c.Close() // the pending request fails with the connection
			return
		case <-dead:
			wait.Stop()
			return
		}
	}
}
