package mcpclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

var badNameChars = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// ToolName is the name the model sees for tool of server: "{server}_{tool}",
// with characters providers refuse replaced by "_" and, past 64 characters,
// shortened with a hash so names stay unique.
func ToolName(server, tool string) string {
	name := badNameChars.ReplaceAllString(server+"_"+tool, "_")
	if len(name) > 64 {
		sum := sha256.Sum256([]byte(server + "\x00" + tool))
		name = name[:55] + "_" + hex.EncodeToString(sum[:4])
	}
	return name
}

// Tools returns the tools of every connected server, named by ToolName,
// plus mcp_list_resources and mcp_read_resource when a server offers
// resources. Names already taken (by an earlier server in name order) are
// skipped.
func (c *Client) Tools() []tool.Tool {
	var out []tool.Tool
	seen := map[string]bool{}
	resources := false
	for _, s := range c.sortedSessions() {
		for _, t := range s.tools {
			name := ToolName(s.name, t.Name)
			if seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, &remoteTool{c: c, s: s, t: t, name: name})
		}
		if s.caps != nil && s.caps.Resources != nil {
			resources = true
		}
	}
	if resources {
		out = append(out, &listResources{c: c}, &readResource{c: c})
	}
	return out
}

type remoteTool struct {
	c    *Client
	s    *session
	t    *mcp.Tool
	name string
}

func (r *remoteTool) Spec() llm.ToolSpec {
	schema, err := json.Marshal(r.t.InputSchema)
	if err != nil || len(schema) == 0 || string(schema) == "null" {
		schema = []byte(`{"type":"object","properties":{}}`)
	}
	desc := r.t.Description
	if desc == "" {
		desc = r.t.Title
	}
	return llm.ToolSpec{Name: r.name, Description: strings.TrimSpace(fmt.Sprintf("%s (MCP server %s)", desc, r.s.name)), Schema: schema}
}

func decodeObject(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(raw) == 0 || string(raw) == "null" {
		return args, nil
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf("invalid arguments JSON (an object is required): %w", err)
	}
	return args, nil
}

// Hint is the policy hint for tool of the server: its approvalHints entry
// and whether alwaysAllow lists it.
func (s *session) hint(toolName string) policy.ToolHint {
	h := s.cfg.ApprovalHints[toolName]
	return policy.ToolHint{
		DisplayArgs:  h.DisplayArgs,
		Truncate:     h.Truncate,
		WarnPatterns: h.WarnPatterns,
		AlwaysWarn:   h.AlwaysWarn,
		AlwaysAllow:  slices.Contains(s.cfg.AlwaysAllow, toolName) || slices.Contains(s.cfg.AlwaysAllow, "*"),
	}
}

func (c *Client) decide(name string, args map[string]any, hint policy.ToolHint) *policy.Decision {
	return c.opts.Policy.Decide(policy.Action{Kind: policy.MCPTool, Tool: name, Args: args, Hint: hint})
}

// Review implements tool.Tool.
func (r *remoteTool) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	args, err := decodeObject(call.Args)
	if err != nil {
		return nil, err
	}
	return tool.Stays(at, r.c.decide(r.name, args, r.s.hint(r.t.Name)), func(ctx context.Context) (*tool.Result, error) {
		return r.call(ctx, args), nil
	}), nil
}

func (r *remoteTool) call(ctx context.Context, args map[string]any) *tool.Result {
	timeout := r.s.timeout(r.c.opts.CallTimeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	res, err := r.s.cs.CallTool(ctx, &mcp.CallToolParams{Name: r.t.Name, Arguments: args})
	d := time.Since(start)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &tool.Result{Content: fmt.Sprintf("error: %s timed out after %s (MCP server %s did not answer); the server may still be working", r.name, timeout, r.s.name), IsError: true, Duration: d, Note: "timed out"}
		}
		if ctx.Err() != nil {
			return &tool.Result{Content: "error: interrupted", IsError: true, Duration: d, Note: "interrupted"}
		}
		return &tool.Result{Content: fmt.Sprintf("error: MCP server %s: %v", r.s.name, err), IsError: true, Duration: d, Note: firstLine(err.Error())}
	}
	text := renderContent(res.Content)
	if res.StructuredContent != nil && !hasText(res.Content) {
		b, _ := json.Marshal(res.StructuredContent)
		text = string(b)
	}
	out := &tool.Result{Content: text, IsError: res.IsError, Duration: d}
	if res.IsError {
		out.Note = firstLine(text)
	}
	return out
}

func hasText(cs []mcp.Content) bool {
	for _, c := range cs {
		if _, ok := c.(*mcp.TextContent); ok {
			return true
		}
	}
	return false
}

// renderContent turns MCP content into the text the model receives:
// text as is, other kinds as one-line summaries.
func renderContent(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		switch v := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, v.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image %s, %d bytes]", v.MIMEType, len(v.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio %s, %d bytes]", v.MIMEType, len(v.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource link %s %s]", v.URI, v.Name))
		case *mcp.EmbeddedResource:
			parts = append(parts, renderResource(v.Resource))
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	return strings.Join(parts, "\n")
}

func renderResource(r *mcp.ResourceContents) string {
	if r == nil {
		return "[empty resource]"
	}
	if r.Text != "" || r.Blob == nil {
		return r.Text
	}
	return fmt.Sprintf("[resource %s: %s, %d bytes of binary data]", r.URI, r.MIMEType, len(r.Blob))
}

func firstLine(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(s, "error: "))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return truncate(s, 120)
}

func truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
