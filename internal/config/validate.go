package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/spelling"
)

// ProviderTypes lists the accepted provider types.
var ProviderTypes = []string{"openai", "azure", "anthropic", "gemini", "openai-compatible"}

// HostTypes lists the accepted terminal provider types.
var HostTypes = []string{"local", "sandbox", "container", "ssh"}

// Validate checks values the decoder cannot: ranges, enums, references.
func (c *Config) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &Error{File: c.Path, Key: key, Problem: fmt.Sprintf(format, args...)}
	}
	for _, name := range sortedKeys(c.Providers) {
		p := c.Providers[name]
		key := "providers." + name
		if !slices.Contains(ProviderTypes, p.Type) {
			return bad(key+".type", "must be one of %s (got %q)", strings.Join(ProviderTypes, ", "), p.Type)
		}
		if p.Type == "azure" && p.Endpoint == "" && p.BaseURL == "" {
			return bad(key+".endpoint", "is required for azure (https://NAME.openai.azure.com)")
		}
		if p.Type == "openai-compatible" && p.BaseURL == "" {
			return bad(key+".baseUrl", "is required for openai-compatible providers (e.g. http://localhost:11434/v1)")
		}
		if p.MaxTokens < 0 || p.MaxRetries < 0 {
			return bad(key, "maxTokens and maxRetries must not be negative")
		}
		if p.ConnectTimeout < 0 || p.FirstByteTimeout < 0 || p.IdleTimeout < 0 {
			return bad(key, "connectTimeout, firstByteTimeout and idleTimeout must not be negative")
		}
		if p.ContextWindow != 0 && p.ContextWindow < 1024 {
			return bad(key+".contextWindow", "must be at least 1024 tokens (got %d)", p.ContextWindow)
		}
		if p.Reasoning != "" && p.Reasoning != "low" && p.Reasoning != "medium" && p.Reasoning != "high" {
			return bad(key+".reasoning", "must be low, medium or high (got %q)", p.Reasoning)
		}
		if p.ThinkingBudget != 0 && p.ThinkingBudget < 1024 {
			return bad(key+".thinkingBudget", "must be at least 1024 tokens (got %d)", p.ThinkingBudget)
		}
		if pr := p.Prices; pr != nil && (pr.Input < 0 || pr.CachedInput < 0 || pr.CacheWrite < 0 || pr.Output < 0) {
			return bad(key+".prices", "must not be negative")
		}
	}
	if c.ActiveProvider != "" {
		if _, ok := c.Providers[c.ActiveProvider]; !ok && !slices.Contains(ProviderTypes, c.ActiveProvider) {
			names := sortedKeys(c.Providers)
			if len(names) == 0 {
				return bad("activeProvider", "%q names no configured provider: none is configured under \"providers\" (or name a type: %s)", c.ActiveProvider, strings.Join(ProviderTypes, ", "))
			}
			if s := spelling.Suggest(c.ActiveProvider, names); s != "" {
				return bad("activeProvider", "%q names no configured provider (did you mean %q?)", c.ActiveProvider, s)
			}
			return bad("activeProvider", "%q names no configured provider (configured: %s)", c.ActiveProvider, strings.Join(names, ", "))
		}
	}
	if cc := c.Conversation; cc.CompactAt < 0.1 || cc.CompactAt > 0.95 {
		return bad("conversation.compactAt", "must be between 0.1 and 0.95 (got %v)", cc.CompactAt)
	}
	if c.Conversation.MaxMessageBytes < 1024 {
		return bad("conversation.maxMessageBytes", "must be at least 1024 (got %d)", c.Conversation.MaxMessageBytes)
	}
	if f := c.Fleet; f.Concurrency < 1 || f.Concurrency > 1024 {
		return bad("fleet.concurrency", "must be between 1 and 1024 (got %d)", f.Concurrency)
	}
	if c.Fleet.ConnectTimeout <= 0 {
		return bad("fleet.connectTimeout", "must be a positive number of seconds (got %v)", c.Fleet.ConnectTimeout)
	}
	for i, p := range c.Fleet.Inventory {
		if strings.TrimSpace(p) == "" {
			return bad(fmt.Sprintf("fleet.inventory[%d]", i), "is empty")
		}
	}
	if e := c.Changes.Edits; e != EditsAsk && e != EditsWorkspace {
		return bad("changes.edits", "must be %q or %q (got %q)", EditsAsk, EditsWorkspace, e)
	}
	if c.MaxToolCalls < 1 {
		return bad("maxToolCalls", "must be at least 1 (got %d)", c.MaxToolCalls)
	}
	t := c.TerminalIntegration
	positive := []struct {
		key string
		v   int
	}{
		{"defaultTimeout", t.DefaultTimeout}, {"maxTimeout", t.MaxTimeout},
		{"outputThresholdBytes", t.OutputThresholdBytes}, {"outputThresholdLines", t.OutputThresholdLines},
		{"sandwichHeadLines", t.SandwichHeadLines}, {"sandwichTailLines", t.SandwichTailLines},
		{"maxLineBytes", t.MaxLineBytes}, {"savedOutputsMax", t.SavedOutputsMax},
	}
	for _, p := range positive {
		if p.v < 1 {
			return bad("terminalIntegration."+p.key, "must be a positive number (got %d)", p.v)
		}
	}
	if t.MaxTimeout < t.DefaultTimeout {
		return bad("terminalIntegration.maxTimeout", "must not be below defaultTimeout (%d < %d)", t.MaxTimeout, t.DefaultTimeout)
	}
	if t.SandwichHeadLines+t.SandwichTailLines > t.OutputThresholdLines {
		return bad("terminalIntegration.sandwichHeadLines", "head plus tail lines (%d) must not exceed outputThresholdLines (%d)", t.SandwichHeadLines+t.SandwichTailLines, t.OutputThresholdLines)
	}
	if t.Shell != "auto" && t.Shell != "" && !filepath.IsAbs(t.Shell) {
		return bad("terminalIntegration.shell", "must be \"auto\" or an absolute path (got %q)", t.Shell)
	}
	for _, name := range sortedKeys(c.Terminal.Providers) {
		h := c.Terminal.Providers[name]
		key := "terminal.providers." + name
		if !slices.Contains(HostTypes, h.Type) {
			return bad(key+".type", "must be one of %s (got %q)", strings.Join(HostTypes, ", "), h.Type)
		}
		if h.Type == "ssh" && h.Host == "" {
			return bad(key+".host", "is required for ssh")
		}
		if h.Type == "container" && h.Container == "" && h.Image == "" {
			return bad(key, "a container provider needs \"container\" (docker exec) or \"image\" (docker run)")
		}
		if h.Mechanism != "" && !slices.Contains([]string{"auto", "namespaces", "bwrap", "landlock"}, h.Mechanism) {
			return bad(key+".mechanism", "must be auto, namespaces, bwrap or landlock (got %q)", h.Mechanism)
		}
		if h.Port < 0 || h.Port > 65535 {
			return bad(key+".port", "must be a TCP port (got %d)", h.Port)
		}
	}
	if p := c.Terminal.Provider; p != "" && !slices.Contains(HostTypes, p) {
		if _, ok := c.Terminal.Providers[p]; !ok {
			return bad("terminal.provider", "names no configured terminal provider (got %q)", p)
		}
	}
	ps := c.Terminal.Persistent
	if ps.MinInterval < 0 || ps.SettleInterval <= 0 || ps.MaxInterval <= 0 || ps.MinInterval > ps.MaxInterval {
		return bad("terminal.persistent", "intervals must satisfy 0 <= minInterval <= maxInterval and settleInterval > 0")
	}
	if ps.BufferBytes < 4096 || ps.Rows < 2 || ps.Cols < 10 {
		return bad("terminal.persistent", "bufferBytes must be at least 4096, rows at least 2 and cols at least 10")
	}
	for _, l := range []struct {
		key  string
		list []string
	}{{"terminal.env.pass", c.Terminal.Env.Pass}, {"terminal.env.exclude", c.Terminal.Env.Exclude}} {
		for _, p := range l.list {
			if !envGlob.MatchString(p) {
				return bad(l.key, "%q is not a variable pattern (letters, digits, _, * and ?)", p)
			}
		}
	}
	rs := c.Terminal.ReadOnlySandbox
	if rs.Mechanism != "" && !slices.Contains([]string{"auto", "namespaces", "bwrap", "landlock"}, rs.Mechanism) {
		return bad("terminal.readOnlySandbox.mechanism", "must be auto, namespaces, bwrap or landlock (got %q)", rs.Mechanism)
	}
	for _, p := range rs.HomeVisible {
		rel := filepath.ToSlash(filepath.Clean(strings.TrimPrefix(p, "~/")))
		if p == "" || rel == "." || rel == "~" || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") || filepath.IsAbs(p) {
			return bad("terminal.readOnlySandbox.homeVisible", "%q must be a path inside the home directory, relative to it (\".config/helix\")", p)
		}
	}
	for _, p := range rs.Env {
		if !envGlob.MatchString(p) {
			return bad("terminal.readOnlySandbox.env", "%q is not a variable pattern (letters, digits, _, * and ?)", p)
		}
	}
	if c.Terminal.MaxSessions < 1 {
		return bad("terminal.maxSessions", "must be at least 1 (got %d)", c.Terminal.MaxSessions)
	}
	for _, set := range []struct {
		key     string
		servers map[string]MCPServer
	}{{"mcpServers", c.MCPServers}, {"servers", c.Servers}} {
		for _, name := range sortedKeys(set.servers) {
			s := set.servers[name]
			key := set.key + "." + name
			if strings.ContainsAny(name, " /") || name == "" {
				return bad(key, "server names may not contain spaces or slashes")
			}
			switch s.Type {
			case "", "stdio", "http", "streamable-http", "streamableHttp", "sse":
			default:
				return bad(key+".type", "must be stdio or http (got %q)", s.Type)
			}
			if s.Command == "" && s.URL == "" && s.Endpoint == "" {
				return bad(key, "needs \"command\" (stdio) or \"url\" (streamable HTTP)")
			}
			if s.Timeout < 0 {
				return bad(key+".timeout", "must not be negative")
			}
		}
	}
	return nil
}

