package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

// scripted is a provider returning one scripted outcome per call.
type scripted struct {
	calls    int
	outcomes []outcome
}

type outcome struct {
	events []llm.Event
	err    error
}

func (s *scripted) Name() string  { return "fake" }
func (s *scripted) Model() string { return "m" }
func (s *scripted) Stream(ctx context.Context, req *llm.Request, on func(llm.Event)) (*llm.Response, error) {
	o := s.outcomes[s.calls]
	s.calls++
	for _, e := range o.events {
		on(e)
	}
	if o.err != nil {
		return nil, o.err
	}
	return &llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: "ok"}}, nil
}

func rateLimit(after float64) error {
	return &llm.Error{Kind: llm.ErrRateLimit, Provider: "fake", Status: 429, RetryAfter: after}
}

func run(t *testing.T, p *scripted, max int) ([]llm.Event, []time.Duration, error) {
	t.Helper()
	var slept []time.Duration
	r := llm.WithRetry(p, max, func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return nil
	})
	var events []llm.Event
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := r.Stream(ctx, &llm.Request{}, func(e llm.Event) { events = append(events, e) })
	return events, slept, err
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	p := &scripted{outcomes: []outcome{{err: rateLimit(2)}, {err: rateLimit(7)}, {}}}
	events, slept, err := run(t, p, 4)
	if err != nil {
		t.Fatal(err)
	}
	if p.calls != 3 {
		t.Errorf("calls = %d", p.calls)
	}
	if len(slept) != 2 || slept[0] != 2*time.Second || slept[1] != 7*time.Second {
		t.Errorf("slept %v", slept)
	}
	want := []string{"rate limited; retrying in 2s (attempt 2/5)", "rate limited; retrying in 7s (attempt 3/5)"}
	if len(events) != 2 || events[0].Text != want[0] || events[1].Text != want[1] || events[0].Type != llm.EventRetry {
		t.Errorf("events %+v", events)
	}
	if !errors.Is(events[0].Err, events[0].Err) || events[0].Err == nil {
		t.Error("retry event lacks its error")
	}
}

func TestRetryBackoffGrowsWithJitter(t *testing.T) {
	srv := &llm.Error{Kind: llm.ErrServer, Provider: "fake", Status: 503}
	p := &scripted{outcomes: []outcome{{err: srv}, {err: srv}, {err: srv}, {err: srv}, {err: srv}}}
	events, slept, err := run(t, p, 4)
	if !errors.Is(err, srv) {
		t.Fatalf("err = %v, want the last failure", err)
	}
	if p.calls != 5 || len(slept) != 4 || len(events) != 4 {
		t.Fatalf("calls %d, slept %v, events %d", p.calls, slept, len(events))
	}
	for i, d := range slept {
		base := time.Second << i
		if d < base*3/4-100*time.Millisecond || d > base*5/4+100*time.Millisecond {
			t.Errorf("retry %d waited %v, want about %v", i+1, d, base)
		}
	}
	if !strings.HasPrefix(events[3].Text, "server error; retrying in") || !strings.HasSuffix(events[3].Text, "(attempt 5/5)") {
		t.Errorf("last event %q", events[3].Text)
	}
}

func TestNoRetryAfterOutput(t *testing.T) {
	p := &scripted{outcomes: []outcome{{events: []llm.Event{{Type: llm.EventText, Text: "Hel"}}, err: &llm.Error{Kind: llm.ErrNetwork, Provider: "fake"}}, {}}}
	events, slept, err := run(t, p, 4)
	if err == nil || p.calls != 1 || len(slept) != 0 {
		t.Fatalf("err %v, calls %d, slept %v: a stream that delivered text must not be retried", err, p.calls, slept)
	}
	if len(events) != 1 {
		t.Errorf("events %+v", events)
	}
}

func TestNoRetryForPermanentErrors(t *testing.T) {
	for _, err := range []error{
		&llm.Error{Kind: llm.ErrAuth, Provider: "fake", Status: 401},
		&llm.Error{Kind: llm.ErrBadRequest, Provider: "fake", Status: 400},
		&llm.Error{Kind: llm.ErrContextSize, Provider: "fake", Status: 400},
		context.Canceled,
		errors.New("plain"),
	} {
		p := &scripted{outcomes: []outcome{{err: err}, {}}}
		_, _, got := run(t, p, 4)
		if got != err || p.calls != 1 {
			t.Errorf("%v: retried (calls %d, err %v)", err, p.calls, got)
		}
	}
}

