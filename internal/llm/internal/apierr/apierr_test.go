package apierr

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

func TestMessage(t *testing.T) {
	tests := map[string]string{
		`{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}`:          "Incorrect API key",
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`:       "Overloaded",
		`[{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}]`: "Quota exceeded",
		`{"error":"model not found"}`:               "model not found",
		`{"detail":"Not Found"}`:                    "Not Found",
		`{"message":"line one\n  line two"}`:        "line one line two",
		`<html><body>502 Bad Gateway</body></html>`: "",
		``:            "",
		`{"ok":true}`: "",
	}
	for in, want := range tests {
		if got := Message([]byte(in)); got != want {
			t.Errorf("Message(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestOneLineBounds(t *testing.T) {
	s := OneLine(strings.Repeat("é", 400))
	if len(s) > 310 || !strings.HasSuffix(s, "…") || strings.ContainsRune(s, '\uFFFD') {
		t.Errorf("OneLine long = %q (%d bytes)", s, len(s))
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	h := http.Header{}
	if RetryAfter(h, now) != 0 {
		t.Error("empty header")
	}
	h.Set("Retry-After", "0")
	if got := RetryAfter(h, now); got <= 0 || got > 0.01 {
		t.Errorf("explicit zero = %v", got)
	}
	h.Set("Retry-After", "12")
	if got := RetryAfter(h, now); got != 12 {
		t.Errorf("seconds = %v", got)
	}
	h.Set("Retry-After", now.Add(30*time.Second).Format(http.TimeFormat))
	if got := RetryAfter(h, now); got != 30 {
		t.Errorf("date = %v", got)
	}
	h.Set("Retry-After-Ms", "1500")
	if got := RetryAfter(h, now); got != 1.5 {
		t.Errorf("ms = %v", got)
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		status int
		msg    string
		want   llm.ErrorKind
	}{
		{401, "", llm.ErrAuth}, {403, "", llm.ErrAuth}, {429, "", llm.ErrRateLimit},
		{500, "", llm.ErrServer}, {529, "", llm.ErrServer}, {503, "", llm.ErrServer},
		{400, "", llm.ErrBadRequest}, {404, "", llm.ErrBadRequest}, {422, "", llm.ErrBadRequest},
		{400, "This model's maximum context length is 8192 tokens", llm.ErrContextSize},
		{400, "prompt is too long: 250000 tokens > 200000 maximum", llm.ErrContextSize},
		{400, "The input token count (1500000) exceeds the maximum number of tokens allowed (1048576).", llm.ErrContextSize},
		{413, "", llm.ErrContextSize},
	}
	for _, tt := range tests {
		if got := KindOf(tt.status, tt.msg, nil); got != tt.want {
			t.Errorf("KindOf(%d, %q) = %d, want %d", tt.status, tt.msg, got, tt.want)
		}
	}
}

func TestClassifyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Classify(ctx, "p", errors.New("read: use of closed connection"), nil, 0, "")
	if !errors.Is(err, context.Canceled) || err.Error() != "p: context canceled" {
		t.Errorf("err = %v", err)
	}
}
