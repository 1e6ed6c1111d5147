// Package config loads nb's configuration: the user's config.json (JSON with
// comments), defaults for every key, validation with errors that name the
// file, the key and the problem, and a project's .nb/config.json, which may
// only tighten approval.
package config

// Config is the whole user configuration. Zero values never reach callers:
// Default fills every key and Load decodes the file on top of it.
type Config struct {
	ActiveProvider      string               `json:"activeProvider"`
	Providers           map[string]Provider  `json:"providers"`
	MaxToolCalls        int                  `json:"maxToolCalls"`
	TerminalIntegration TerminalIntegration  `json:"terminalIntegration"`
	Approval            Approval             `json:"approval"`
	Terminal            Terminal             `json:"terminal"`
	MCPServers          map[string]MCPServer `json:"mcpServers"`
	Servers             map[string]MCPServer `json:"servers"`
	MCP                 MCPOptions           `json:"mcp"`
	Render              Render               `json:"render"`
	Conversation        Conversation         `json:"conversation"`
	Fleet               Fleet                `json:"fleet"`
	Changes             Changes              `json:"changes"`

	// Path is the file this configuration came from ("" for defaults only).
	Path string `json:"-"`
}

// Provider configures one model backend.
type Provider struct {
	// Type is openai, azure, anthropic, gemini, or openai-compatible.
	Type  string `json:"type"`
	Model string `json:"model"`
	// APIKey is the key itself; APIKeyEnv names an environment variable
	// holding it (preferred: keeps secrets out of the file).
	APIKey    string `json:"apiKey"`
	APIKeyEnv string `json:"apiKeyEnv"`
	// BaseURL overrides the endpoint (OpenAI-compatible servers, proxies).
	BaseURL string `json:"baseUrl"`
	// Endpoint and APIVersion are for Azure OpenAI; Model is the deployment.
	Endpoint   string            `json:"endpoint"`
	APIVersion string            `json:"apiVersion"`
	MaxTokens  int               `json:"maxTokens"`
	Headers    map[string]string `json:"headers"`
	// MaxRetries bounds retries of rate limits and transient failures.
	MaxRetries int `json:"maxRetries"`
	// ConnectTimeout, FirstByteTimeout and IdleTimeout are seconds (0: the
	// defaults, 30, 300 and 120): connecting, waiting for the answer to
	// start, and waiting between pieces of a streamed answer.
	ConnectTimeout   float64 `json:"connectTimeout"`
	FirstByteTimeout float64 `json:"firstByteTimeout"`
	IdleTimeout      float64 `json:"idleTimeout"`
	// ContextWindow overrides the model's context window, in tokens.
	ContextWindow int `json:"contextWindow"`
	// Prices override the built-in prices of the model (USD per million
	// tokens), for the cost estimate.
	Prices *Prices `json:"prices"`
	// Reasoning is the reasoning effort (low, medium, high) for OpenAI
	// reasoning models; ThinkingBudget turns on Anthropic extended thinking
	// with that many tokens.
	Reasoning      string `json:"reasoning"`
	ThinkingBudget int    `json:"thinkingBudget"`
	// SendReasoning says whether the model takes a reasoning effort
	// (reasoning_effort, or Anthropic extended thinking), overriding what
	// the built-in catalog knows (nil: the catalog decides; unknown
	// models get none).
	SendReasoning *bool `json:"sendReasoning"`
	// StrictRoles says the server's chat template takes only alternating
	// user and assistant turns, with no tool or system role (Gemma 2's
	// under llama.cpp or vLLM): tool calls and results are sent as text
	// in those turns. Without it nb switches when a server rejects roles.
	StrictRoles bool `json:"strictRoles"`
}

// Prices are US dollars per million tokens.
type Prices struct {
	Input       float64 `json:"input"`
	CachedInput float64 `json:"cachedInput"`
	CacheWrite  float64 `json:"cacheWrite"`
	Output      float64 `json:"output"`
}