func TestRetryGivesUpOnLongRetryAfter(t *testing.T) {
	p := &scripted{outcomes: []outcome{{err: rateLimit(3600)}, {}}}
	_, slept, err := run(t, p, 4)
	if err == nil || len(slept) != 0 {
		t.Errorf("err %v slept %v: an hour-long Retry-After must be reported, not waited", err, slept)
	}
	// The error says what the server asked and how long nb waits.
	if err == nil || !strings.Contains(err.Error(), "rate limited (HTTP 429)") || !strings.Contains(err.Error(), "the server asked to retry in 1h0m0s; nb waits at most 2m0s") {
		t.Errorf("err = %v", err)
	}
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.ErrRateLimit {
		t.Errorf("the provider's error is not kept: %v", err)
	}
}

func TestRetryDisabled(t *testing.T) {
	p := &scripted{outcomes: []outcome{{err: rateLimit(1)}, {}}}
	_, _, err := run(t, p, 0)
	if err == nil || p.calls != 1 {
		t.Errorf("maxRetries 0 retried: calls %d", p.calls)
	}
}

func TestRetrySleepCancelled(t *testing.T) {
	p := &scripted{outcomes: []outcome{{err: rateLimit(1)}, {}}}
	r := llm.WithRetry(p, 4, nil)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := r.Stream(ctx, &llm.Request{}, func(e llm.Event) {
		if e.Type == llm.EventRetry {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || p.calls != 1 {
		t.Errorf("err %v, calls %d", err, p.calls)
	}
}

func TestErrorIsOneLine(t *testing.T) {
	e := &llm.Error{Kind: llm.ErrRateLimit, Provider: "openai", Status: 429, Message: "slow down"}
	if got, want := e.Error(), "openai: rate limited (HTTP 429): slow down"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestNoRetryOfWhatFailsAgain: an HTTP 500 repeating the message of the
// attempt before it is not retried again, nor a 501; 500s that differ,
// and overloaded servers (503), are.
func TestNoRetryOfWhatFailsAgain(t *testing.T) {
	parse := &llm.Error{Kind: llm.ErrServer, Provider: "fake", Status: 500, Message: "Failed to parse tool call arguments as JSON"}
	p := &scripted{outcomes: []outcome{{err: parse}, {err: parse}, {}}}
	_, slept, err := run(t, p, 4)
	if !errors.Is(err, parse) || p.calls != 2 || len(slept) != 1 || !strings.Contains(err.Error(), "not retried again") {
		t.Errorf("repeated 500: calls %d, slept %v, err %v", p.calls, slept, err)
	}
	other := &llm.Error{Kind: llm.ErrServer, Provider: "fake", Status: 500, Message: "worker 3 died"}
	p = &scripted{outcomes: []outcome{{err: parse}, {err: other}, {}}}
	if _, _, err := run(t, p, 4); err != nil || p.calls != 3 {
		t.Errorf("differing 500s: calls %d, err %v", p.calls, err)
	}
	busy := &llm.Error{Kind: llm.ErrServer, Provider: "fake", Status: 503, Message: "overloaded"}
	p = &scripted{outcomes: []outcome{{err: busy}, {err: busy}, {err: busy}, {}}}
	if _, _, err := run(t, p, 4); err != nil || p.calls != 4 {
		t.Errorf("503s: calls %d, err %v", p.calls, err)
	}
	for _, status := range []int{400, 404, 422, 501} {
		kind := llm.ErrBadRequest
		if status >= 500 {
			kind = llm.ErrServer
		}
		p = &scripted{outcomes: []outcome{{err: &llm.Error{Kind: kind, Provider: "fake", Status: status}}, {}}}
		if _, _, err := run(t, p, 4); err == nil || p.calls != 1 {
			t.Errorf("HTTP %d: calls %d, err %v", status, p.calls, err)
		}
	}
}

// TestRetryNotesAreNotOutput: a provider's own retry note does not count
// as delivered output: the attempt may still be retried.
func TestRetryNotesAreNotOutput(t *testing.T) {
	note := llm.Event{Type: llm.EventRetry, Text: "switched to alternating roles"}
	p := &scripted{outcomes: []outcome{{events: []llm.Event{note}, err: rateLimit(1)}, {}}}
	if _, _, err := run(t, p, 4); err != nil || p.calls != 2 {
		t.Errorf("calls %d, err %v", p.calls, err)
	}
}
