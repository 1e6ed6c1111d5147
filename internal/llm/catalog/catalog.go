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
// mean the input price applies.
type Prices struct {
	Input       float64 `json:"input"`
	CachedInput float64 `json:"cachedInput,omitempty"`
	CacheWrite  float64 `json:"cacheWrite,omitempty"`
	Output      float64 `json:"output"`
}

// Known reports whether any price is set.
func (p Prices) Known() bool { return p.Input > 0 || p.Output > 0 }

// Cost is the estimated cost of u in US dollars.
func (p Prices) Cost(u llm.Usage) float64 {
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
	prefix string
	window int
	prices Prices
}

// table is ordered so that longer, more specific prefixes come first.
// Prices are list prices per million tokens and only an estimate.
var table = []entry{
	// OpenAI
	{"gpt-5-nano", 272000, Prices{Input: 0.05, CachedInput: 0.005, Output: 0.40}},
	{"gpt-5-mini", 272000, Prices{Input: 0.25, CachedInput: 0.025, Output: 2.00}},
	{"gpt-5", 272000, Prices{Input: 1.25, CachedInput: 0.125, Output: 10.00}},
	{"gpt-4.1-nano", 1047576, Prices{Input: 0.10, CachedInput: 0.025, Output: 0.40}},
	{"gpt-4.1-mini", 1047576, Prices{Input: 0.40, CachedInput: 0.10, Output: 1.60}},
	{"gpt-4.1", 1047576, Prices{Input: 2.00, CachedInput: 0.50, Output: 8.00}},
	{"gpt-4o-mini", 128000, Prices{Input: 0.15, CachedInput: 0.075, Output: 0.60}},
	{"gpt-4o", 128000, Prices{Input: 2.50, CachedInput: 1.25, Output: 10.00}},
	{"gpt-4-turbo", 128000, Prices{Input: 10.00, Output: 30.00}},
	{"gpt-3.5-turbo", 16385, Prices{Input: 0.50, Output: 1.50}},
	{"o4-mini", 200000, Prices{Input: 1.10, CachedInput: 0.275, Output: 4.40}},
	{"o3-mini", 200000, Prices{Input: 1.10, CachedInput: 0.55, Output: 4.40}},
	{"o3", 200000, Prices{Input: 2.00, CachedInput: 0.50, Output: 8.00}},
	{"o1", 200000, Prices{Input: 15.00, CachedInput: 7.50, Output: 60.00}},
	{"gpt-oss", 131072, Prices{}},
	// Anthropic
	{"claude-opus-4-5", 200000, Prices{Input: 5, CachedInput: 0.50, CacheWrite: 6.25, Output: 25}},
	{"claude-opus-4", 200000, Prices{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}},
	{"claude-sonnet-4", 200000, Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}},
	{"claude-haiku-4", 200000, Prices{Input: 1, CachedInput: 0.10, CacheWrite: 1.25, Output: 5}},
	{"claude-3-7-sonnet", 200000, Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}},
	{"claude-3-5-sonnet", 200000, Prices{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}},
	{"claude-3-5-haiku", 200000, Prices{Input: 0.80, CachedInput: 0.08, CacheWrite: 1, Output: 4}},
	{"claude-3-opus", 200000, Prices{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}},
	{"claude-3-haiku", 200000, Prices{Input: 0.25, CachedInput: 0.03, CacheWrite: 0.30, Output: 1.25}},
	{"claude", 200000, Prices{}},
	// Gemini
	{"gemini-2.5-pro", 1048576, Prices{Input: 1.25, CachedInput: 0.31, Output: 10.00}},
	{"gemini-2.5-flash-lite", 1048576, Prices{Input: 0.10, CachedInput: 0.025, Output: 0.40}},
	{"gemini-2.5-flash", 1048576, Prices{Input: 0.30, CachedInput: 0.075, Output: 2.50}},
	{"gemini-2.0-flash", 1048576, Prices{Input: 0.10, CachedInput: 0.025, Output: 0.40}},
	{"gemini-1.5-pro", 2097152, Prices{Input: 1.25, Output: 5.00}},
	{"gemini", 1048576, Prices{}},
}

// Lookup describes model as served by a provider of type providerType
// (openai, azure, anthropic, gemini, openai-compatible). Names are matched
// by prefix, after any "vendor/" part (OpenRouter's "anthropic/claude-…").
// An unknown model gets its provider's usual window, or DefaultWindow on
// OpenAI-compatible servers, with Known false.
func Lookup(providerType, model string) Model {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	for _, e := range table {
		if strings.HasPrefix(name, e.prefix) {
			return Model{ContextWindow: e.window, Prices: e.prices, Known: true}
		}
	}
	if w, ok := providerWindows[providerType]; ok {
		return Model{ContextWindow: w}
	}
	return Model{ContextWindow: DefaultWindow}
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
