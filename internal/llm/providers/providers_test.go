package providers_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/providers"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestNothingConfigured(t *testing.T) {
	_, err := providers.New(config.Default(), "", "", envOf())
	if !errors.Is(err, providers.ErrNoProvider) {
		t.Fatalf("err = %v, want ErrNoProvider", err)
	}
	for _, want := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "config.json"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message does not mention %s:\n%s", want, err)
		}
	}
}

// TestPartlySetProvider: a provider whose variables are set only in part
// is named in the message, with what it still needs.
func TestPartlySetProvider(t *testing.T) {
	for env, want := range map[string]string{
		"AZURE_OPENAI_API_KEY":  "AZURE_OPENAI_API_KEY is set, but not AZURE_OPENAI_ENDPOINT",
		"AZURE_OPENAI_ENDPOINT": "AZURE_OPENAI_ENDPOINT is set, but not AZURE_OPENAI_API_KEY",
	} {
		_, err := providers.Resolve(config.Default(), "", "", envOf(env, "x"))
		if !errors.Is(err, providers.ErrNoProvider) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "OPENAI_API_KEY=") {
			t.Errorf("%s alone: %v, want ErrNoProvider saying %q and the list", env, err, want)
		}
	}
	err := &providers.NoProviderError{ConfigFile: "/home/me/nb.json"}
	if !errors.Is(err, providers.ErrNoProvider) || !strings.HasSuffix(err.Error(), "\nor add \"providers\" to /home/me/nb.json (see README)") {
		t.Errorf("with a configuration file: %v", err)
	}
	err = &providers.NoProviderError{NoConfigFile: true}
	if !strings.Contains(err.Error(), "--config FILE") {
		t.Errorf("without one: %v", err)
	}
}

