// Package providers builds nb's model provider from the configuration and
// the environment. Building a provider does no network I/O.
//
// Selection (Resolve): an explicit name (--provider, /provider) naming a
// configured provider or a type; else cfg.ActiveProvider; else the first
// provider the environment enables, in this order; else the first configured
// provider by name; else ErrNoProvider.
//
//	openai     OPENAI_API_KEY; OPENAI_BASE_URL makes it OpenAI-compatible
//	           (a key is then optional, and without OPENAI_MODEL the
//	           server's only model is used: Discover); OPENAI_MODEL;
//	           OPENAI_ORG_ID and OPENAI_PROJECT_ID become headers
//	anthropic  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL
//	gemini     GEMINI_API_KEY or GOOGLE_API_KEY, GEMINI_BASE_URL, GEMINI_MODEL;
//	           spoken through Gemini's OpenAI-compatible endpoint
//	azure      AZURE_OPENAI_API_KEY with AZURE_OPENAI_ENDPOINT,
//	           AZURE_OPENAI_DEPLOYMENT, AZURE_OPENAI_API_VERSION or
//	           OPENAI_API_VERSION
//
// A configured provider takes its key from apiKey, else the variable named
// by apiKeyEnv, else its type's usual variable above. Every provider is
// wrapped with llm.WithRetry (maxRetries, default llm.DefaultMaxRetries), and
// its requests are bounded by connect, first-byte and idle timeouts (the
// provider's connectTimeout, firstByteTimeout and idleTimeout, else
// NB_CONNECT_TIMEOUT, NB_FIRST_BYTE_TIMEOUT and NB_IDLE_TIMEOUT in seconds,
// else llm's defaults).
package providers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/anthropic"
	"github.com/nb-cli/nb/internal/llm/internal/transport"
	"github.com/nb-cli/nb/internal/llm/openai"
	"github.com/nb-cli/nb/internal/llm/openai/azure"
	"github.com/nb-cli/nb/internal/spelling"
)

// GeminiBaseURL is Gemini's OpenAI-compatible endpoint, which nb uses for
// the gemini type (GEMINI_BASE_URL replaces it).
const GeminiBaseURL = "https://generativelanguage.googleapis.com/v1beta/openai/"

// Default models per provider type.
var DefaultModels = map[string]string{
	"openai":    "gpt-4.1",
	"azure":     "gpt-4.1",
	"anthropic": "claude-sonnet-4-5",
	"gemini":    "gemini-2.5-flash",
	// An OpenAI-compatible server's models are its own: Discover asks it.
	"openai-compatible": "",
}

// noProviderBase is what the no-provider message says on every system
// (noProviderText adds each system's own words).
const noProviderBase = `no model provider configured. Set one of:
  OPENAI_BASE_URL=http://localhost:11434/v1  a local server (Ollama, llama.cpp,
                                             vLLM, LM Studio): no key needed
  OPENAI_API_KEY=sk-...                      OpenAI
  ANTHROPIC_API_KEY=...                      Anthropic
  GEMINI_API_KEY=...                         Gemini (GOOGLE_API_KEY works too)
  AZURE_OPENAI_API_KEY=...                   Azure OpenAI, with
  AZURE_OPENAI_ENDPOINT=https://NAME.openai.azure.com`

// ErrNoProvider says that nothing is configured; its text tells the user
// exactly what to set. Resolve returns it as a *NoProviderError, which
// errors.Is matches to it.
var ErrNoProvider error = &NoProviderError{}

// NoProviderError is ErrNoProvider with what nb knows of the user's setup.
type NoProviderError struct {
	// Partly names a provider whose variables are set only in part
	// ("AZURE_OPENAI_API_KEY is set, but not AZURE_OPENAI_ENDPOINT").
	Partly string
	// ConfigFile is the configuration file nb reads; "" names the usual
	// place.
	ConfigFile string
	// NoConfigFile: nb reads none (no absolute HOME): one must be given
	// with --config.
	NoConfigFile bool
}

