package mcpserver

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sysinfo"
	"github.com/nb-cli/nb/internal/tool"
)

//go:embed descriptions/get_context.txt
var getContextDescription string

// ContextTool is get_context: a description of the machine (probed once)
// and of the session (the working directory, read on every call).
type ContextTool struct {
	// Probe describes the machine; it is called once, on first use.
	Probe   func(ctx context.Context) (*sysinfo.Info, error)
	Workdir *tool.Workdir
	Roots   []string
	// Policy decides the call (required).
	Policy tool.Policy
	// Host names the active terminal provider and its isolation.
	Host func() (name, isolation string)

	once sync.Once
	info *sysinfo.Info
	err  error
}

// Context is get_context's answer.
type Context struct {
	*sysinfo.Info
	Cwd             string   `json:"cwd"`
	LaunchDirectory string   `json:"launchDirectory,omitempty"`
	Roots           []string `json:"fileRoots,omitempty"`
	Host            string   `json:"terminalProvider,omitempty"`
	Isolation       string   `json:"isolation,omitempty"`
	ProbeError      string   `json:"probeError,omitempty"`
}

// Spec implements tool.Tool.
func (t *ContextTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "get_context", Description: strings.TrimSpace(getContextDescription), Schema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)}
}

// Review implements tool.Tool: describing the session needs no approval,
// which the policy decides like everything else.
func (t *ContextTool) Review(_ context.Context, _ *tool.Call, at tool.At) (*tool.Invocation, error) {
	return tool.Stays(at, t.Policy.Decide(policy.Action{Kind: policy.Describe}), t.run), nil
}

func (t *ContextTool) run(ctx context.Context) (*tool.Result, error) {
	t.once.Do(func() {
		if t.Probe != nil {
			t.info, t.err = t.Probe(ctx)
		}
		if t.info == nil {
			t.info = &sysinfo.Info{}
		}
	})
	c := Context{Info: t.info, Roots: t.Roots}
	if t.err != nil {
		c.ProbeError = t.err.Error()
	}
	if t.Workdir != nil {
		c.Cwd, c.LaunchDirectory = t.Workdir.Cwd(), t.Workdir.Launch()
	}
	if t.Host != nil {
		c.Host, c.Isolation = t.Host()
	}
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	return &tool.Result{Content: string(out)}, nil
}