// TestNoProviderFitsTheTerminal: the message a newcomer sees first fits an
// 80-column terminal ("nb: " in front of its first line).
func TestNoProviderFitsTheTerminal(t *testing.T) {
	for i, l := range strings.Split(providers.ErrNoProvider.Error(), "\n") {
		if i == 0 {
			l = "nb: " + l
		}
		if n := len([]rune(l)); n > 79 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
}

func TestResolveFromEnv(t *testing.T) {
	tests := []struct {
		name     string
		env      func(string) string
		provider string
		model    string
		want     providers.Spec
	}{
		{"openai", envOf("OPENAI_API_KEY", "sk-1"), "", "",
			providers.Spec{Name: "openai", Type: "openai", Model: "gpt-4.1", APIKey: "sk-1"}},
		{"openai model from env", envOf("OPENAI_API_KEY", "sk-1", "OPENAI_MODEL", "gpt-5"), "", "",
			providers.Spec{Name: "openai", Type: "openai", Model: "gpt-5", APIKey: "sk-1"}},
		{"flag model wins", envOf("OPENAI_API_KEY", "sk-1", "OPENAI_MODEL", "gpt-5"), "", "o3",
			providers.Spec{Name: "openai", Type: "openai", Model: "o3", APIKey: "sk-1"}},
		{"local server without key", envOf("OPENAI_BASE_URL", "http://localhost:11434/v1", "OPENAI_MODEL", "qwen3"), "", "",
			providers.Spec{Name: "openai", Type: "openai-compatible", Model: "qwen3", APIKey: "none", BaseURL: "http://localhost:11434/v1"}},
		{"openai before anthropic", envOf("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"), "", "",
			providers.Spec{Name: "openai", Type: "openai", Model: "gpt-4.1", APIKey: "o"}},
		{"type by name", envOf("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"), "anthropic", "",
			providers.Spec{Name: "anthropic", Type: "anthropic", Model: "claude-sonnet-4-5", APIKey: "a"}},
		{"anthropic base url", envOf("ANTHROPIC_API_KEY", "a", "ANTHROPIC_BASE_URL", "http://proxy", "ANTHROPIC_MODEL", "claude-opus-4-1"), "", "",
			providers.Spec{Name: "anthropic", Type: "anthropic", Model: "claude-opus-4-1", APIKey: "a", BaseURL: "http://proxy"}},
		{"gemini", envOf("GEMINI_API_KEY", "g"), "", "",
			providers.Spec{Name: "gemini", Type: "gemini", Model: "gemini-2.5-flash", APIKey: "g"}},
		{"google key", envOf("GOOGLE_API_KEY", "g2"), "", "",
			providers.Spec{Name: "gemini", Type: "gemini", Model: "gemini-2.5-flash", APIKey: "g2"}},
		{"gemini key first", envOf("GOOGLE_API_KEY", "g2", "GEMINI_API_KEY", "g1"), "", "",
			providers.Spec{Name: "gemini", Type: "gemini", Model: "gemini-2.5-flash", APIKey: "g1"}},
		{"gemini base url and model", envOf("GEMINI_API_KEY", "g", "GEMINI_BASE_URL", "http://proxy/v1beta/openai/", "GEMINI_MODEL", "gemini-2.5-pro"), "", "",
			providers.Spec{Name: "gemini", Type: "gemini", Model: "gemini-2.5-pro", APIKey: "g", BaseURL: "http://proxy/v1beta/openai/"}},
		{"azure", envOf("AZURE_OPENAI_API_KEY", "z", "AZURE_OPENAI_ENDPOINT", "https://x.openai.azure.com", "AZURE_OPENAI_DEPLOYMENT", "dep", "OPENAI_API_VERSION", "2025-01-01-preview"), "", "",
			providers.Spec{Name: "azure", Type: "azure", Model: "dep", APIKey: "z", BaseURL: "https://x.openai.azure.com", APIVersion: "2025-01-01-preview"}},
	}
	t.Run("openai organization and project", func(t *testing.T) {
		got, err := providers.Resolve(config.Default(), "", "", envOf("OPENAI_API_KEY", "k", "OPENAI_ORG_ID", "org-1", "OPENAI_PROJECT_ID", "proj_2"))
		if err != nil || got.Headers["OpenAI-Organization"] != "org-1" || got.Headers["OpenAI-Project"] != "proj_2" {
			t.Errorf("headers %v, %v", got.Headers, err)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := providers.Resolve(config.Default(), tt.provider, tt.model, tt.env)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Source = "env"
			tt.want.MaxRetries = llm.DefaultMaxRetries
			if got.Name != tt.want.Name || got.Type != tt.want.Type || got.Model != tt.want.Model || got.APIKey != tt.want.APIKey ||
				got.BaseURL != tt.want.BaseURL || got.APIVersion != tt.want.APIVersion || got.Source != tt.want.Source || got.MaxRetries != tt.want.MaxRetries {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func testConfig() *config.Config {
	cfg := config.Default()
	cfg.Providers = map[string]config.Provider{
		"work":  {Type: "azure", Endpoint: "https://work.openai.azure.com", Model: "gpt4o-prod", APIKeyEnv: "WORK_KEY", MaxRetries: 2},
		"local": {Type: "openai-compatible", BaseURL: "http://localhost:8080/v1", Model: "qwen"},
		"claude": {Type: "anthropic", Model: "claude-opus-4-1", APIKey: "inline",
			Headers: map[string]string{"X-Team": "ops"}, MaxTokens: 4000},
	}
	return cfg
}

func TestResolveFromConfig(t *testing.T) {
	cfg := testConfig()
	env := envOf("WORK_KEY", "wk", "OPENAI_API_KEY", "sk-env")

	s, err := providers.Resolve(cfg, "work", "", env)
	if err != nil {
		t.Fatal(err)
	}
	if s.Type != "azure" || s.APIKey != "wk" || s.BaseURL != "https://work.openai.azure.com" || s.Model != "gpt4o-prod" || s.MaxRetries != 2 || s.Source != "config" {
		t.Errorf("work = %+v", s)
	}

	s, err = providers.Resolve(cfg, "local", "", env)
	if err != nil || s.APIKey != "none" || s.Type != "openai-compatible" {
		t.Errorf("local = %+v, %v", s, err)
	}

	s, err = providers.Resolve(cfg, "claude", "claude-haiku-4-5", env)
	if err != nil || s.APIKey != "inline" || s.Model != "claude-haiku-4-5" || s.MaxTokens != 4000 || s.Headers["X-Team"] != "ops" {
		t.Errorf("claude = %+v, %v", s, err)
	}

	// activeProvider beats the environment.
	cfg.ActiveProvider = "claude"
	if s, err := providers.Resolve(cfg, "", "", env); err != nil || s.Name != "claude" {
		t.Errorf("active = %+v, %v", s, err)
	}
	// An explicit name beats activeProvider.
	if s, err := providers.Resolve(cfg, "openai", "", env); err != nil || s.Name != "openai" || s.Source != "env" {
		t.Errorf("explicit type = %+v, %v", s, err)
	}
	// A type with no environment falls back to a configured provider of it.
	if s, err := providers.Resolve(cfg, "azure", "", env); err != nil || s.Name != "work" {
		t.Errorf("azure type = %+v, %v", s, err)
	}
}

func TestResolveErrors(t *testing.T) {
	cfg := testConfig()
	_, err := providers.Resolve(cfg, "nope", "", envOf("OPENAI_API_KEY", "k"))
	if err == nil || !strings.Contains(err.Error(), "claude, local, work, openai") {
		t.Errorf("unknown provider error = %v", err)
	}
	_, err = providers.Resolve(cfg, "work", "", envOf())
	if err == nil || !strings.Contains(err.Error(), "WORK_KEY") {
		t.Errorf("missing apiKeyEnv error = %v", err)
	}
	_, err = providers.Resolve(config.Default(), "gemini", "", envOf())
	if err == nil || !strings.Contains(err.Error(), "GEMINI_API_KEY") {
		t.Errorf("unconfigured type error = %v", err)
	}
	cfg = config.Default()
	cfg.Providers = map[string]config.Provider{"o": {Type: "openai"}}
	_, err = providers.Resolve(cfg, "o", "", envOf())
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("missing key error = %v", err)
	}
}

func TestAvailable(t *testing.T) {
	cfg := testConfig()
	cfg.ActiveProvider = "local"
	got := providers.Available(cfg, envOf("WORK_KEY", "wk", "ANTHROPIC_API_KEY", "a", "GEMINI_API_KEY", "g"))
	var lines []string
	for _, e := range got {
		lines = append(lines, strings.Join([]string{e.Name, e.Type, e.Model, e.Source, map[bool]string{true: "*"}[e.Active]}, " "))
	}
	want := []string{
		"claude anthropic claude-opus-4-1 config ",
		"local openai-compatible qwen config *",
		"work azure gpt4o-prod config ",
		"anthropic anthropic claude-sonnet-4-5 env ",
		"gemini gemini gemini-2.5-flash env ",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("Available:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	cfg.ActiveProvider = ""
	for _, e := range providers.Available(cfg, envOf("ANTHROPIC_API_KEY", "a")) {
		if e.Active != (e.Name == "anthropic") {
			t.Errorf("entry %+v active=%v", e, e.Active)
		}
	}
}

// TestBuildTalksToServer drives each type, built from the environment as
// users configure it, against the fake server of its wire format.
func TestBuildTalksToServer(t *testing.T) {
	cases := append(faultCases[:len(faultCases):len(faultCases)], faultCase{
		"azure", llmtest.NewOpenAI, func(u string) func(string) string {
			return envOf("AZURE_OPENAI_API_KEY", "k", "AZURE_OPENAI_ENDPOINT", strings.TrimSuffix(u, "/v1"), "AZURE_OPENAI_DEPLOYMENT", "m1")
		}})
	for _, c := range cases {
		t.Run(c.typ, func(t *testing.T) {
			s := c.newServer(t,
				llmtest.Turn{Status: 503, Message: "overloaded"},
				llmtest.Turn{Text: "hello from " + c.typ, Expect: llmtest.Expect{Model: "m1", LastUser: "hi"}},
			)
			spec, err := providers.Resolve(config.Default(), "", "", c.env(s.URL()))
			if err != nil {
				t.Fatal(err)
			}
			if spec.Type != c.typ {
				t.Fatalf("resolved type %q", spec.Type)
			}
			spec.HTTPClient = llmtest.TestClient(t)
			spec.Sleep = func(ctx context.Context, d time.Duration) error { return ctx.Err() }
			p, err := providers.Build(spec)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var retried []string
			resp, err := p.Stream(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, func(ev llm.Event) {
				if ev.Type == llm.EventRetry {
					retried = append(retried, ev.Text)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Text != "hello from "+c.typ {
				t.Errorf("answer %q", resp.Message.Text)
			}
			if len(retried) != 1 || !strings.HasPrefix(retried[0], "server error; retrying in ") {
				t.Errorf("retry events %q", retried)
			}
		})
	}
}

// BenchmarkNew measures building a provider at start-up (no network I/O).
func BenchmarkNew(b *testing.B) {
	for _, env := range []func(string) string{
		envOf("OPENAI_API_KEY", "k"),
		envOf("ANTHROPIC_API_KEY", "k"),
		envOf("GEMINI_API_KEY", "k"),
		envOf("AZURE_OPENAI_API_KEY", "k", "AZURE_OPENAI_ENDPOINT", "https://x.openai.azure.com"),
	} {
		spec, err := providers.Resolve(config.Default(), "", "", env)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(spec.Type, func(b *testing.B) {
			for b.Loop() {
				if _, err := providers.New(config.Default(), "", "", env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGeminiConformance runs the provider suite for the gemini type, built
// as users configure it, against the fake of Gemini's OpenAI-compatible
// endpoint (which checks that thought signatures come back).
func TestGeminiConformance(t *testing.T) {
	llmtest.RunProviderSuite(t, llmtest.NewGemini, func(t testing.TB, s *llmtest.Server, c *http.Client) llm.Provider {
		spec, err := providers.Resolve(config.Default(), "", "", envOf("GEMINI_API_KEY", "gm-test", "GEMINI_BASE_URL", s.URL()))
		if err != nil {
			t.Fatal(err)
		}
		spec.MaxRetries = 0 // the suite sees every failure itself
		spec.HTTPClient = c
		p, err := providers.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}, llmtest.SuiteOptions{Model: "gemini-2.5-flash"})
}

// recordingTransport records requests and fails them without network I/O.
type recordingTransport struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	rt.reqs = append(rt.reqs, r)
	rt.mu.Unlock()
	return nil, errors.New("offline")
}

func TestGeminiDefaults(t *testing.T) {
	rt := &recordingTransport{}
	spec, err := providers.Resolve(config.Default(), "", "", envOf("GOOGLE_API_KEY", "AIza-test"))
	if err != nil {
		t.Fatal(err)
	}
	spec.MaxRetries = 0
	spec.HTTPClient = &http.Client{Transport: rt}
	p, err := providers.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "gemini" || p.Model() != "gemini-2.5-flash" {
		t.Errorf("provider %s/%s", p.Name(), p.Model())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = p.Stream(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}, nil)
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.ErrNetwork {
		t.Errorf("error %v, want a network error", err)
	}
	if len(rt.reqs) != 1 {
		t.Fatalf("%d requests", len(rt.reqs))
	}
	r := rt.reqs[0]
	if got, want := r.URL.String(), providers.GeminiBaseURL+"chat/completions"; got != want {
		t.Errorf("request to %s, want %s", got, want)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer AIza-test" {
		t.Errorf("Authorization %q", got)
	}
}
