// Package transport is the HTTP client every model provider uses: it bounds
// how long connecting, waiting for the first byte of an answer and waiting
// between the chunks of a streamed answer may take, and it refuses answers
// that are not an API's (a web page served at a wrong base URL). Its
// failures are *llm.Error values with one readable line: timeouts are
// llm.ErrTimeout errors (retried with backoff), a non-API answer is not retried.
package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// Client returns an HTTP client for provider's requests with timeouts t.
// base supplies the underlying transport (nil: a copy of
// http.DefaultTransport whose connections time out after t.Connect).
func Client(provider string, base *http.Client, t llm.Timeouts) *http.Client {
	t = t.WithDefaults()
	var rt http.RoundTripper
	if base != nil && base.Transport != nil {
		rt = base.Transport
	} else {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		d := &net.Dialer{Timeout: t.Connect, KeepAlive: 30 * time.Second}
		tr.DialContext = d.DialContext
		tr.TLSHandshakeTimeout = t.Connect
		rt = tr
	}
	c := &http.Client{Transport: &transport{provider: provider, next: rt, t: t}}
	if base != nil {
		c.CheckRedirect = base.CheckRedirect
		c.Jar = base.Jar
	}
	return c
}

type transport struct {
	provider string
	next     http.RoundTripper
	t        llm.Timeouts
}

// timeout is the cause given to a request's context when one of the
// timeouts fires.
type timeout struct{ msg string }

func (e *timeout) Error() string   { return e.msg }
func (e *timeout) Timeout() bool   { return true }
func (e *timeout) Temporary() bool { return true }

func (tr *transport) fail(kind llm.ErrorKind, msg string, err error) error {
	return &llm.Error{Kind: kind, Provider: tr.provider, Message: msg, Err: err}
}

// RoundTrip implements http.RoundTripper.
func (tr *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	firstByte := &timeout{fmt.Sprintf("no answer within %s (firstByteTimeout)", seconds(tr.t.FirstByte))}
	timer := time.AfterFunc(tr.t.FirstByte, func() { cancel(firstByte) })
	resp, err := tr.next.RoundTrip(req.WithContext(ctx))
	timer.Stop()
	if err != nil {
		cause := context.Cause(ctx)
		cancel(nil)
		var to *timeout
		if errors.As(cause, &to) {
			return nil, tr.fail(llm.ErrTimeout, to.msg, to)
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && req.Context().Err() == nil {
			return nil, tr.fail(llm.ErrTimeout, fmt.Sprintf("could not connect within %s (connectTimeout)", seconds(tr.t.Connect)), err)
		}
		return nil, err
	}
	if what := notAPI(resp); what != "" {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		cancel(nil)
		msg := fmt.Sprintf("%s answered with %s, not the model API (HTTP %d); check the base URL", req.URL.Host, what, resp.StatusCode)
		return nil, tr.fail(llm.ErrNotAPI, msg, nil)
	}
	resp.Body = newIdleBody(resp.Body, tr.t.Idle, ctx, cancel, tr)
	return resp, nil
}

// notAPI describes a successful answer that no model API gives: an HTML
// page, or a content type that is neither JSON nor an event stream. It
// returns "" for an API's answer (or one without a content type).
func notAPI(resp *http.Response) string {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return ""
	}
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return "content of type " + ct
	}
	switch {
	case mt == "text/event-stream", mt == "application/json", strings.HasSuffix(mt, "+json"),
		mt == "application/x-ndjson", mt == "application/jsonl":
		return ""
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "an HTML page"
	}
	return "content of type " + mt
}

// idleBody fails a read that waits longer than idle for data.
type idleBody struct {
	rc     io.ReadCloser
	idle   time.Duration
	ctx    context.Context
	cancel context.CancelCauseFunc
	tr     *transport
	cause  *timeout

	mu    sync.Mutex
	timer *time.Timer
}

func newIdleBody(rc io.ReadCloser, idle time.Duration, ctx context.Context, cancel context.CancelCauseFunc, tr *transport) *idleBody {
	b := &idleBody{rc: rc, idle: idle, ctx: ctx, cancel: cancel, tr: tr,
		cause: &timeout{fmt.Sprintf("the answer stalled: no data for %s (idleTimeout)", seconds(idle))}}
	b.timer = time.AfterFunc(idle, func() {
		b.cancel(b.cause)
		// Closing the body wakes a read blocked in the transport.
		_ = b.rc.Close()
	})
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.mu.Lock()
		b.timer.Reset(b.idle)
		b.mu.Unlock()
	}
	if err != nil && err != io.EOF {
		if cause := context.Cause(b.ctx); cause == b.cause {
			return n, b.tr.fail(llm.ErrTimeout, b.cause.msg, b.cause)
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.mu.Lock()
	b.timer.Stop()
	b.mu.Unlock()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}

// seconds formats d for a message: 300ms, 30s, 5m, 1m30s.
func seconds(d time.Duration) string {
	if d < time.Second {
		return d.String()
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}
