package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/mcpclient"
	"github.com/nb-cli/nb/internal/wiring"
)

// startMCP connects the configured MCP servers in the background, so that
// start-up stays fast; their tools join the registry when connected. The
// first model request waits for them (waitMCP).
func (c *chat) startMCP(ctx context.Context) {
	servers := c.cfg.AllMCPServers()
	if len(servers) == 0 || c.opts.NoTools {
		return
	}
	c.mcp = mcpclient.New(servers, mcpclient.Options{
		Policy:       c.engine,
		StartTimeout: time.Duration(c.cfg.MCP.StartTimeout) * time.Second,
		OnError: func(server string, err error) {
			c.ui.Notice(agent.NoticeError, fmt.Sprintf("MCP server %s failed to start: %v", server, err))
		},
		Version: Version,
		KeyEnv:  wiring.EnvPolicy(c.cfg).Always,
	})
	c.mcpReady = make(chan struct{})
	c.closers = append(c.closers, func() { c.mcp.Close() })
	go func() {
		defer close(c.mcpReady)
		c.mcp.Start(ctx)
		for _, t := range c.mcp.Tools() {
			c.tools.Add(t)
		}
	}()
}

// waitMCP waits until the MCP servers are connected (or failed).
func (c *chat) waitMCP(ctx context.Context) {
	if c.mcpReady == nil {
		return
	}
	select {
	case <-c.mcpReady:
	case <-ctx.Done():
	}
}

func (c *chat) slashPrompts(ctx context.Context, _ []string) error {
	if c.mcp == nil {
		return fmt.Errorf("no MCP servers are configured (mcpServers in the config)")
	}
	c.waitMCP(ctx)
	prompts, err := c.mcp.Prompts(ctx)
	if len(prompts) == 0 && err == nil {
		c.println("the MCP servers offer no prompts")
	}
	for _, p := range prompts {
		var args []string
		for _, a := range p.Arguments {
			if a.Required {
				args = append(args, a.Name)
			} else {
				args = append(args, "["+a.Name+"]")
			}
		}
		c.println("  %-30s %-30s %s", p.Name, strings.Join(args, " "), p.Description)
	}
	return err
}

// slashPrompt fetches an MCP prompt and sends it as the next message.
// Arguments come as key=value words; missing required ones are asked for.
func (c *chat) slashPrompt(ctx context.Context, args []string) error {
	if c.mcp == nil {
		return fmt.Errorf("no MCP servers are configured (mcpServers in the config)")
	}
	if len(args) == 0 {
		return fmt.Errorf("usage: /prompt NAME [key=value]... (see /prompts)")
	}
	c.waitMCP(ctx)
	values := map[string]string{}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("prompt arguments are key=value, not %q", kv)
		}
		values[k] = v
	}
	prompts, err := c.mcp.Prompts(ctx)
	if err != nil && len(prompts) == 0 {
		return err
	}
	for _, p := range prompts {
		if p.Name != args[0] {
			continue
		}
		for _, a := range p.Arguments {
			if _, ok := values[a.Name]; ok {
				continue
			}
			if c.ed == nil {
				if a.Required {
					return fmt.Errorf("prompt %s needs %s=VALUE", p.Name, a.Name)
				}
				continue
			}
			label := a.Name
			if a.Description != "" {
				label += " (" + a.Description + ")"
			}
			if !a.Required {
				label += " [optional]"
			}
			v, err := c.ed.readMessage(label + ": ")
			if err != nil {
				return fmt.Errorf("prompt cancelled")
			}
			if v != "" || a.Required {
				values[a.Name] = v
			}
		}
	}
	msgs, err := c.mcp.GetPrompt(ctx, args[0], values)
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		return fmt.Errorf("prompt %s is empty", args[0])
	}
	last := msgs[len(msgs)-1]
	for _, m := range msgs[:len(msgs)-1] {
		c.agent.Messages = append(c.agent.Messages, llm.Message{Role: m.Role, Text: m.Text})
	}
	if last.Role != llm.RoleUser {
		c.agent.Messages = append(c.agent.Messages, llm.Message{Role: last.Role, Text: last.Text})
		return c.history.Save(c.agent.Messages)
	}
	c.turn(ctx, last.Text)
	return nil
}