// AllMCPServers merges the "mcpServers" and "servers" forms.
func (c *Config) AllMCPServers() map[string]MCPServer {
	all := map[string]MCPServer{}
	for k, v := range c.Servers {
		all[k] = v
	}
	for k, v := range c.MCPServers {
		all[k] = v
	}
	return all
}

// envGlob is a pattern over environment variable names (host.ValidEnvGlob
// checks the same).
var envGlob = regexp.MustCompile(`^[A-Za-z0-9_*?]+$`)

// Project is the subset of configuration a project directory may set in
// .nb/config.json. It can only tighten approval: add deny rules, turn off
// auto-approval. Anything else in the file is an error, so a cloned
// repository cannot quietly loosen nb.
type Project struct {
	Approval struct {
		Deny                 []string `json:"deny"`
		AutoApproveSafe      *bool    `json:"autoApproveSafe"`
		AutoApproveInSandbox *bool    `json:"autoApproveInSandbox"`
	} `json:"approval"`
}

// LoadProject reads dir/.nb/config.json (absent is fine) and applies it to c.
func LoadProject(c *Config, dir string) error {
	path := filepath.Join(dir, ".nb", "config.json")
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return &Error{File: path, Problem: "cannot read: " + unwrapPathErr(err)}
	}
	var p Project
	if err := Decode(path, data, &p); err != nil {
		var ce *Error
		if errors.As(err, &ce) && strings.HasPrefix(ce.Problem, "unknown key") && hasKey(reflect.TypeOf(Config{}), ce.Key) {
			// A key of the user's configuration: not unknown, only not a
			// project's to set.
			ce.Problem = "a project may only add approval.deny rules or turn approval.autoApproveSafe or approval.autoApproveInSandbox off; set this in your own configuration"
		}
		return err
	}
	if v := p.Approval.AutoApproveSafe; v != nil && *v {
		return locate(&Error{File: path, Key: "approval.autoApproveSafe", Problem: "a project may only turn auto-approval off"}, data)
	}
	if v := p.Approval.AutoApproveInSandbox; v != nil && *v {
		return locate(&Error{File: path, Key: "approval.autoApproveInSandbox", Problem: "a project may only turn auto-approval off"}, data)
	}
	if p.Approval.AutoApproveSafe != nil {
		c.Approval.AutoApproveSafe = false
	}
	if p.Approval.AutoApproveInSandbox != nil {
		c.Approval.AutoApproveInSandbox = false
	}
	c.Approval.Deny = append(c.Approval.Deny, p.Approval.Deny...)
	return nil
}

// hasKey says whether the configuration type t has the dotted key (any
// name of a map's entries counts).
func hasKey(t reflect.Type, key string) bool {
	for _, name := range strings.Split(key, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
			continue
		case reflect.Struct:
		default:
			return false
		}
		found := false
		for i := 0; i < t.NumField(); i++ {
			if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag == name {
				t, found = t.Field(i).Type, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
