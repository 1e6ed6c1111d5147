package providers_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/llm/llmtest"
	"github.com/nb-cli/nb/internal/llm/providers"
)

// TestDiscoverLocalModel: with only OPENAI_BASE_URL, the server's only
// model is used; several, none or no answer say what to choose, never a
// model name nb made up; a named model is not asked about.
func TestDiscoverLocalModel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resolve := func(s *llmtest.Server, kv ...string) providers.Spec {
		spec, err := providers.Resolve(config.Default(), "", "", envOf(append([]string{"OPENAI_BASE_URL", s.URL()}, kv...)...))
		if err != nil {
			t.Fatal(err)
		}
		spec.HTTPClient = llmtest.TestClient(t)
		return spec
	}
	one := llmtest.NewOpenAI(t)
	one.SetLocal(llmtest.Local{Models: []llmtest.LocalModel{{ID: "qwen"}}})
	spec := resolve(one)
	if spec.Model != "" || spec.Type != "openai-compatible" || spec.APIKey != "none" {
		t.Fatalf("resolved %+v", spec)
	}
	if got, err := providers.Discover(ctx, spec); err != nil || got.Model != "qwen" {
		t.Fatalf("one model: %q, %v", got.Model, err)
	}
	two := llmtest.NewOpenAI(t)
	two.SetLocal(llmtest.Local{Models: []llmtest.LocalModel{{ID: "a"}, {ID: "b"}}})
	if _, err := providers.Discover(ctx, resolve(two)); err == nil || !strings.Contains(err.Error(), "offers 2 models (a, b): choose one with -m NAME, or set OPENAI_MODEL=NAME") {
		t.Errorf("two models: %v", err)
	}
	if got, err := providers.Discover(ctx, resolve(two, "OPENAI_MODEL", "b")); err != nil || got.Model != "b" || len(two.SideRequests()) != 1 {
		t.Errorf("OPENAI_MODEL: %q, %v, asked %v", got.Model, err, two.SideRequests())
	}
	down := resolve(one)
	down.BaseURL = "http://127.0.0.1:1/v1"
	if _, err := providers.Discover(ctx, down); err == nil || !strings.Contains(err.Error(), "cannot ask the server at http://127.0.0.1:1/v1 for its models") || !strings.Contains(err.Error(), "start the server, or correct OPENAI_BASE_URL") {
		t.Errorf("no server: %v", err)
	}
	cfg := &config.Config{Providers: map[string]config.Provider{"box": {Type: "openai-compatible", BaseURL: two.URL()}}}
	boxSpec, err := providers.Resolve(cfg, "box", "", envOf())
	if err != nil {
		t.Fatal(err)
	}
	boxSpec.HTTPClient = llmtest.TestClient(t)
	if _, err := providers.Discover(ctx, boxSpec); err == nil || !strings.Contains(err.Error(), `set "model" in providers.box of the config`) {
		t.Errorf("configured provider: %v", err)
	}
	if h := providers.ModelHint(boxSpec); !strings.Contains(h, "providers.box") || !strings.Contains(h, "/model lists") {
		t.Errorf("hint %q", h)
	}
}
