// Package apierr turns the failures of model HTTP APIs into *llm.Error values
// with a kind and a one-line message, whatever SDK produced them.
//
// A Capture records the status, headers and (bounded) body of a failed HTTP
// response as it passes through an SDK middleware, so that the
// classification does not depend on how each SDK parses error bodies.
package apierr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// maxBody bounds how much of an error body is kept.
const maxBody = 64 << 10

// Capture holds what was seen of a failed HTTP response.
type Capture struct {
	mu     sync.Mutex
	status int
	header http.Header
	body   []byte
}

// Observe records resp when it is an error response, restoring its body.
func (c *Capture) Observe(resp *http.Response) {
	if c == nil || resp == nil || resp.StatusCode < 400 {
		return
	}
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxBody))
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status = resp.StatusCode
	c.header = resp.Header.Clone()
	c.body = body
}

// Pass observes the outcome of one HTTP round trip and returns it
// unchanged; SDK middlewares call it as `return c.Pass(next(r))`.
func (c *Capture) Pass(resp *http.Response, err error) (*http.Response, error) {
	if err == nil {
		c.Observe(resp)
	}
	return resp, err
}

// Status is the HTTP status of the failed response, 0 when none was seen.
func (c *Capture) Status() int {
	st, _, _ := c.get()
	return st
}

func (c *Capture) get() (int, http.Header, []byte) {
	if c == nil {
		return 0, nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status, c.header, c.body
}

// Classify maps err, raised by provider while streaming, to an error for the
// caller. Context cancellation is returned as the context's error (wrapped),
// everything else as an *llm.Error. sdkStatus and sdkMessage come from the
// SDK's own error type when it has one (0 and "" otherwise).
func Classify(ctx context.Context, provider string, err error, c *Capture, sdkStatus int, sdkMessage string) error {
	if err == nil {
		return nil
	}
	var le *llm.Error
	if errors.As(err, &le) {
		// Not the SDK's wrapping ("Post URL: ..."): the one line.
		return le
	}
	if ctx.Err() != nil {
		return &ctxError{provider: provider, err: ctx.Err()}
	}
	status, header, body := c.get()
	if status == 0 {
		status = sdkStatus
	}
	if status == 0 {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return &ctxError{provider: provider, err: err}
		}
		kind := llm.ErrUnknown
		msg := OneLine(sdkMessage)
		if IsNetwork(err) {
			kind = llm.ErrNetwork
			msg = networkMessage(err)
		} else if msg == "" {
			msg = OneLine(err.Error())
		}
		return &llm.Error{Kind: kind, Provider: provider, Message: msg, Err: err}
	}
	msg := Message(body)
	if msg == "" {
		msg = OneLine(sdkMessage)
	}
	e := &llm.Error{Kind: KindOf(status, msg, body), Provider: provider, Status: status, Message: msg, Err: err}
	if e.Kind == llm.ErrRateLimit || e.Kind == llm.ErrServer {
		e.RetryAfter = RetryAfter(header, time.Now())
	}
	return e
}

// ctxError reports cancellation in one line while matching context errors.
type ctxError struct {
	provider string
	err      error
}

func (e *ctxError) Error() string { return e.provider + ": " + e.err.Error() }
func (e *ctxError) Unwrap() error { return e.err }

// KindOf classifies an HTTP status and the provider's message.
func KindOf(status int, msg string, body []byte) llm.ErrorKind {
	switch {
	case status == 401 || status == 403:
		return llm.ErrAuth
	case status == 429:
		if isContextSize(msg, body) {
			return llm.ErrContextSize
		}
		return llm.ErrRateLimit
	case status == 413:
		return llm.ErrContextSize
	case status == 408 || status >= 500:
		return llm.ErrServer
	case status >= 400:
		if isContextSize(msg, body) {
			return llm.ErrContextSize
		}
		return llm.ErrBadRequest
	}
	return llm.ErrUnknown
}

var contextPhrases = []string{
	"context_length_exceeded",
	"maximum context length",
	"context length",
	"context window",
	"prompt is too long",
	"too many tokens",
	"exceeds the maximum number of tokens",
	"input token count",
	"request too large",
}

func isContextSize(msg string, body []byte) bool {
	s := strings.ToLower(msg + " " + string(body))
	for _, p := range contextPhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// Message extracts the provider's explanation from a JSON error body:
// error.message, message, or a string error field. It returns "" when the
// body holds none, so that raw bodies are never shown.
func Message(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		// Not JSON: an HTML page or SSE-framed data.
		return ""
	}
	return OneLine(find(v, 0))
}

func find(v any, depth int) string {
	if depth > 4 {
		return ""
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if s := find(e, depth+1); s != "" {
				return s
			}
		}
	case map[string]any:
		if e, ok := x["error"]; ok {
			if s, ok := e.(string); ok && s != "" {
				return s
			}
			if s := find(e, depth+1); s != "" {
				return s
			}
		}
		for _, k := range []string{"message", "detail", "error_description"} {
			if s, ok := x[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return ""
}

// OneLine collapses whitespace and bounds s to a readable single line.
func OneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const max = 300
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// RetryAfter reads retry-after-ms or Retry-After (seconds or HTTP date) in
// seconds; 0 when absent. An explicit zero ("retry now") is returned as one
// millisecond so that it stays distinguishable from "absent".
func RetryAfter(h http.Header, now time.Time) float64 {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return ms / 1000
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0
		}
		return max(s, 0.001)
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now).Seconds(); d > 0 {
			return d
		}
	}
	return 0
}

// IsNetwork reports whether err is a transport failure (refused, reset, DNS,
// timeout, truncated stream).
func IsNetwork(err error) bool {
	var ne net.Error
	var ue *url.Error
	var oe *net.OpError
	switch {
	case errors.As(err, &oe), errors.As(err, &ne), errors.As(err, &ue):
		return true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	return false
}

func networkMessage(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		if host := hostOf(err); host != "" {
			return "connection refused by " + host
		}
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed in the middle of the answer"
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return "cannot resolve " + dns.Name
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return OneLine(ue.Err.Error())
	}
	return OneLine(err.Error())
}

func hostOf(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return u.Host
		}
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Addr != nil {
		return oe.Addr.String()
	}
	return ""
}

// ErrTruncated is returned when a stream ends without its final event.
var ErrTruncated = errors.New("the answer stream ended early")

// StreamEnded builds the error for a stream that stopped without finishing.
func StreamEnded(provider string) error {
	return &llm.Error{Kind: llm.ErrNetwork, Provider: provider, Message: "connection closed in the middle of the answer", Err: ErrTruncated}
}
