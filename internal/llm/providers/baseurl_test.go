package providers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/providers"
)

// TestBaseURLWithoutScheme: a base URL that is not an http:// or https://
// URL is refused before any request, naming where it is set and showing
// one that is.
func TestBaseURLWithoutScheme(t *testing.T) {
	cases := []struct {
		cfg  *config.Config
		env  []string
		want string
	}{
		{nil, []string{"OPENAI_BASE_URL", "localhost:11434/v1"}, `provider "openai": OPENAI_BASE_URL "localhost:11434/v1" is not an http:// or https:// URL (e.g. http://localhost:11434/v1)`},
		{nil, []string{"OPENAI_BASE_URL", "127.0.0.1:8080/v1"}, `OPENAI_BASE_URL "127.0.0.1:8080/v1" is not an http:// or https:// URL`},
		{nil, []string{"AZURE_OPENAI_API_KEY", "k", "AZURE_OPENAI_ENDPOINT", "x.openai.azure.com"}, `AZURE_OPENAI_ENDPOINT "x.openai.azure.com" is not an http:// or https:// URL (e.g. https://NAME.openai.azure.com)`},
		{&config.Config{Providers: map[string]config.Provider{"box": {Type: "openai-compatible", BaseURL: "box:8000"}}}, nil, `provider "box": providers.box.baseUrl "box:8000" is not an http:// or https:// URL`},
	}
	for _, c := range cases {
		cfg := c.cfg
		if cfg == nil {
			cfg = config.Default()
		}
		if _, err := providers.Resolve(cfg, "", "", envOf(c.env...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.env, err, c.want)
		}
	}
	if _, err := providers.Resolve(config.Default(), "", "", envOf("OPENAI_BASE_URL", "http://localhost:11434/v1")); err != nil {
		t.Errorf("a good base URL: %v", err)
	}
}

// TestBaseURLWithoutV1: a server whose base URL has no path and that
// answers 404 (Ollama's http://localhost:11434) is told to be reached
// under /v1, not to have an unknown model.
func TestBaseURLWithoutV1(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 page not found", http.StatusNotFound)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	spec, err := providers.Resolve(config.Default(), "", "", envOf("OPENAI_BASE_URL", srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	spec.HTTPClient = llmtest.TestClient(t)
	want := "the server at " + srv.URL + " has no /models (HTTP 404): OpenAI-compatible servers answer under /v1: set OPENAI_BASE_URL=" + srv.URL + "/v1"
	if _, err := providers.Discover(ctx, spec); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Discover: %v, want %q", err, want)
	}
	for base, hint := range map[string]string{
		srv.URL + "/":    "set OPENAI_BASE_URL=" + srv.URL + "/v1",
		srv.URL + "/v1":  "",
		srv.URL + "/api": "",
	} {
		s := spec
		s.BaseURL = base
		if got := providers.MissingV1(s); (hint == "") != (got == "") || !strings.Contains(got, hint) {
			t.Errorf("MissingV1(%s) = %q, want %q", base, got, hint)
		}
	}
	cfg := &config.Config{Providers: map[string]config.Provider{"box": {Type: "openai-compatible", BaseURL: srv.URL}}}
	box, err := providers.Resolve(cfg, "box", "", envOf())
	if err != nil {
		t.Fatal(err)
	}
	if got := providers.MissingV1(box); !strings.Contains(got, `set providers.box.baseUrl to "`+srv.URL+`/v1"`) {
		t.Errorf("configured: %q", got)
	}
}

// TestKeyHint: a provider that refuses nb's key is told where the key came
// from, or, when nb sent none (a local server), how to give one; asking
// such a server for its models says the same, not to choose a model.
func TestKeyHint(t *testing.T) {
	cases := []struct {
		cfg  *config.Config
		name string
		env  []string
		want string
	}{
		{nil, "", []string{"OPENAI_API_KEY", "k"}, "the key comes from OPENAI_API_KEY"},
		{nil, "", []string{"GOOGLE_API_KEY", "k"}, "the key comes from GOOGLE_API_KEY"},
		{nil, "", []string{"OPENAI_BASE_URL", "http://127.0.0.1:1/v1"}, "the server wants a key: set OPENAI_API_KEY to it"},
		{&config.Config{Providers: map[string]config.Provider{"w": {Type: "anthropic", APIKeyEnv: "WORK_KEY"}}}, "w", []string{"WORK_KEY", "k"}, "the key comes from WORK_KEY"},
		{&config.Config{Providers: map[string]config.Provider{"w": {Type: "anthropic", APIKey: "k"}}}, "w", nil, `the key comes from "apiKey" of providers.w`},
		{&config.Config{Providers: map[string]config.Provider{"w": {Type: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1"}}}, "w", nil, `set "apiKeyEnv" (a variable holding it) in providers.w`},
	}
	for _, c := range cases {
		cfg := c.cfg
		if cfg == nil {
			cfg = config.Default()
		}
		s, err := providers.Resolve(cfg, c.name, "", envOf(c.env...))
		if err != nil {
			t.Fatalf("%v: %v", c.env, err)
		}
		if got := providers.KeyHint(s); !strings.Contains(got, c.want) {
			t.Errorf("%v %s: %q, want %q", c.env, c.name, got, c.want)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"Unauthorized"}}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	spec, err := providers.Resolve(config.Default(), "", "", envOf("OPENAI_BASE_URL", srv.URL+"/v1"))
	if err != nil {
		t.Fatal(err)
	}
	spec.HTTPClient = llmtest.TestClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := providers.Discover(ctx, spec); err == nil || !strings.Contains(err.Error(), "refused to list its models") || !strings.Contains(err.Error(), "set OPENAI_API_KEY to it") || strings.Contains(err.Error(), "-m NAME") {
		t.Errorf("Discover: %v", err)
	}
}

// TestKeyWithLineBreak: a key that ends in a line break or a space (read
// from a file, pasted) is used without it; one with a control character
// inside is refused naming where it came from, instead of every request
// failing as a network error.
func TestKeyWithLineBreak(t *testing.T) {
	for _, env := range [][]string{
		{"OPENAI_API_KEY", "sk-abc\n"},
		{"OPENAI_API_KEY", " sk-abc\r\n"},
		{"ANTHROPIC_API_KEY", "sk-abc\t"},
	} {
		s, err := providers.Resolve(config.Default(), "", "", envOf(env...))
		if err != nil || s.APIKey != "sk-abc" {
			t.Errorf("%q: key %q, %v", env, s.APIKey, err)
		}
	}
	cfg := &config.Config{Providers: map[string]config.Provider{"w": {Type: "anthropic", APIKeyEnv: "WORK_KEY"}}}
	if _, err := providers.Resolve(cfg, "w", "", envOf("WORK_KEY", "sk-a\nbc")); err == nil || !strings.Contains(err.Error(), `provider "w": the key in WORK_KEY holds a line break or another control character`) {
		t.Errorf("a line break inside: %v", err)
	}
}

// TestUnknownProviderSuggests: --provider with a misspelt name gets the
// configured provider or type meant.
func TestUnknownProviderSuggests(t *testing.T) {
	cfg := &config.Config{Providers: map[string]config.Provider{"local": {Type: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1"}}}
	for name, want := range map[string]string{
		"antropic": `unknown provider "antropic" (did you mean anthropic?)`,
		"lcoal":    `unknown provider "lcoal" (did you mean local?)`,
		"zzz":      `unknown provider "zzz"; available: local`,
	} {
		if _, err := providers.Resolve(cfg, name, "", envOf()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
