package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes bounds one inbound JSON-RPC message on stdio.
const MaxMessageBytes = 16 << 20

// JSON-RPC error codes used for lines that are not messages.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// LineTransport is a newline-delimited JSON-RPC transport that survives bad
// input: a line that is not JSON, or not a JSON-RPC message, is answered with
// a JSON-RPC error and reading goes on (the SDK's stdio transport ends the
// session instead).
type LineTransport struct {
	In  io.Reader
	Out io.Writer
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{w: t.Out, incoming: make(chan msgOrErr), closed: make(chan struct{})}
	if rc, ok := t.In.(io.Closer); ok {
		c.inCloser = rc
	}
	go c.readLoop(t.In)
	return c, nil
}

type msgOrErr struct {
	msg jsonrpc.Message
	err error
}

type lineConn struct {
	w        io.Writer
	wmu      sync.Mutex
	inCloser io.Closer
	incoming chan msgOrErr

	closeOnce sync.Once
	closed    chan struct{}
}

func (c *lineConn) readLoop(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r, MaxMessageBytes)
		if tooLong {
			c.writeError(nil, codeInvalidRequest, fmt.Sprintf("message larger than %d bytes", MaxMessageBytes))
		} else if t := bytes.TrimSpace(line); len(t) > 0 {
			if msg, ok := c.decode(t); ok {
				select {
				case c.incoming <- msgOrErr{msg: msg}:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			select {
			case c.incoming <- msgOrErr{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads up to a newline; lines over max are drained and reported.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, tooLong, err
	}
}

// decode parses one line; on failure it answers the peer and reports false.
func (c *lineConn) decode(line []byte) (jsonrpc.Message, bool) {
	if !json.Valid(line) {
		c.writeError(nil, codeParseError, "parse error: the line is not valid JSON")
		return nil, false
	}
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if line[0] == '[' {
		c.writeError(nil, codeInvalidRequest, "invalid request: JSON-RPC batches are not supported")
		return nil, false
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		c.writeError(nil, codeInvalidRequest, "invalid request: a JSON-RPC message must be an object")
		return nil, false
	}
	if probe.Method == nil && probe.Result == nil && probe.Error == nil {
		c.writeError(probe.ID, codeInvalidRequest, "invalid request: no method")
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.writeError(probe.ID, codeInvalidRequest, "invalid request: "+err.Error())
		return nil, false
	}
	return msg, true
}

func (c *lineConn) writeError(id json.RawMessage, code int, message string) {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	c.writeRaw(append(out, '\n'))
}

func (c *lineConn) writeRaw(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(b)
	return err
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case m := <-c.incoming:
		return m.msg, m.err
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeRaw(append(data, '\n'))
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if c.inCloser != nil {
			c.inCloser.Close()
		}
	})
	return nil
}

func (c *lineConn) SessionID() string { return "" }

// ServeStdio serves one client over in and out (newline-delimited JSON-RPC)
// until the client disconnects (in ends) or ctx is cancelled, then ends
// what the tools started.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	defer s.Close()
	err := s.mcp.Run(ctx, &LineTransport{In: in, Out: out})
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Serve runs t (any SDK transport, e.g. an in-memory one in tests) until the
// client disconnects or ctx is cancelled, then ends what the tools started.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	defer s.Close()
	err := s.mcp.Run(ctx, t)
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// HTTPHandler serves the streamable HTTP transport to clients that send
// token as a bearer token and come from no web origin or a loopback one
// (Guard).
func (s *Server) HTTPHandler(token string) http.Handler {
	return Guard(token, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{Logger: s.opts.Logger}))
}

// NewToken returns a fresh random bearer token (256 bits, hex).
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// MinTokenLen is the shortest bearer token the HTTP transport accepts.
const MinTokenLen = 16

// Guard admits a request to next only when its Origin header, if any,
// names a loopback host (403 otherwise: a web page the user visits must
// not reach nb's tools, as the MCP specification requires) and it carries
// "Authorization: Bearer TOKEN" (401 otherwise: other local users and
// programs must not either). An empty or short token admits nothing.
func Guard(token string, next http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Values("Origin"); len(o) > 0 && (len(o) > 1 || !loopbackOrigin(o[0])) {
			http.Error(w, "forbidden: requests from web origins other than loopback are refused", http.StatusForbidden)
			return
		}
		auth := r.Header.Get("Authorization")
		scheme, got, _ := strings.Cut(auth, " ")
		if len(want) < MinTokenLen || !strings.EqualFold(scheme, "Bearer") ||
			subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="nb"`)
			http.Error(w, "unauthorized: send the token nb mcp serve printed as \"Authorization: Bearer TOKEN\"", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackOrigin reports whether an Origin header value is an http(s)
// origin on localhost or a loopback address.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return false
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// CheckLoopback refuses listen addresses that are not on a loopback
// interface: nb's tools must not be reachable from the network.
func CheckLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if _, perr := strconv.ParseUint(addr, 10, 16); perr == nil {
			// --http 7777: a port alone.
			return fmt.Errorf("listen address %q: give a loopback host and the port, e.g. 127.0.0.1:%s", addr, addr)
		}
		return fmt.Errorf("listen address %q: %w (e.g. 127.0.0.1:7777)", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("listen address %q: only loopback addresses (127.0.0.1, [::1], localhost) are allowed, e.g. 127.0.0.1:%s", addr, port)
	}
	return nil
}

// ServeHTTP listens on the loopback address addr and serves streamable HTTP
// to clients presenting token (see Guard) until ctx is cancelled. ready,
// when set, is called with the bound address.
func (s *Server) ServeHTTP(ctx context.Context, addr, token string, ready func(addr string)) error {
	defer s.Close()
	if err := CheckLoopback(addr); err != nil {
		return err
	}
	if len(token) < MinTokenLen {
		return fmt.Errorf("serve http: the bearer token must have at least %d characters", MinTokenLen)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	mux := http.NewServeMux()
	h := s.HTTPHandler(token)
	mux.Handle("/mcp", h)
	mux.Handle("/", h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		<-errc
		return nil
	case err := <-errc:
		return err
	}
}
