package catalog

import (
	"math"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
)

func TestLookup(t *testing.T) {
	cases := []struct {
		typ, model string
		window     int
		known      bool
	}{
		{"openai", "gpt-4o-mini-2024-07-18", 128000, true},
		{"openai", "gpt-4.1", 1047576, true},
		{"anthropic", "claude-sonnet-4-5", 200000, true},
		{"openai-compatible", "anthropic/claude-3-5-haiku", 200000, true},
		{"gemini", "gemini-2.5-flash", 1048576, true},
		{"openai", "gpt-99", 128000, false},
		{"openai-compatible", "llama3.1:8b", DefaultWindow, false},
	}
	for _, c := range cases {
		m := Lookup(c.typ, c.model)
		if m.ContextWindow != c.window || m.Known != c.known {
			t.Errorf("Lookup(%s, %s) = %+v, want window %d known %v", c.typ, c.model, m, c.window, c.known)
		}
	}
	// gpt-4o-mini must not match gpt-4o's prices.
	if Lookup("openai", "gpt-4o-mini").Prices.Input != 0.15 {
		t.Errorf("gpt-4o-mini prices %+v", Lookup("openai", "gpt-4o-mini").Prices)
	}
}

func TestCost(t *testing.T) {
	p := Prices{Input: 3, CachedInput: 0.3, CacheWrite: 3.75, Output: 15}
	u := llm.Usage{InputTokens: 1_000_000, CachedInputTokens: 500_000, CacheWriteTokens: 100_000, OutputTokens: 10_000}
	want := 0.4*3 + 0.5*0.3 + 0.1*3.75 + 0.01*15
	if got := p.Cost(u); math.Abs(got-want) > 1e-9 {
		t.Errorf("cost = %v, want %v", got, want)
	}
	// Without a cached price, cached tokens cost the input price.
	if got := (Prices{Input: 1}).Cost(llm.Usage{InputTokens: 1_000_000, CachedInputTokens: 1_000_000}); got != 1 {
		t.Errorf("cost = %v, want 1", got)
	}
}

func TestTokens(t *testing.T) {
	for n, want := range map[int]string{0: "0", 950: "950", 14_200: "14 k", 182_400: "182 k", 1_234_567: "1.2 M", 32768: "32 k", 131072: "128 k", 16384: "16 k"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestVariants: a variant is priced and windowed as itself, not as the
// model its name starts with; a dated snapshot is its model; an unknown
// variant of a known family takes the family's row as an estimate.
func TestVariants(t *testing.T) {
	cases := []struct {
		model          string
		window         int
		input, output  float64
		estimate, reas bool
	}{
		{"o1", 200000, 15, 60, false, true},
		{"o1-mini", 128000, 1.10, 4.40, false, false},
		{"o1-mini-2024-09-12", 128000, 1.10, 4.40, false, false},
		{"o1-pro", 200000, 150, 600, false, true},
		{"o3-pro", 200000, 20, 80, false, true},
		{"o3-pro-2025-06-10", 200000, 20, 80, false, true},
		{"o3-deep-research", 200000, 10, 40, false, false},
		{"gpt-5", 272000, 1.25, 10, false, true},
		{"gpt-5-2025-08-07", 272000, 1.25, 10, false, true},
		{"gpt-5-pro", 128000, 15, 120, false, true},
		{"gpt-5-chat-latest", 128000, 1.25, 10, false, false},
		{"gpt-4o", 128000, 2.50, 10, false, false},
		{"gpt-4o-2024-08-06", 128000, 2.50, 10, false, false},
		{"gpt-4o-2024-05-13", 128000, 5, 15, false, false},
		{"gpt-4o-mini-2024-07-18", 128000, 0.15, 0.60, false, false},
		{"gemini-2.0-flash", 1048576, 0.10, 0.40, false, false},
		{"gemini-2.0-flash-001", 1048576, 0.10, 0.40, false, false},
		{"gemini-2.0-flash-lite", 1048576, 0.075, 0.30, false, false},
		{"gemini-3-pro-preview", 1048576, 2, 12, false, true},
		{"models/gemini-2.5-pro", 1048576, 1.25, 10, false, true},
		{"claude-sonnet-4-5-20250929", 200000, 3, 15, false, true},
		{"claude-3-5-sonnet-latest", 200000, 3, 15, false, false},
		{"anthropic/claude-opus-4-1", 200000, 15, 75, false, true},
		// Unknown variants of known families: estimates.
		{"gpt-5-codex-max", 272000, 1.25, 10, true, true},
		{"o3-mini-high", 200000, 1.10, 4.40, true, true},
		{"gemini-2.5-flash-preview-09-2025", 1048576, 0.30, 2.50, true, true},
		{"claude-sonnet-4-7", 200000, 3, 15, true, true},
	}
	for _, c := range cases {
		m := Lookup("openai", c.model)
		if m.ContextWindow != c.window || m.Prices.Input != c.input || m.Prices.Output != c.output || m.Estimate != c.estimate || m.Reasoning != c.reas || !m.Known {
			t.Errorf("Lookup(%s) = %+v, want window %d, $%v/$%v, estimate %v, reasoning %v", c.model, m, c.window, c.input, c.output, c.estimate, c.reas)
		}
	}
	// Non-reasoning models and unknown ones take no reasoning effort.
	for _, model := range []string{"gpt-4o", "gpt-4.1-mini", "qwen3:8b", "llama3.1:8b", "gemini-2.0-flash"} {
		if Lookup("openai-compatible", model).Reasoning {
			t.Errorf("%s: reasoning effort would be sent", model)
		}
	}
}

// TestLongContextTier: a Gemini 2.5 Pro request over 200k tokens is billed,
// all of it, at the long-context prices.
func TestLongContextTier(t *testing.T) {
	p := Lookup("gemini", "gemini-2.5-pro").Prices
	short := p.Cost(llm.Usage{InputTokens: 200_000, OutputTokens: 1000})
	if want := 0.2*1.25 + 0.001*10; math.Abs(short-want) > 1e-9 {
		t.Errorf("200k tokens cost %v, want %v", short, want)
	}
	long := p.Cost(llm.Usage{InputTokens: 300_000, CachedInputTokens: 100_000, OutputTokens: 1000})
	if want := 0.2*2.50 + 0.1*0.25 + 0.001*15; math.Abs(long-want) > 1e-9 {
		t.Errorf("300k tokens cost %v, want %v", long, want)
	}
}

func TestNoSystemRole(t *testing.T) {
	for model, want := range map[string]bool{"gemma-3-27b-it": true, "google/gemma-2-9b-it": true, "gemma3:12b": true, "gpt-4o": false, "mistral-small": false} {
		if NoSystemRole(model) != want {
			t.Errorf("NoSystemRole(%s) = %v", model, !want)
		}
	}
}