func (e *NoProviderError) Error() string {
	text := noProviderText
	if e.Partly != "" {
		text = strings.Replace(text, "no model provider configured.", "no model provider configured ("+e.Partly+").", 1)
	}
	switch {
	case e.NoConfigFile:
		return text + "\nor add \"providers\" to a configuration file and pass it with --config FILE (see README)"
	case e.ConfigFile != "":
		return text + "\nor add \"providers\" to " + e.ConfigFile + " (see README)"
	}
	return text + "\nor add \"providers\" to " + usualConfigFile + " (see README)"
}

// Is makes every NoProviderError ErrNoProvider.
func (e *NoProviderError) Is(target error) bool { return target == ErrNoProvider }

// partlySet names the provider whose environment is set only in part, if
// one is.
func partlySet(getenv func(string) string) string {
	key, endpoint := getenv("AZURE_OPENAI_API_KEY") != "", getenv("AZURE_OPENAI_ENDPOINT") != ""
	switch {
	case key && !endpoint:
		return "AZURE_OPENAI_API_KEY is set, but not AZURE_OPENAI_ENDPOINT, which Azure OpenAI needs too"
	case endpoint && !key:
		return "AZURE_OPENAI_ENDPOINT is set, but not AZURE_OPENAI_API_KEY, which Azure OpenAI needs too"
	}
	return ""
}

// Entry describes one available provider, for /providers.
type Entry struct {
	Name  string
	Type  string
	Model string
	// Source is "config" or "env" (the variables that enabled it).
	Source string
	// BaseURL is the endpoint when it is not the provider's default.
	BaseURL string
	// Active marks the provider New selects when no name is given.
	Active bool
}

// Spec is a fully resolved provider configuration.
type Spec struct {
	Name       string
	Type       string
	Model      string
	APIKey     string
	BaseURL    string // also the Azure endpoint
	APIVersion string
	Headers    map[string]string
	MaxTokens  int
	MaxRetries int
	// Timeouts bound each request (zero fields: the defaults).
	Timeouts llm.Timeouts
	// ContextWindow, Prices, Reasoning and ThinkingBudget are the
	// configuration's (zero when not set).
	ContextWindow  int
	Prices         *config.Prices
	Reasoning      string
	ThinkingBudget int
	SendReasoning  *bool
	// StrictRoles: the server's chat template takes only alternating
	// user and assistant turns (config "strictRoles").
	StrictRoles bool
	Source      string
	// KeyFrom names where the API key came from (OPENAI_API_KEY, an
	// apiKeyEnv variable, "apiKey" of providers.NAME); "" when none was
	// set (a local server).
	KeyFrom string
	// HTTPClient, when set, is used for requests (tests).
	HTTPClient *http.Client
	// Sleep, when set, replaces the real wait between retries (tests).
	Sleep func(ctx context.Context, d time.Duration) error
}

// envOrder is the order in which environment variables select a provider.
var envOrder = []string{"openai", "anthropic", "gemini", "azure"}

