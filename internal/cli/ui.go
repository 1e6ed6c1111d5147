package cli

import (
	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/render"
)

// chatUI is what a chat needs from the terminal renderer.
type chatUI interface {
	agent.UI
	// ShowLast prints the n-th most recent tool result in full.
	ShowLast(n int) bool
	// Flush writes the answer text held back while the turn ran (see
	// render.Options.HoldText).
	Flush() error
	// Hold keeps the screen still while another question (sudo's
	// password) has the terminal.
	Hold() (release func())
	Close() error
}

func (c *chat) newUI() chatUI {
	streams := c.io
	if c.opts.OutputFormat != FormatText {
		streams = quietOut(c.io)
	}
	ui := render.New(streams, render.Options{
		Verbose:     c.opts.Verbose,
		Markdown:    c.cfg.Render.Markdown,
		LiveLines:   c.cfg.Render.LiveLines,
		OnInterrupt: c.cancelTurn,
		Approving:   c.pauseTypeahead,
		// Piped answers wait for the turn's end, so that the pipe's
		// reader never prints into a question on the terminal.
		HoldText: !c.io.OutTTY && canPrompt(c.io) && c.opts.OutputFormat == FormatText,
	})
	if c.rec == nil {
		return ui
	}
	return &reportUI{chatUI: ui, rec: c.rec}
}

// cancelTurn stops the running turn (Ctrl+C at an approval prompt).
func (c *chat) cancelTurn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}