// Fleet configures running one command on many hosts over SSH (SPEC
// §14): the hosts of the OpenSSH client configuration and of the Ansible
// inventories named here.
type Fleet struct {
	// Inventory lists Ansible inventory files, INI or YAML (~ is home).
	Inventory []string `json:"inventory"`
	// SSHConfig is the OpenSSH client configuration whose Host aliases
	// are hosts ("" for ~/.ssh/config, "none" for none).
	SSHConfig string `json:"sshConfig"`
	// Concurrency is how many hosts run at once.
	Concurrency int `json:"concurrency"`
	// ConnectTimeout is the seconds allowed to connect to one host.
	ConnectTimeout float64 `json:"connectTimeout"`
}

// Conversation configures how long conversations are kept in bounds.
type Conversation struct {
	// CompactAt is the share of the context window at which older turns
	// are compacted into a summary (0.1 to 0.95).
	CompactAt float64 `json:"compactAt"`
	// MaxMessageBytes caps one answer or tool result in the saved
	// conversation; the middle of a longer one is cut, with a marker.
	MaxMessageBytes int `json:"maxMessageBytes"`
}

// TerminalIntegration is seed 000's block.
type TerminalIntegration struct {
	Enabled bool `json:"enabled"`
	// Shell is "auto" (bash when present, else /bin/sh) or a path.
	Shell string `json:"shell"`
	// DefaultTimeout and MaxTimeout are seconds.
	DefaultTimeout       int      `json:"defaultTimeout"`
	MaxTimeout           int      `json:"maxTimeout"`
	OutputThresholdBytes int      `json:"outputThresholdBytes"`
	OutputThresholdLines int      `json:"outputThresholdLines"`
	SandwichHeadLines    int      `json:"sandwichHeadLines"`
	SandwichTailLines    int      `json:"sandwichTailLines"`
	MaxLineBytes         int      `json:"maxLineBytes"`
	DetectTools          []string `json:"detectTools"`
	WarnPatterns         []string `json:"warnPatterns"`
	// SavedOutputs bounds the full outputs kept in the state directory.
	SavedOutputsMax      int   `json:"savedOutputsMax"`
	SavedOutputsMaxBytes int64 `json:"savedOutputsMaxBytes"`
}

// Approval configures the policy.
type Approval struct {
	AutoApproveSafe      bool `json:"autoApproveSafe"`
	AutoApproveInSandbox bool `json:"autoApproveInSandbox"`
	// Allow and Deny are rules in --approve pattern syntax.
	Allow []string `json:"allow"`
	Deny  []string `json:"deny"`
	// SafeCommands and DangerousCommands extend (or, with a leading "!",
	// remove from) the built-in lists.
	SafeCommands      []string `json:"safeCommands"`
	DangerousCommands []string `json:"dangerousCommands"`
	SensitivePaths    []string `json:"sensitivePaths"`
	// TrustClientApproval makes `nb mcp serve` run "ask" calls when the
	// client cannot elicit, trusting the client's own approval UI.
	TrustClientApproval bool `json:"trustClientApproval"`
}

// Changes configures how file changes are approved and undone (SPEC §16).
type Changes struct {
	// Edits is the approval mode of edit_file and write_file: "ask" (every
	// change is asked) or "workspace" (changes of files inside the launch
	// directory are applied without asking and their diff shown; deny
	// rules, secrets, system paths and files that run later still ask).
	// Shift+Tab switches it in the chat.
	Edits string `json:"edits"`
	// Snapshots takes an undo snapshot of the git work tree around every
	// command that may write files and runs (approved, or allowed by a
	// rule), so /undo can revert what it changed.
	Snapshots bool `json:"snapshots"`
	// Preview runs a command the policy judges to only write files first
	// in a copy-on-write view of the places it writes (Linux), so the user
	// approves what it changed; off, such commands are asked as others.
	Preview bool `json:"preview"`
}

// Approval modes of Changes.Edits.
const (
	EditsAsk       = "ask"
	EditsWorkspace = "workspace"
)

