package mcpclient

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

//go:embed descriptions/*.txt
var descriptions embed.FS

var description = tool.Descriptions(descriptions, "descriptions")

// listResources is mcp_list_resources: the resources every connected server
// offers, so the model can pick one to read.
type listResources struct{ c *Client }

func (t *listResources) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "mcp_list_resources", Description: description("mcp_list_resources"),
		Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"Only this server (default: all)"}},"additionalProperties":false}`)}
}

// Review implements tool.Tool.
func (t *listResources) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a struct{ Server string }
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	d := t.c.opts.Policy.Decide(policy.Action{Kind: policy.MCPListResources})
	return tool.Stays(at, d, func(ctx context.Context) (*tool.Result, error) {
		return t.list(ctx, a.Server), nil
	}), nil
}

func (t *listResources) list(ctx context.Context, server string) *tool.Result {
	var b strings.Builder
	for _, s := range t.c.sortedSessions() {
		if (server != "" && s.name != server) || s.caps == nil || s.caps.Resources == nil {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, s.timeout(t.c.opts.CallTimeout))
		n := 0
		for r, err := range s.cs.Resources(cctx, nil) {
			if err != nil {
				fmt.Fprintf(&b, "%s: error: %v\n", s.name, err)
				break
			}
			if n == 200 {
				fmt.Fprintf(&b, "%s: [... more resources not shown ...]\n", s.name)
				break
			}
			n++
			fmt.Fprintf(&b, "%s\t%s", s.name, r.URI)
			if r.Name != "" {
				fmt.Fprintf(&b, "\t%s", r.Name)
			}
			if r.MIMEType != "" {
				fmt.Fprintf(&b, "\t%s", r.MIMEType)
			}
			if r.Description != "" {
				fmt.Fprintf(&b, "\t%s", firstLine(r.Description))
			}
			b.WriteByte('\n')
		}
		cancel()
	}
	if b.Len() == 0 {
		return &tool.Result{Content: "no resources"}
	}
	return &tool.Result{Content: b.String()}
}

// readResource is mcp_read_resource(server, uri).
type readResource struct{ c *Client }

type readArgs struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

func (t *readResource) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "mcp_read_resource", Description: description("mcp_read_resource"),
		Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"MCP server name"},"uri":{"type":"string","description":"Resource URI"}},"required":["server","uri"],"additionalProperties":false}`)}
}

func (t *readResource) args(raw json.RawMessage) (readArgs, *session, error) {
	var a readArgs
	if err := tool.DecodeArgs(raw, &a); err != nil {
		return a, nil, err
	}
	s, ok := t.c.session(a.Server)
	if !ok {
		return a, nil, fmt.Errorf("no connected MCP server named %q", a.Server)
	}
	if a.URI == "" {
		return a, nil, fmt.Errorf("uri is required")
	}
	return a, s, nil
}

// Review implements tool.Tool.
func (t *readResource) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	a, s, err := t.args(call.Args)
	if err != nil {
		return nil, err
	}
	h := s.hint("read_resource")
	if len(h.DisplayArgs) == 0 {
		h.DisplayArgs = []string{"uri"}
	}
	d := t.c.decide(ToolName(s.name, "read_resource"), map[string]any{"uri": a.URI}, h)
	return tool.Stays(at, d, func(ctx context.Context) (*tool.Result, error) {
		return t.read(ctx, s, a.URI), nil
	}), nil
}

func (t *readResource) read(ctx context.Context, s *session, uri string) *tool.Result {
	ctx, cancel := context.WithTimeout(ctx, s.timeout(t.c.opts.CallTimeout))
	defer cancel()
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Errorf("reading %s from %s timed out", uri, s.name)
		}
		return tool.Errorf("MCP server %s: %v", s.name, err)
	}
	var parts []string
	for _, c := range res.Contents {
		parts = append(parts, renderResource(c))
	}
	return &tool.Result{Content: strings.Join(parts, "\n")}
}

// Prompt is a prompt template a server offers (/prompts).
type Prompt struct {
	// Name is "{server}_{prompt}", what /prompt takes.
	Name        string
	Server      string
	Prompt      string
	Description string
	Arguments   []PromptArgument
}

// PromptArgument is one argument /prompt asks for.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// Prompts lists the prompts of every connected server that offers them.
// Servers that fail to list are reported in the error and skipped.
func (c *Client) Prompts(ctx context.Context) ([]Prompt, error) {
	var out []Prompt
	var errs []string
	for _, s := range c.sortedSessions() {
		if s.caps == nil || s.caps.Prompts == nil {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, s.timeout(c.opts.CallTimeout))
		for p, err := range s.cs.Prompts(cctx, nil) {
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", s.name, err))
				break
			}
			pr := Prompt{Name: ToolName(s.name, p.Name), Server: s.name, Prompt: p.Name, Description: p.Description}
			for _, a := range p.Arguments {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
			out = append(out, pr)
		}
		cancel()
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("prompts: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

// PromptMessage is one message of a fetched prompt.
type PromptMessage struct {
	Role llm.Role
	Text string
}

// GetPrompt fetches the prompt named name ("{server}_{prompt}", as listed by
// Prompts, or "server/prompt") filled with args.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) ([]PromptMessage, error) {
	server, prompt, err := c.findPrompt(ctx, name)
	if err != nil {
		return nil, err
	}
	s, _ := c.session(server)
	ctx, cancel := context.WithTimeout(ctx, s.timeout(c.opts.CallTimeout))
	defer cancel()
	res, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: prompt, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("prompt %s: %w", name, err)
	}
	var out []PromptMessage
	for _, m := range res.Messages {
		role := llm.Role(m.Role)
		out = append(out, PromptMessage{Role: role, Text: renderContent([]mcp.Content{m.Content})})
	}
	return out, nil
}

func (c *Client) findPrompt(ctx context.Context, name string) (string, string, error) {
	if server, prompt, ok := strings.Cut(name, "/"); ok {
		if _, ok := c.session(server); ok {
			return server, prompt, nil
		}
	}
	prompts, err := c.Prompts(ctx)
	for _, p := range prompts {
		if p.Name == name {
			return p.Server, p.Prompt, nil
		}
	}
	if err != nil {
		return "", "", err
	}
	return "", "", fmt.Errorf("no prompt named %q (see /prompts)", name)
}
