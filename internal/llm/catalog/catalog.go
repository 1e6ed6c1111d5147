// Package catalog knows the models nb talks to: each model's context window
// and its prices, from a built-in table that configuration can override,
// and the cost of a request's usage.
package catalog

import (
	"strconv"
	"strings"

	"github.com/nb-cli/nb/internal/llm"
)

// Prices are US dollars per million tokens. Zero CachedInput or CacheWrite
// mean the input price applies. A request of more than LongContext input
// tokens is billed, all of it, at Long's prices (Gemini's long-context
// tier), when both are set.
type Prices struct {
	Input       float64 `json:"input"`
	CachedInput float64 `json:"cachedInput,omitempty"`
	CacheWrite  float64 `json:"cacheWrite,omitempty"`
	Output      float64 `json:"output"`
	LongContext int     `json:"longContext,omitempty"`
	Long        *Prices `json:"long,omitempty"`
}

// Known reports whether any price is set.
func (p Prices) Known() bool { return p.Input > 0 || p.Output > 0 }

// Cost is the estimated cost of u in US dollars.
func (p Prices) Cost(u llm.Usage) float64 {
	if p.Long != nil && p.LongContext > 0 && u.InputTokens > p.LongContext {
		return p.Long.Cost(u)
	}
	cached, write := p.CachedInput, p.CacheWrite
	if cached == 0 {
		cached = p.Input
	}
	if write == 0 {
		write = p.Input
	}
	plain := u.InputTokens - u.CachedInputTokens - u.CacheWriteTokens
	return (float64(plain)*p.Input + float64(u.CachedInputTokens)*cached +
		float64(u.CacheWriteTokens)*write + float64(u.OutputTokens)*p.Output) / 1e6
}

// Model is what nb knows of one model.
type Model struct {
	// ContextWindow is the most input tokens one request may carry.
	ContextWindow int
	Prices        Prices
	// Known is false when the window is a default guess.
	Known bool
	// Estimate is set for a model the table does not list by name but
	// whose family it knows: window and prices are the family's, and the
	// cost is only an estimate.
	Estimate bool
	// Reasoning is set for models that take a reasoning effort
	// (reasoning_effort); nb sends none to the others.
	Reasoning bool
}

// DefaultWindow is assumed for a model nb does not know on a server that is
// not a known provider (a local model): below what current local models
// support; a one-line hint says how to set the real one.
const DefaultWindow = 32768

// providerWindows are assumed for unknown models of known providers.
var providerWindows = map[string]int{
	"openai":    128000,
	"azure":     128000,
	"anthropic": 200000,
	"gemini":    1048576,
}

type entry struct {
	name   string
	window int
	prices Prices
	// reasoning: the model takes reasoning_effort.
	reasoning bool
	// family: the entry only names a family (no model of that exact name).
	family bool
}

