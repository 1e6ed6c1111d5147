package llm

import (
	"errors"
	"fmt"
)

// ErrorKind classifies provider failures so that callers can decide whether
// to retry and how to explain the failure in one line.
type ErrorKind int

const (
	ErrUnknown     ErrorKind = iota
	ErrAuth                  // 401/403: bad or missing key
	ErrRateLimit             // 429
	ErrServer                // 5xx, overloaded
	ErrNetwork               // connection refused, DNS, reset, timeout
	ErrBadRequest            // 400/404/422: the request or model name is wrong
	ErrContextSize           // the conversation is too long for the model
	ErrNotAPI                // the server answered, but not as a model API (an HTML page)
	ErrTimeout               // no answer, or a stalled stream, within the configured time
)

// Error is a provider failure. Its Error() text is a single readable line.
type Error struct {
	Kind     ErrorKind
	Provider string
	Status   int    // HTTP status, 0 when none
	Message  string // the provider's own explanation, one line
	// RetryAfter is the server's requested delay in seconds, 0 when unknown.
	RetryAfter float64
	Err        error
}

func (e *Error) Error() string {
	var what string
	switch e.Kind {
	case ErrAuth:
		what = "authentication failed (check the API key)"
	case ErrRateLimit:
		what = "rate limited"
	case ErrServer:
		what = "server error"
	case ErrNetwork:
		what = "cannot reach the provider"
	case ErrBadRequest:
		what = "request rejected"
	case ErrContextSize:
		what = "conversation too long for the model (try /clear)"
	case ErrNotAPI:
		what = "not a model API"
	case ErrTimeout:
		what = "timed out"
	default:
		what = "request failed"
	}
	s := e.Provider + ": " + what
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether err is worth retrying after a delay.
func Retryable(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	if e.Status == 501 || e.Status == 505 {
		return false // not implemented: it never will be for this request
	}
	return e.Kind == ErrRateLimit || e.Kind == ErrServer || e.Kind == ErrNetwork || e.Kind == ErrTimeout
}
