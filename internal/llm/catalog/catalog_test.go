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
	for n, want := range map[int]string{0: "0", 950: "950", 14_200: "14 k", 182_400: "182 k", 1_234_567: "1.2 M"} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}