// table lists models by exact name; a dated snapshot (name-2025-08-07,
// name-20250929, name@20250929, name-001, name-latest) is its model. A name the table does not
// list takes the entry that is its longest prefix ending at a "-", ".",
// ":" or "@" (its family), marked as an estimate.
//
// Windows are the input tokens one request may carry; prices are list
// prices in US dollars per million tokens (input, cached input, cache
// write, output) and only an estimate. Source: the providers' model and
// pricing pages (platform.openai.com/docs/models and openai.com/api/pricing,
// docs.claude.com/en/docs/about-claude/pricing,
// ai.google.dev/gemini-api/docs/pricing), as listed in November 2025.
var table = []entry{
	// OpenAI
	{name: "gpt-5.1", window: 272000, prices: Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00}, reasoning: true},
	{name: "gpt-5.1-codex-mini", window: 272000, prices: Prices{Input: 0.25, CachedInput: 0.025, Output: 2.00}, reasoning: true},
	{name: "gpt-5.1-chat-latest", window: 128000, prices: Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00}},
	{name: "gpt-5", window: 272000, prices: Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00}, reasoning: true},
	{name: "gpt-5-mini", window: 272000, prices: Prices{Input: 0.25, CachedInput: 0.025, Output: 2.00}, reasoning: true},
	{name: "gpt-5-nano", window: 272000, prices: Prices{Input: 0.05, CachedInput: 0.005, Output: 0.40}, reasoning: true},
	{name: "gpt-5-codex", window: 272000, prices: Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00}, reasoning: true},
	{name: "gpt-5-chat-latest", window: 128000, prices: Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00}},
	{name: "gpt-5-pro", window: 128000, prices: Prices{Input: 15.00, Output: 120.00}, reasoning: true},
	{name: "gpt-4.1", window: 1047576, prices: Prices{Input: 2.00, CachedInput: 0.50, Output: 8.00}},
	{name: "gpt-4.1-mini", window: 1047576, prices: Prices{Input: 0.40, CachedInput: 0.10, Output: 1.60}},
	{name: "gpt-4.1-nano", window: 1047576, prices: Prices{Input: 0.10, CachedInput: 0.025, Output: 0.40}},
	{name: "gpt-4o", window: 128000, prices: Prices{Input: 2.50, CachedInput: 1.25, Output: 10.00}},
	{name: "gpt-4o-2024-05-13", window: 128000, prices: Prices{Input: 5.00, Output: 15.00}},
	{name: "chatgpt-4o-latest", window: 128000, prices: Prices{Input: 5.00, Output: 15.00}},
	{name: "gpt-4o-mini", window: 128000, prices: Prices{Input: 0.15, CachedInput: 0.075, Output: 0.60}},
	{name: "gpt-4-turbo", window: 128000, prices: Prices{Input: 10.00, Output: 30.00}},
	{name: "gpt-4", window: 8192, prices: Prices{Input: 30.00, Output: 60.00}},
	{name: "gpt-3.5-turbo", window: 16385, prices: Prices{Input: 0.50, Output: 1.50}},
	{name: "o1", window: 200000, prices: Prices{Input: 15.00, CachedInput: 7.50, Output: 60.00}, reasoning: true},
	{name: "o1-mini", window: 128000, prices: Prices{Input: 1.10, CachedInput: 0.55, Output: 4.40}},
	{name: "o1-preview", window: 128000, prices: Prices{Input: 15.00, CachedInput: 7.50, Output: 60.00}},
	{name: "o1-pro", window: 200000, prices: Prices{Input: 150.00, Output: 600.00}, reasoning: true},
	{name: "o3", window: 200000, prices: Prices{Input: 2.00, CachedInput: 0.50, Output: 8.00}, reasoning: true},
	{name: "o3-mini", window: 200000, prices: Prices{Input: 1.10, CachedInput: 0.55, Output: 4.40}, reasoning: true},
	{name: "o3-pro", window: 200000, prices: Prices{Input: 20.00, Output: 80.00}, reasoning: true},
	{name: "o3-deep-research", window: 200000, prices: Prices{Input: 10.00, CachedInput: 2.50, Output: 40.00}},
	{name: "o4-mini", window: 200000, prices: Prices{Input: 1.10, CachedInput: 0.275, Output: 4.40}, reasoning: true},
	{name: "o4-mini-deep-research", window: 200000, prices: Prices{Input: 2.00, CachedInput: 0.50, Output: 8.00}},
	{name: "gpt-oss", window: 131072, reasoning: true, family: true},
	// Anthropic
	{name: "claude-opus-4-5", window: 200000, prices: Prices{Input: 5, CachedInput: 0.50, CacheWrite: 6.25, Output: 25}, reasoning: true},
	{name: "claude-opus-4-1", window: 200000, prices: Prices{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}, reasoning: true},
	{name: "claude-opus-4", window: 200000, prices: Prices{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}, reasoning: true},
	{name: "claude-sonnet-4-5", window: 200000, prices: Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}, reasoning: true},
	{name: "claude-sonnet-4", window: 200000, prices: Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}, reasoning: true},
	{name: "claude-haiku-4-5", window: 200000, prices: Prices{Input: 1, CachedInput: 0.10, CacheWrite: 1.25, Output: 5}, reasoning: true},
	{name: "claude-3-7-sonnet", window: 200000, prices: Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}, reasoning: true},
	{name: "claude-3-5-sonnet", window: 200000, prices: Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}},
	{name: "claude-3-5-haiku", window: 200000, prices: Prices{Input: 0.80, CachedInput: 0.08, CacheWrite: 1, Output: 4}},
	{name: "claude-3-opus", window: 200000, prices: Prices{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}},
	{name: "claude-3-haiku", window: 200000, prices: Prices{Input: 0.25, CachedInput: 0.03, CacheWrite: 0.30, Output: 1.25}},
	{name: "claude", window: 200000, reasoning: true, family: true},
	// Gemini (prompts over 200k tokens are billed at a higher tier)
	{name: "gemini-3-pro-preview", window: 1048576, reasoning: true, prices: Prices{Input: 2.00, CachedInput: 0.20, Output: 12.00,
		LongContext: 200000, Long: &Prices{Input: 4.00, CachedInput: 0.40, Output: 18.00}}},
	{name: "gemini-2.5-pro", window: 1048576, reasoning: true, prices: Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00,
		LongContext: 200000, Long: &Prices{Input: 2.50, CachedInput: 0.25, Output: 15.00}}},
	{name: "gemini-2.5-flash", window: 1048576, prices: Prices{Input: 0.30, CachedInput: 0.03, Output: 2.50}, reasoning: true},
	{name: "gemini-2.5-flash-lite", window: 1048576, prices: Prices{Input: 0.10, CachedInput: 0.01, Output: 0.40}, reasoning: true},
	{name: "gemini-2.0-flash", window: 1048576, prices: Prices{Input: 0.10, CachedInput: 0.025, Output: 0.40}},
	{name: "gemini-2.0-flash-lite", window: 1048576, prices: Prices{Input: 0.075, Output: 0.30}},
	{name: "gemini-1.5-pro", window: 2097152, prices: Prices{Input: 1.25, Output: 5.00,
		LongContext: 128000, Long: &Prices{Input: 2.50, Output: 10.00}}},
	{name: "gemini-1.5-flash", window: 1048576, prices: Prices{Input: 0.075, Output: 0.30,
		LongContext: 128000, Long: &Prices{Input: 0.15, Output: 0.60}}},
	{name: "gemini", window: 1048576, reasoning: true, family: true},
}