// fromEnv returns the provider the environment enables for typ, if any.
func fromEnv(typ string, getenv func(string) string) (Spec, bool) {
	switch typ {
	case "openai", "openai-compatible":
		key, base := getenv("OPENAI_API_KEY"), getenv("OPENAI_BASE_URL")
		if key == "" && base == "" {
			return Spec{}, false
		}
		s := Spec{Name: "openai", Type: "openai", APIKey: key, BaseURL: base, Model: getenv("OPENAI_MODEL"), Source: "env"}
		if key != "" {
			s.KeyFrom = "OPENAI_API_KEY"
		}
		for header, v := range map[string]string{"OpenAI-Organization": "OPENAI_ORG_ID", "OpenAI-Project": "OPENAI_PROJECT_ID"} {
			if val := getenv(v); val != "" {
				if s.Headers == nil {
					s.Headers = map[string]string{}
				}
				s.Headers[header] = val
			}
		}
		if base != "" {
			s.Type = "openai-compatible"
			if key == "" {
				s.APIKey = "none"
			}
		}
		return s, true
	case "anthropic":
		key := getenv("ANTHROPIC_API_KEY")
		if key == "" {
			return Spec{}, false
		}
		return Spec{Name: "anthropic", Type: "anthropic", APIKey: key, BaseURL: getenv("ANTHROPIC_BASE_URL"), Model: getenv("ANTHROPIC_MODEL"), Source: "env", KeyFrom: "ANTHROPIC_API_KEY"}, true
	case "gemini":
		key := firstEnv(getenv, "GEMINI_API_KEY", "GOOGLE_API_KEY")
		if key == "" {
			return Spec{}, false
		}
		return Spec{Name: "gemini", Type: "gemini", APIKey: key, BaseURL: getenv("GEMINI_BASE_URL"), Model: getenv("GEMINI_MODEL"), Source: "env", KeyFrom: firstSet(getenv, "GEMINI_API_KEY", "GOOGLE_API_KEY")}, true
	case "azure":
		key, endpoint := getenv("AZURE_OPENAI_API_KEY"), getenv("AZURE_OPENAI_ENDPOINT")
		if key == "" || endpoint == "" {
			return Spec{}, false
		}
		return Spec{
			Name: "azure", Type: "azure", APIKey: key, BaseURL: endpoint, KeyFrom: "AZURE_OPENAI_API_KEY",
			Model:      firstEnv(getenv, "AZURE_OPENAI_DEPLOYMENT", "AZURE_OPENAI_MODEL"),
			APIVersion: firstEnv(getenv, "AZURE_OPENAI_API_VERSION", "OPENAI_API_VERSION"),
			Source:     "env",
		}, true
	}
	return Spec{}, false
}

// firstSet is the first of names that getenv has a value for.
func firstSet(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if getenv(n) != "" {
			return n
		}
	}
	return ""
}

func firstEnv(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// standardKeyVar names the environment variables a type's key may come from.
func standardKeyVars(typ string) []string {
	switch typ {
	case "openai":
		return []string{"OPENAI_API_KEY"}
	case "anthropic":
		return []string{"ANTHROPIC_API_KEY"}
	case "gemini":
		return []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}
	case "azure":
		return []string{"AZURE_OPENAI_API_KEY"}
	}
	return nil
}

// fromConfig resolves a configured provider.
func fromConfig(name string, p config.Provider, getenv func(string) string) (Spec, error) {
	s := Spec{
		Name: name, Type: p.Type, Model: p.Model, BaseURL: p.BaseURL, APIVersion: p.APIVersion,
		Headers: p.Headers, MaxTokens: p.MaxTokens, MaxRetries: p.MaxRetries, Source: "config",
		Timeouts:      llm.Timeouts{Connect: secs(p.ConnectTimeout), FirstByte: secs(p.FirstByteTimeout), Idle: secs(p.IdleTimeout)},
		ContextWindow: p.ContextWindow, Prices: p.Prices, Reasoning: p.Reasoning, ThinkingBudget: p.ThinkingBudget,
		SendReasoning: p.SendReasoning, StrictRoles: p.StrictRoles,
	}
	if s.Type == "" {
		s.Type = "openai"
	}
	if s.Type == "azure" && p.Endpoint != "" {
		s.BaseURL = p.Endpoint
	}
	switch {
	case p.APIKey != "":
		s.APIKey, s.KeyFrom = p.APIKey, fmt.Sprintf("\"apiKey\" of providers.%s", name)
	case p.APIKeyEnv != "":
		s.APIKey = getenv(p.APIKeyEnv)
		if s.APIKey == "" && s.Type != "openai-compatible" {
			return s, fmt.Errorf("provider %q: environment variable %s (apiKeyEnv) is empty", name, p.APIKeyEnv)
		}
		if s.APIKey != "" {
			s.KeyFrom = p.APIKeyEnv
		}
	default:
		vars := standardKeyVars(s.Type)
		s.APIKey, s.KeyFrom = firstEnv(getenv, vars...), firstSet(getenv, vars...)
		if s.APIKey == "" && s.Type != "openai-compatible" {
			return s, fmt.Errorf("provider %q: no API key: set apiKeyEnv in the config or %s", name, strings.Join(vars, " or "))
		}
	}
	if s.Type == "openai-compatible" && s.APIKey == "" {
		s.APIKey = "none"
	}
	if s.Type == "azure" && s.Model == "" {
		s.Model = getenv("AZURE_OPENAI_DEPLOYMENT")
	}
	if s.Type == "azure" && s.APIVersion == "" {
		s.APIVersion = firstEnv(getenv, "AZURE_OPENAI_API_VERSION", "OPENAI_API_VERSION")
	}
	return s, nil
}

