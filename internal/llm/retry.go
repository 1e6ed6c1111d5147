package llm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// DefaultMaxRetries is how many times a transient failure is retried when the
// configuration does not say.
const DefaultMaxRetries = 4

// Backoff bounds.
const (
	retryBase     = time.Second
	retryCap      = 30 * time.Second
	retryAfterCap = 2 * time.Minute
)

// WithRetry wraps p so that retryable failures (rate limits, server errors,
// network errors) are retried up to maxRetries times with exponential backoff
// and jitter, honouring the server's Retry-After. An attempt is retried only
// when it delivered no event to onEvent (but for retry notes of its own), so
// streamed text is never repeated. A failure that will come again for the
// same request is not retried: a request the server rejects (4xx but 408
// and 429, which Retryable leaves out), a method it does not implement
// (501, 505), and an HTTP 500 whose message repeats that of the attempt
// before it (a local server failing on something in the request, such as
// llama.cpp on tool-call arguments it cannot parse).
// Before each retry an EventRetry event is delivered, for example
// "rate limited; retrying in 2s (attempt 2/5)". sleep waits for d or until
// ctx is done; nil means a real timer. maxRetries <= 0 disables retries.
func WithRetry(p Provider, maxRetries int, sleep func(ctx context.Context, d time.Duration) error) Provider {
	if sleep == nil {
		sleep = sleepCtx
	}
	return &retrying{p: p, max: maxRetries, sleep: sleep}
}

type retrying struct {
	p     Provider
	max   int
	sleep func(ctx context.Context, d time.Duration) error
}

func (r *retrying) Name() string  { return r.p.Name() }
func (r *retrying) Model() string { return r.p.Model() }

// Unwrap returns the wrapped provider.
func (r *retrying) Unwrap() Provider { return r.p }

func (r *retrying) Stream(ctx context.Context, req *Request, onEvent func(Event)) (*Response, error) {
	if onEvent == nil {
		onEvent = func(Event) {}
	}
	var last *Error
	for attempt := 0; ; attempt++ {
		delivered := false
		resp, err := r.p.Stream(ctx, req, func(ev Event) {
			if ev.Type != EventRetry {
				delivered = true
			}
			onEvent(ev)
		})
		if err == nil || delivered || attempt >= r.max || !Retryable(err) || ctx.Err() != nil {
			return resp, err
		}
		var e *Error
		if errors.As(err, &e) && e.Status == 500 && last != nil && last.Status == 500 && last.Message == e.Message {
			return resp, fmt.Errorf("%w (the same error twice: not retried again)", err)
		}
		last = e
		d, ok := retryDelay(err, attempt)
		if !ok {
			var e *Error
			errors.As(err, &e)
			asked := time.Duration(e.RetryAfter * float64(time.Second))
			return resp, fmt.Errorf("%w (the server asked to retry in %s; nb waits at most %s: try again later)", err, formatDelay(asked), formatDelay(retryAfterCap))
		}
		onEvent(Event{
			Type: EventRetry,
			Err:  err,
			Text: fmt.Sprintf("%s; retrying in %s (attempt %d/%d)", retryReason(err), formatDelay(d), attempt+2, r.max+1),
		})
		if serr := r.sleep(ctx, d); serr != nil {
			return nil, fmt.Errorf("%s: %w", r.p.Name(), serr)
		}
	}
}

// retryDelay is the wait before retry number attempt+1; ok is false when the
// server asks for a wait too long to make the user sit through.
func retryDelay(err error, attempt int) (time.Duration, bool) {
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		d := time.Duration(e.RetryAfter * float64(time.Second))
		if d > retryAfterCap {
			return 0, false
		}
		return d, true
	}
	d := retryBase << attempt
	if d > retryCap || d <= 0 {
		d = retryCap
	}
	// Up to 25% jitter either way so that clients spread out.
	jitter := time.Duration((rand.Float64()*0.5 - 0.25) * float64(d))
	return (d + jitter).Round(100 * time.Millisecond), true
}

func retryReason(err error) string {
	var e *Error
	if errors.As(err, &e) {
		switch e.Kind {
		case ErrRateLimit:
			return "rate limited"
		case ErrServer:
			return "server error"
		case ErrNetwork:
			return "network error"
		case ErrTimeout:
			return "timed out"
		}
	}
	return "request failed"
}

func formatDelay(d time.Duration) string {
	if d < time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
