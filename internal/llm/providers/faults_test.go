package providers_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/providers"
)

// faultCase is a provider type with the fake server of its wire and the
// environment that configures it.
type faultCase struct {
	typ       string
	newServer llmtest.NewServerFunc
	env       func(url string) func(string) string
}

// faultCases are the provider types with a fake server of their own wire
// (Azure shares OpenAI's).
var faultCases = []faultCase{
	{"openai-compatible", llmtest.NewOpenAI, func(u string) func(string) string { return envOf("OPENAI_BASE_URL", u, "OPENAI_MODEL", "m1") }},
	{"anthropic", llmtest.NewAnthropic, func(u string) func(string) string {
		return envOf("ANTHROPIC_API_KEY", "k", "ANTHROPIC_BASE_URL", u, "ANTHROPIC_MODEL", "m1")
	}},
	{"gemini", llmtest.NewGemini, func(u string) func(string) string {
		return envOf("GEMINI_API_KEY", "k", "GEMINI_BASE_URL", u, "GEMINI_MODEL", "m1")
	}},
}

// faultProvider builds the provider for server s with short timeouts and
// instant retries, and returns it with the retry events it will record.
func faultProvider(t *testing.T, env func(string) string, retries int) (llm.Provider, *[]string) {
	t.Helper()
	spec, err := providers.Resolve(config.Default(), "", "", env)
	if err != nil {
		t.Fatal(err)
	}
	spec.HTTPClient = llmtest.TestClient(t)
	spec.MaxRetries = retries
	spec.Timeouts = llm.Timeouts{Connect: time.Second, FirstByte: 300 * time.Millisecond, Idle: 300 * time.Millisecond}
	spec.Sleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
	p, err := providers.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p, new([]string)
}

func stream(t *testing.T, p llm.Provider, retried *[]string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var text strings.Builder
	_, err := p.Stream(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, func(ev llm.Event) {
		switch ev.Type {
		case llm.EventRetry:
			*retried = append(*retried, ev.Text)
		case llm.EventText:
			text.WriteString(ev.Text)
		}
	})
	if ctx.Err() != nil {
		t.Fatalf("the request was not bounded by the provider's timeouts: %v", err)
	}
	return text.String(), err
}

// TestServerThatNeverAnswers: a server that accepts the request and says
// nothing fails each attempt after the first-byte timeout; the failures
// are retried and end in one readable line.
func TestServerThatNeverAnswers(t *testing.T) {
	for _, c := range faultCases {
		t.Run(c.typ, func(t *testing.T) {
			s := c.newServer(t, llmtest.Turn{Silent: true}, llmtest.Turn{Silent: true})
			p, retried := faultProvider(t, c.env(s.URL()), 1)
			_, err := stream(t, p, retried)
			var le *llm.Error
			if !errors.As(err, &le) || le.Kind != llm.ErrTimeout {
				t.Fatalf("error %v (%T), want a timeout", err, err)
			}
			if msg := err.Error(); !strings.Contains(msg, "no answer within 300ms (firstByteTimeout)") || strings.Contains(msg, "\n") {
				t.Errorf("message %q", msg)
			}
			if len(*retried) != 1 {
				t.Errorf("retries %q, want one", *retried)
			}
		})
	}
}

// TestStreamStalls: a stream that stops mid-answer fails after the idle
// timeout, keeping what was streamed; it is not retried (text was shown).
func TestStreamStalls(t *testing.T) {
	for _, c := range faultCases {
		t.Run(c.typ, func(t *testing.T) {
			s := c.newServer(t, llmtest.Turn{Chunks: []string{"Hel", "lo"}, Hang: true})
			p, retried := faultProvider(t, c.env(s.URL()), 3)
			text, err := stream(t, p, retried)
			if err == nil || !strings.Contains(err.Error(), "the answer stalled: no data for 300ms (idleTimeout)") {
				t.Fatalf("error %v", err)
			}
			if text != "Hello" || len(*retried) != 0 {
				t.Errorf("text %q, retries %q", text, *retried)
			}
		})
	}
}

// TestHTMLAnswer: a web page served with 200 at the base URL is named as
// such and not retried.
func TestHTMLAnswer(t *testing.T) {
	for _, c := range faultCases {
		t.Run(c.typ, func(t *testing.T) {
			s := c.newServer(t, llmtest.Turn{HTML: "<!doctype html><html><body>Welcome to nginx!</body></html>"})
			p, retried := faultProvider(t, c.env(s.URL()), 3)
			_, err := stream(t, p, retried)
			var le *llm.Error
			if !errors.As(err, &le) || le.Kind != llm.ErrNotAPI {
				t.Fatalf("error %v (%T), want ErrNotAPI", err, err)
			}
			if msg := err.Error(); !strings.Contains(msg, "answered with an HTML page, not the model API (HTTP 200); check the base URL") {
				t.Errorf("message %q", msg)
			}
			if len(*retried) != 0 {
				t.Errorf("retried %q", *retried)
			}
		})
	}
}

// TestTimeoutsFromConfigAndEnv: per-provider settings win over the
// environment, which wins over the defaults.
func TestTimeoutsFromConfigAndEnv(t *testing.T) {
	cfg := config.Default()
	cfg.Providers = map[string]config.Provider{"local": {Type: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1", IdleTimeout: 7}}
	spec, err := providers.Resolve(cfg, "local", "", envOf("NB_IDLE_TIMEOUT", "9", "NB_FIRST_BYTE_TIMEOUT", "600"))
	if err != nil {
		t.Fatal(err)
	}
	if spec.Timeouts.Idle != 7*time.Second || spec.Timeouts.FirstByte != 10*time.Minute || spec.Timeouts.Connect != 0 {
		t.Fatalf("timeouts %+v", spec.Timeouts)
	}
	if d := spec.Timeouts.WithDefaults(); d.Connect != llm.DefaultConnectTimeout {
		t.Fatalf("defaults %+v", d)
	}
}
