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

func (t *listResources) Review(_ context.Context, call *tool.Call) (*policy.Decision, error) {
	var a struct{ Server string }
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	return policy.Allowed("mcp_list_resources " + a.Server), nil
}

func (t *listResources) Run(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	var a struct{ Server string }
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return tool.Errorf("%v", err), nil
	}
	var b strings.Builder
	for _, s := range t.c.sortedSessions() {
		if (a.Server != "" && s.name != a.Server) || s.caps == nil || s.caps.Resources == nil {
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
		return &tool.Result{Content: "no resources"}, nil
	}
	return &tool.Result{Content: b.String()}, nil
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

func (t *readResource) Review(_ context.Context, call *tool.Call) (*policy.Decision, error) {
	a, s, err := t.args(call.Args)
	if err != nil {
		return nil, err
	}
	h := s.hint("read_resource")
	if len(h.DisplayArgs) == 0 {
		h.DisplayArgs = []string{"uri"}
	}
	return t.c.decide(ToolName(s.name, "read_resource"), map[string]any{"uri": a.URI}, h), nil
}

func (t *readResource) Run(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	a, s, err := t.args(call.Args)
	if err != nil {
		return tool.Errorf("%v", err), nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout(t.c.opts.CallTimeout))
	defer cancel()
	res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: a.URI})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Errorf("reading %s from %s timed out", a.URI, s.name), nil
		}
		return tool.Errorf("MCP server %s: %v", s.name, err), nil
	}
	var parts []string
	for _, c := range res.Contents {
		parts = append(parts, renderResource(c))
	}
	return &tool.Result{Content: strings.Join(parts, "\n")}, nil
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
