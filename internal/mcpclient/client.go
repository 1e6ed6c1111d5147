// Package mcpclient connects nb to the MCP servers in its configuration
// (stdio and streamable HTTP), offers their tools to the model as
// "{server}_{tool}" under nb's approval policy, lets the model read their
// resources, and lists and fetches their prompts for /prompts and /prompt.
package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/secrets"
	"github.com/nb-cli/nb/internal/tool"
)

// Options configures a Client.
type Options struct {
	// Policy decides every tool call (required).
	Policy tool.Policy
	// StartTimeout bounds connecting to one server (default 30 s).
	StartTimeout time.Duration
	// CallTimeout bounds one tool call when the server sets no timeout
	// (default 120 s).
	CallTimeout time.Duration
	// OnError reports a server that failed to start, in one line.
	OnError func(server string, err error)
	// Env is the base environment of stdio servers; when nil, nb's own
	// environment without the model providers' keys (secrets.ProviderEnv
	// and KeyEnv): a server is a program the user configured, but nb's
	// keys are not its to use. A server's own env entries are added last.
	Env []string
	// KeyEnv names further variables holding provider keys (the apiKeyEnv
	// of configured providers).
	KeyEnv []string
	// Stderr receives the servers' stderr (discarded when nil).
	Stderr io.Writer
	// HTTPClient is used for streamable HTTP servers.
	HTTPClient *http.Client
	// Version is reported to servers.
	Version string
	// Elicit, when set, answers servers that ask the user for input; when nil
	// nb does not advertise elicitation.
	Elicit func(ctx context.Context, server string, req *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

// Client holds the sessions of the configured servers.
type Client struct {
	opts    Options
	servers map[string]config.MCPServer

	mu       sync.Mutex
	sessions map[string]*session
	failed   map[string]error
	closed   bool

	// transports overrides how a server is reached (in-memory tests).
	transports map[string]mcp.Transport
}

type session struct {
	name  string
	cfg   config.MCPServer
	cs    *mcp.ClientSession
	cmd   *exec.Cmd
	tools []*mcp.Tool
	caps  *mcp.ServerCapabilities
}

// New returns a client for servers; it connects nothing until Start.
// Disabled servers are skipped.
func New(servers map[string]config.MCPServer, opts Options) *Client {
	if opts.Policy == nil {
		panic("mcpclient.New: Options.Policy is required")
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 120 * time.Second
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	c := &Client{opts: opts, servers: map[string]config.MCPServer{}, sessions: map[string]*session{}, failed: map[string]error{}}
	for name, s := range servers {
		if !s.Disabled {
			c.servers[name] = s
		}
	}
	return c
}

// Start connects every server in parallel, each within StartTimeout, and
// lists its tools. A server that fails is reported through OnError and left
// out; the others keep working. Start returns when all attempts are over.
func (c *Client) Start(ctx context.Context) {
	var wg sync.WaitGroup
	for _, name := range sortedKeys(c.servers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := c.connect(ctx, name, c.servers[name])
			c.mu.Lock()
			defer c.mu.Unlock()
			if err == nil && c.closed {
				err = errors.New("client closed")
				s.close()
			}
			if err != nil {
				c.failed[name] = err
				if c.opts.OnError != nil {
					c.opts.OnError(name, err)
				}
				return
			}
			c.sessions[name] = s
		}()
	}
	wg.Wait()
}

// Status describes one configured server.
type Status struct {
	Name      string
	Connected bool
	Tools     int
	Err       error
}

// Status lists the configured servers and how their start went.
func (c *Client) Status() []Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Status
	for _, name := range sortedKeys(c.servers) {
		st := Status{Name: name, Err: c.failed[name]}
		if s, ok := c.sessions[name]; ok {
			st.Connected, st.Tools = true, len(s.tools)
		}
		out = append(out, st)
	}
	return out
}

func (c *Client) connect(ctx context.Context, name string, cfg config.MCPServer) (*session, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.StartTimeout)
	defer cancel()
	s := &session{name: name, cfg: cfg}
	var t mcp.Transport
	url := cfg.URL
	if url == "" {
		url = cfg.Endpoint
	}
	switch {
	case c.transports[name] != nil:
		t = c.transports[name]
	case cfg.Command != "" && (cfg.Type == "" || cfg.Type == "stdio"):
		cmd := exec.Command(cfg.Command, cfg.Args...)
		env := c.opts.Env
		if env == nil {
			env = withoutKeys(os.Environ(), c.opts.KeyEnv)
		}
		cmd.Env = append(append([]string(nil), env...), envList(cfg.Env)...)
		if c.opts.Stderr != nil {
			cmd.Stderr = c.opts.Stderr
		}
		ownGroup(cmd)
		s.cmd = cmd
		t = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	case url != "":
		if cfg.Type == "sse" {
			return nil, errors.New("the legacy SSE transport is not supported; use the server's streamable HTTP endpoint")
		}
		hc := c.opts.HTTPClient
		if hc == nil {
			hc = &http.Client{}
		}
		if len(cfg.Headers) > 0 {
			hc = &http.Client{Transport: headerTransport{base: hc.Transport, headers: cfg.Headers}, Timeout: hc.Timeout}
		}
		t = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}
	default:
		return nil, errors.New(`needs "command" (stdio) or "url" (streamable HTTP)`)
	}
	copts := &mcp.ClientOptions{}
	if c.opts.Elicit != nil {
		copts.ElicitationHandler = func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return c.opts.Elicit(ctx, name, r.Params)
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "nb", Version: c.opts.Version}, copts)
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		if s.cmd != nil {
			killGroup(s.cmd)
		}
		return nil, startError(ctx, err)
	}
	s.cs = cs
	if r := cs.InitializeResult(); r != nil {
		s.caps = r.Capabilities
	}
	if s.caps == nil || s.caps.Tools != nil {
		for tl, err := range cs.Tools(ctx, nil) {
			if err != nil {
				s.close()
				return nil, fmt.Errorf("listing tools: %w", startError(ctx, err))
			}
			s.tools = append(s.tools, tl)
		}
	}
	return s, nil
}

func startError(ctx context.Context, err error) error {
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("did not answer in time: %w", err)
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return errors.New(msg)
}

func (s *session) close() error {
	if s.cs == nil {
		return nil
	}
	err := s.cs.Close()
	if s.cmd != nil {
		killGroup(s.cmd)
	}
	return err
}

// Close ends every session and the servers nb started.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	sessions := c.sessions
	c.sessions = map[string]*session{}
	c.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, 0, len(sessions))
	var emu sync.Mutex
	for _, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.close(); err != nil && !isExitErr(err) {
				emu.Lock()
				errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
				emu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func isExitErr(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

func (c *Client) session(name string) (*session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sessions[name]
	return s, ok
}

func (c *Client) sortedSessions() []*session {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*session, 0, len(c.sessions))
	for _, name := range sortedKeys(c.sessions) {
		out = append(out, c.sessions[name])
	}
	return out
}

func (s *session) timeout(def time.Duration) time.Duration {
	if s.cfg.Timeout > 0 {
		return time.Duration(s.cfg.Timeout) * time.Second
	}
	return def
}

type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	base := h.base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// withoutKeys is environ without the variables holding provider keys.
func withoutKeys(environ, extra []string) []string {
	keys := map[string]bool{}
	for _, k := range append(secrets.ProviderEnv(), extra...) {
		keys[strings.ToUpper(k)] = true
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); !keys[strings.ToUpper(k)] {
			out = append(out, kv)
		}
	}
	return out
}

func envList(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, k+"="+m[k])
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