// Terminal configures where commands run and persistent sessions.
type Terminal struct {
	// Provider names the active entry of Providers ("local" by default).
	Provider   string              `json:"provider"`
	Providers  map[string]HostSpec `json:"providers"`
	Persistent Persistent          `json:"persistent"`
	// MaxSessions bounds concurrent persistent sessions.
	MaxSessions int `json:"maxSessions"`
	// Env says which of nb's environment variables commands see.
	Env TerminalEnv `json:"env"`
	// ReadOnlySandbox runs what nb allows on its own judgement in a
	// read-only sandbox.
	ReadOnlySandbox ReadOnlySandbox `json:"readOnlySandbox"`
}

// ReadOnlySandbox configures the sandbox under the commands nb allows on
// its own judgement (the safe list) on this machine: nothing writable but
// a private /tmp, no network, no unix sockets, no host process, home's
// dot-files and the secret-file list hidden, the environment from an
// allow-list. Linux (bubblewrap or Landlock) and macOS (Seatbelt).
type ReadOnlySandbox struct {
	// Enabled is the switch (on by default).
	Enabled bool `json:"enabled"`
	// Approved also runs there what the user allowed: commands approved
	// when asked, Always and session grants, --approve and allow rules.
	Approved bool `json:"approved"`
	// Mechanism is auto, namespaces, bwrap or landlock (Linux; macOS has Seatbelt).
	Mechanism string `json:"mechanism"`
	// HomeVisible are more dot-entries of the home directory left
	// readable, relative to it (".config/helix", ".m2/repository").
	HomeVisible []string `json:"homeVisible"`
	// Env are more variables passed, globs over names ("GOPATH",
	// "CARGO_*"); secret-looking ones still need terminal.env.pass.
	Env []string `json:"env"`
}

// TerminalEnv adjusts the scrubbing of commands' environment: variables
// that look secret (names with KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL…,
// URLs with credentials) are removed unless Pass names them; Exclude
// removes more. Both are globs over names (letters, digits, _, * and ?),
// case-insensitive; Exclude wins. nb's provider keys are never passed.
type TerminalEnv struct {
	Pass    []string `json:"pass"`
	Exclude []string `json:"exclude"`
}

// HostSpec configures one terminal provider.
type HostSpec struct {
	// Type is local, sandbox, container or ssh.
	Type string `json:"type"`
	// Sandbox: mechanism auto, namespaces, bwrap or landlock; network; extra paths.
	Mechanism     string   `json:"mechanism"`
	AllowNetwork  bool     `json:"allowNetwork"`
	WritablePaths []string `json:"writablePaths"`
	HiddenPaths   []string `json:"hiddenPaths"`
	// Container: exec into Container when set, else docker run --rm Image.
	Container string `json:"container"`
	Image     string `json:"image"`
	Docker    string `json:"docker"`
	// SSH.
	Host         string `json:"host"`
	User         string `json:"user"`
	Port         int    `json:"port"`
	IdentityFile string `json:"identityFile"`
	KnownHosts   string `json:"knownHosts"`
	Shell        string `json:"shell"`
}

// Persistent holds seed 002's output-collection intervals, in seconds.
type Persistent struct {
	MinInterval    float64 `json:"minInterval"`
	SettleInterval float64 `json:"settleInterval"`
	MaxInterval    float64 `json:"maxInterval"`
	BufferBytes    int     `json:"bufferBytes"`
	Rows           int     `json:"rows"`
	Cols           int     `json:"cols"`
}

// MCPServer configures one MCP server nb connects to. Both the common
// "mcpServers" form and nb's "servers" form (with type and url/endpoint)
// decode into it.
type MCPServer struct {
	Type          string                  `json:"type"` // stdio, http
	Command       string                  `json:"command"`
	Args          []string                `json:"args"`
	Env           map[string]string       `json:"env"`
	URL           string                  `json:"url"`
	Endpoint      string                  `json:"endpoint"`
	Headers       map[string]string       `json:"headers"`
	AlwaysAllow   []string                `json:"alwaysAllow"`
	ApprovalHints map[string]ApprovalHint `json:"approvalHints"`
	Disabled      bool                    `json:"disabled"`
	// Timeout is the per-call timeout in seconds.
	Timeout int `json:"timeout"`
}