// Resolve finds the provider New would build: name (from --provider or
// /provider) may name a configured provider or a type ("anthropic"); empty
// means cfg.ActiveProvider, then the first provider the environment enables
// (OpenAI, Anthropic, Gemini, Azure), then the only configured provider.
// model, when set, overrides the model.
func Resolve(cfg *config.Config, name, model string, getenv func(string) string) (Spec, error) {
	if cfg == nil {
		cfg = config.Default()
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	s, err := resolve(cfg, name, getenv)
	if err != nil {
		return s, err
	}
	if err := checkBaseURL(s); err != nil {
		return s, err
	}
	// A key read from a file or pasted often ends in a line break or a
	// space, which no key holds and no HTTP header may carry.
	s.APIKey = strings.TrimSpace(s.APIKey)
	if strings.ContainsFunc(s.APIKey, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return s, fmt.Errorf("provider %q: the key in %s holds a line break or another control character: set it to the key alone", s.Name, s.KeyFrom)
	}
	if model != "" {
		s.Model = model
	}
	if s.Model == "" {
		s.Model = DefaultModels[s.Type]
	}
	if s.MaxRetries == 0 {
		s.MaxRetries = llm.DefaultMaxRetries
	}
	envTimeout(&s.Timeouts.Connect, getenv("NB_CONNECT_TIMEOUT"))
	envTimeout(&s.Timeouts.FirstByte, getenv("NB_FIRST_BYTE_TIMEOUT"))
	envTimeout(&s.Timeouts.Idle, getenv("NB_IDLE_TIMEOUT"))
	return s, nil
}

func secs(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

// envTimeout sets *d from v (seconds) when the configuration left it unset
// and v is a positive number.
func envTimeout(d *time.Duration, v string) {
	if *d > 0 || v == "" {
		return
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
		*d = secs(f)
	}
}

func resolve(cfg *config.Config, name string, getenv func(string) string) (Spec, error) {
	if name == "" {
		name = cfg.ActiveProvider
	}
	if name != "" {
		if p, ok := cfg.Providers[name]; ok {
			return fromConfig(name, p, getenv)
		}
		if !isType(name) {
			candidates := append(sortedNames(cfg.Providers), config.ProviderTypes...)
			if s := spelling.Suggest(name, candidates); s != "" {
				return Spec{}, fmt.Errorf("unknown provider %q (did you mean %s?); available: %s", name, s, availableNames(cfg, getenv))
			}
			return Spec{}, fmt.Errorf("unknown provider %q; available: %s", name, availableNames(cfg, getenv))
		}
		// A type: the environment's provider of that type, else the first
		// configured provider of that type.
		if s, ok := fromEnv(name, getenv); ok {
			if name == "openai-compatible" && s.Type != name {
				return Spec{}, fmt.Errorf("provider openai-compatible needs OPENAI_BASE_URL (e.g. http://localhost:11434/v1)")
			}
			return s, nil
		}
		for _, n := range sortedNames(cfg.Providers) {
			if cfg.Providers[n].Type == name {
				return fromConfig(n, cfg.Providers[n], getenv)
			}
		}
		return Spec{}, fmt.Errorf("provider %q is not configured: %s", name, howToSet(name))
	}
	for _, typ := range envOrder {
		if s, ok := fromEnv(typ, getenv); ok {
			return s, nil
		}
	}
	if names := sortedNames(cfg.Providers); len(names) > 0 {
		return fromConfig(names[0], cfg.Providers[names[0]], getenv)
	}
	return Spec{}, &NoProviderError{Partly: partlySet(getenv)}
}

func howToSet(typ string) string {
	switch typ {
	case "openai":
		return "set OPENAI_API_KEY"
	case "openai-compatible":
		return "set OPENAI_BASE_URL (e.g. http://localhost:11434/v1)"
	case "anthropic":
		return "set ANTHROPIC_API_KEY"
	case "gemini":
		return "set GEMINI_API_KEY"
	case "azure":
		return "set AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT"
	}
	return "add it to \"providers\" in the config"
}

func isType(name string) bool {
	for _, t := range config.ProviderTypes {
		if t == name {
			return true
		}
	}
	return false
}

func sortedNames(m map[string]config.Provider) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func availableNames(cfg *config.Config, getenv func(string) string) string {
	var names []string
	for _, e := range Available(cfg, getenv) {
		names = append(names, e.Name)
	}
	if len(names) == 0 {
		return "none (set OPENAI_BASE_URL for a local server, or OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or AZURE_OPENAI_API_KEY)"
	}
	return strings.Join(names, ", ")
}

// New builds the selected provider (see Resolve), wrapped with retries.
func New(cfg *config.Config, name, model string, getenv func(string) string) (llm.Provider, error) {
	s, err := Resolve(cfg, name, model, getenv)
	if err != nil {
		return nil, err
	}
	return Build(s)
}

// Build constructs the provider a Spec describes, wrapped with
// llm.WithRetry(s.MaxRetries).
func Build(s Spec) (llm.Provider, error) {
	var p llm.Provider
	s.HTTPClient = transport.Client(s.Name, s.HTTPClient, s.Timeouts)
	switch s.Type {
	case "openai", "openai-compatible":
		p = openai.New(openai.Config{
			Name: s.Name, Model: s.Model, APIKey: s.APIKey, BaseURL: s.BaseURL, Headers: s.Headers,
			MaxTokens: s.MaxTokens, Compatible: s.Type == "openai-compatible", HTTPClient: s.HTTPClient,
			StrictRoles: s.StrictRoles,
		})
	case "azure":
		if s.BaseURL == "" {
			return nil, fmt.Errorf("provider %q: azure needs an endpoint (AZURE_OPENAI_ENDPOINT or \"endpoint\")", s.Name)
		}
		p = azure.New(azure.Config{
			Name: s.Name, Endpoint: s.BaseURL, APIVersion: s.APIVersion, Deployment: s.Model, APIKey: s.APIKey,
			Headers: s.Headers, MaxTokens: s.MaxTokens, HTTPClient: s.HTTPClient,
		})
	case "anthropic":
		p = anthropic.New(anthropic.Config{
			Name: s.Name, Model: s.Model, APIKey: s.APIKey, BaseURL: s.BaseURL, Headers: s.Headers,
			MaxTokens: s.MaxTokens, HTTPClient: s.HTTPClient,
		})
	case "gemini":
		base := s.BaseURL
		if base == "" {
			base = GeminiBaseURL
		}
		p = openai.New(openai.Config{
			Name: s.Name, Model: s.Model, APIKey: s.APIKey, BaseURL: base, Headers: s.Headers,
			MaxTokens: s.MaxTokens, Compatible: true, ThoughtSignatures: true, HTTPClient: s.HTTPClient,
		})
	default:
		return nil, fmt.Errorf("provider %q: unknown type %q (want %s)", s.Name, s.Type, strings.Join(config.ProviderTypes, ", "))
	}
	return llm.WithRetry(p, s.MaxRetries, s.Sleep), nil
}

// Available lists the configured providers (sorted by name) followed by
// those the environment enables whose names are not taken, marking the one
// New(cfg, "", "", getenv) would select.
func Available(cfg *config.Config, getenv func(string) string) []Entry {
	if cfg == nil {
		cfg = config.Default()
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	active, activeErr := resolve(cfg, "", getenv)
	var out []Entry
	for _, n := range sortedNames(cfg.Providers) {
		p := cfg.Providers[n]
		typ := p.Type
		if typ == "" {
			typ = "openai"
		}
		model := p.Model
		if model == "" {
			model = DefaultModels[typ]
		}
		base := p.BaseURL
		if typ == "azure" && p.Endpoint != "" {
			base = p.Endpoint
		}
		out = append(out, Entry{Name: n, Type: typ, Model: model, Source: "config", BaseURL: base,
			Active: activeErr == nil && active.Source == "config" && active.Name == n})
	}
	for _, typ := range envOrder {
		s, ok := fromEnv(typ, getenv)
		if !ok {
			continue
		}
		if _, taken := cfg.Providers[s.Name]; taken {
			continue
		}
		model := s.Model
		if model == "" {
			model = DefaultModels[s.Type]
		}
		out = append(out, Entry{Name: s.Name, Type: s.Type, Model: model, Source: "env", BaseURL: s.BaseURL,
			Active: activeErr == nil && active.Source == "env" && active.Name == s.Name})
	}
	return out
}

// Discover picks the model of an OpenAI-compatible server when s names
// none: it asks the server for its models (GET /models) and takes the only
// one; with several, or none, it says what to set. Other specs are
// returned as they are.
func Discover(ctx context.Context, s Spec) (Spec, error) {
	if s.Model != "" || s.Type != "openai-compatible" {
		return s, nil
	}
	p, err := Build(s)
	if err != nil {
		return s, err
	}
	lister, ok := llm.As[llm.ModelLister](p)
	if !ok {
		return s, fmt.Errorf("provider %q: no model set: %s", s.Name, chooseModel(s))
	}
	models, err := lister.Models(ctx)
	var le *llm.Error
	if err != nil && errors.As(err, &le) && le.Status == http.StatusNotFound {
		if hint := MissingV1(s); hint != "" {
			return s, fmt.Errorf("provider %q: the server at %s has no /models (HTTP 404): %s", s.Name, s.BaseURL, hint)
		}
	}
	if err != nil && errors.As(err, &le) && (le.Kind == llm.ErrNetwork || le.Kind == llm.ErrTimeout) {
		return s, fmt.Errorf("provider %q: cannot ask the server at %s for its models (%v): start the server, or correct %s", s.Name, s.BaseURL, err, baseURLSetting(s))
	}
	if err != nil && errors.As(err, &le) && le.Kind == llm.ErrAuth {
		return s, fmt.Errorf("provider %q: the server at %s refused to list its models (%v): %s", s.Name, s.BaseURL, err, KeyHint(s))
	}
	if err != nil {
		return s, fmt.Errorf("provider %q: no model set, and the server at %s did not list its models (%v): %s", s.Name, s.BaseURL, err, chooseModel(s))
	}
	switch len(models) {
	case 1:
		s.Model = models[0].ID
		return s, nil
	case 0:
		return s, fmt.Errorf("provider %q: the server at %s lists no model: load one there, or %s", s.Name, s.BaseURL, chooseModel(s))
	}
	names := make([]string, 0, len(models))
	for _, m := range models {
		names = append(names, m.ID)
	}
	shown := names
	if len(shown) > 12 {
		shown = append(shown[:12:12], fmt.Sprintf("… %d more", len(names)-12))
	}
	return s, fmt.Errorf("provider %q: the server at %s offers %d models (%s): %s", s.Name, s.BaseURL, len(models), strings.Join(shown, ", "), chooseModel(s))
}

// baseURLSetting names where the base URL of s is set: its environment
// variable, or its key in the configuration.
func baseURLSetting(s Spec) string {
	if s.Source == "env" {
		switch s.Type {
		case "anthropic":
			return "ANTHROPIC_BASE_URL"
		case "gemini":
			return "GEMINI_BASE_URL"
		case "azure":
			return "AZURE_OPENAI_ENDPOINT"
		}
		return "OPENAI_BASE_URL"
	}
	if s.Type == "azure" {
		return fmt.Sprintf("providers.%s.endpoint", s.Name)
	}
	return fmt.Sprintf("providers.%s.baseUrl", s.Name)
}

// checkBaseURL: a base URL that is set is an http:// or https:// URL
// naming a host (localhost:11434/v1, without its scheme, is not).
func checkBaseURL(s Spec) error {
	if s.BaseURL == "" {
		return nil
	}
	if u, err := url.Parse(s.BaseURL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	example := "http://localhost:11434/v1"
	switch s.Type {
	case "azure":
		example = "https://NAME.openai.azure.com"
	case "anthropic":
		example = "https://api.anthropic.com"
	}
	return fmt.Errorf("provider %q: %s %q is not an http:// or https:// URL (e.g. %s)", s.Name, baseURLSetting(s), s.BaseURL, example)
}

// MissingV1 is, for an OpenAI-compatible server whose base URL has no path
// (http://localhost:11434), the likely reason it answers 404 and how to
// set the URL; "" otherwise.
func MissingV1(s Spec) string {
	if s.Type != "openai-compatible" {
		return ""
	}
	u, err := url.Parse(s.BaseURL)
	if err != nil || strings.Trim(u.Path, "/") != "" {
		return ""
	}
	fixed := strings.TrimRight(s.BaseURL, "/") + "/v1"
	if s.Source == "env" {
		return "OpenAI-compatible servers answer under /v1: set OPENAI_BASE_URL=" + fixed
	}
	return fmt.Sprintf("OpenAI-compatible servers answer under /v1: set %s to %q", baseURLSetting(s), fixed)
}

// KeyHint says, for a provider that refused nb's key (HTTP 401 or 403),
// where the key came from, or how to give one.
func KeyHint(s Spec) string {
	switch {
	case s.KeyFrom != "":
		return "the key comes from " + s.KeyFrom
	case s.Source == "env":
		return "the server wants a key: set OPENAI_API_KEY to it"
	}
	return fmt.Sprintf("the server wants a key: set \"apiKeyEnv\" (a variable holding it) in providers.%s", s.Name)
}

// chooseModel says how to name the model of s.
func chooseModel(s Spec) string {
	if s.Source == "env" {
		return "choose one with -m NAME, or set OPENAI_MODEL=NAME"
	}
	return fmt.Sprintf("choose one with -m NAME, or set \"model\" in providers.%s of the config", s.Name)
}

// ModelHint is what to add to a provider's error when the server says the
// model does not exist (HTTP 404): how to choose another.
func ModelHint(s Spec) string {
	hint := chooseModel(s)
	if s.Type == "openai-compatible" {
		hint += " (/model lists the server's models)"
	}
	switch {
	case s.Source != "env" || s.Type == "openai-compatible" || s.Type == "openai":
	case s.Type == "anthropic":
		hint = strings.ReplaceAll(hint, "OPENAI_MODEL", "ANTHROPIC_MODEL")
	case s.Type == "gemini":
		hint = strings.ReplaceAll(hint, "OPENAI_MODEL", "GEMINI_MODEL")
	case s.Type == "azure":
		hint = strings.ReplaceAll(hint, "OPENAI_MODEL", "AZURE_OPENAI_DEPLOYMENT")
	}
	return hint
}