// byName indexes the table.
var byName = func() map[string]*entry {
	m := make(map[string]*entry, len(table))
	for i := range table {
		m[table[i].name] = &table[i]
	}
	return m
}()

// Lookup describes model as served by a provider of type providerType
// (openai, azure, anthropic, gemini, openai-compatible), after any
// "vendor/" part of its name (OpenRouter's "anthropic/claude-…"): first
// by exact name (or a dated snapshot of one), then by family. An unknown
// model gets its provider's usual window, or DefaultWindow on
// OpenAI-compatible servers, with Known false.
func Lookup(providerType, model string) Model {
	name := baseName(model)
	if e := exact(name); e != nil {
		return Model{ContextWindow: e.window, Prices: e.prices, Known: true, Reasoning: e.reasoning}
	}
	if e := family(name); e != nil {
		return Model{ContextWindow: e.window, Prices: e.prices, Known: true, Estimate: true, Reasoning: e.reasoning}
	}
	if w, ok := providerWindows[providerType]; ok {
		return Model{ContextWindow: w}
	}
	return Model{ContextWindow: DefaultWindow}
}

// exact finds the entry of name, or of the model name is a dated snapshot
// of.
func exact(name string) *entry {
	if e, ok := byName[name]; ok && !e.family {
		return e
	}
	if base := undated(name); base != name {
		if e, ok := byName[base]; ok && !e.family {
			return e
		}
	}
	return nil
}

// undated strips a snapshot's date or version: -2025-08-07, -20250929,
// @20250929, -001 or -latest.
func undated(name string) string {
	digits := func(s string) bool {
		for _, c := range s {
			if c < '0' || c > '9' {
				return false
			}
		}
		return s != ""
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		return name[:i]
	}
	if n := len(name); n > 11 && name[n-11] == '-' && name[n-6] == '-' && name[n-3] == '-' &&
		digits(name[n-10:n-6]) && digits(name[n-5:n-3]) && digits(name[n-2:]) {
		return name[:n-11]
	}
	if n := len(name); n > 9 && name[n-9] == '-' && digits(name[n-8:]) {
		return name[:n-9]
	}
	if n := len(name); n > 4 && name[n-4] == '-' && digits(name[n-3:]) {
		return name[:n-4]
	}
	return strings.TrimSuffix(name, "-latest")
}

// family finds the entry whose name is the longest prefix of name that
// ends at a separator.
func family(name string) *entry {
	for i := len(name) - 1; i > 0; i-- {
		switch name[i] {
		case '-', '.', ':', '@', '_':
			if e, ok := byName[name[:i]]; ok {
				return e
			}
		}
	}
	return nil
}

// WindowHint is the one-line advice shown when a model's window is a guess.
func WindowHint(provider, model string, window int) string {
	return "context window of " + model + " unknown; assuming " + Tokens(window) +
		" tokens (set \"contextWindow\" in providers." + provider + " of the config)"
}

// Tokens formats a token count briefly: 950, 14 k, 182 k, 1.2 M.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return itoa(n)
	case n < 1000000 && n%1024 == 0:
		// A window of 32768 tokens is "32 k", as models are named.
		return itoa(n/1024) + " k"
	case n < 1000000:
		return itoa((n+500)/1000) + " k"
	default:
		tenths := (n + 50000) / 100000
		return itoa(tenths/10) + "." + itoa(tenths%10) + " M"
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// NoSystemRole reports whether model's chat template has no system role
// (Gemma's refuse one; Google's API refuses a developer instruction for
// Gemma models): the system prompt then starts the first user message.
func NoSystemRole(model string) bool {
	return strings.Contains(baseName(model), "gemma")
}

// baseName is model in lower case without any "vendor/" part.
func baseName(model string) string {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}