// ApprovalHint is seed 001's per-tool prompt shaping.
type ApprovalHint struct {
	DisplayArgs  []string `json:"displayArgs"`
	Truncate     int      `json:"truncate"`
	WarnPatterns []string `json:"warnPatterns"`
	AlwaysWarn   bool     `json:"alwaysWarn"`
}

// MCPOptions configures nb's MCP client behaviour.
type MCPOptions struct {
	// StartTimeout is seconds allowed for a server to initialize.
	StartTimeout int `json:"startTimeout"`
}

// Render configures the terminal display.
type Render struct {
	// Markdown turns terminal markdown rendering on (default) or off.
	Markdown bool `json:"markdown"`
	// LiveLines is how many lines of a running command are shown.
	LiveLines int `json:"liveLines"`
}

// DefaultDetectTools is seed 000's default detection list.
var DefaultDetectTools = []string{
	"python3", "python", "node", "dotnet", "ruby",
	"git", "docker", "kubectl",
	"ffmpeg", "magick", "curl", "jq", "aws", "az", "gcloud",
}

// DefaultWarnPatterns is seed 000's warning list, with the same for
// cmd.exe and PowerShell in their own words (Remove-Item -Recurse is
// PowerShell's rm -r, rd /s and del /s cmd.exe's). The policy detects
// these from the parsed command, each in its shell's language, not by
// substring.
var DefaultWarnPatterns = []string{
	"rm -rf", "rm -r", "sudo", "dd", "> /", ">> /", "chmod 777", "chmod -R",
	"curl | sh", "wget | sh", "mkfs", "fdisk",
	"Remove-Item -Recurse", "rd /s", "del /s", "Format-Volume", "format", "diskpart", "iwr | iex",
}

// Default returns the configuration used when no file sets a key.
func Default() *Config {
	return &Config{
		Providers:    map[string]Provider{},
		MaxToolCalls: 25,
		TerminalIntegration: TerminalIntegration{
			Enabled:              true,
			Shell:                "auto",
			DefaultTimeout:       30,
			MaxTimeout:           600,
			OutputThresholdBytes: 10240,
			OutputThresholdLines: 200,
			SandwichHeadLines:    50,
			SandwichTailLines:    20,
			MaxLineBytes:         2048,
			DetectTools:          append([]string(nil), DefaultDetectTools...),
			WarnPatterns:         append([]string(nil), DefaultWarnPatterns...),
			SavedOutputsMax:      50,
			SavedOutputsMaxBytes: 256 << 20,
		},
		Approval: Approval{
			AutoApproveSafe:      true,
			AutoApproveInSandbox: true,
		},
		Terminal: Terminal{
			Provider:  "local",
			Providers: map[string]HostSpec{},
			Persistent: Persistent{
				MinInterval:    0.2,
				SettleInterval: 0.5,
				MaxInterval:    30,
				BufferBytes:    1 << 20,
				Rows:           40,
				Cols:           120,
			},
			MaxSessions:     8,
			ReadOnlySandbox: ReadOnlySandbox{Enabled: true, Mechanism: "auto"},
		},
		MCPServers: map[string]MCPServer{},
		Servers:    map[string]MCPServer{},
		MCP:        MCPOptions{StartTimeout: 30},
		Render:     Render{Markdown: true, LiveLines: 5},
		Fleet:      Fleet{Concurrency: 16, ConnectTimeout: 10},
		Changes:    Changes{Edits: EditsAsk, Snapshots: true, Preview: true},
		Conversation: Conversation{
			CompactAt:       0.75,
			MaxMessageBytes: 128 << 10,
		},
	}
}
