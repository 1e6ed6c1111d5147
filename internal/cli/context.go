package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/instructions"
)

// configDir is nb's configuration directory (it holds the global AGENTS.md
// and system.md).
func (a *app) configDir() string {
	return filepath.Dir(config.DefaultPath(a.io.Getenv))
}

// loadInstructions reads the instruction files (AGENTS.md, CLAUDE.md,
// GEMINI.md) of the launch directory; with
// --verbose it lists them on stderr.
func (a *app) loadInstructions() {
	files, warnings := instructions.Find(a.launch, a.configDir(), a.io.Getenv("HOME"), instructions.DefaultMaxBytes)
	a.instructions = files
	for _, w := range warnings {
		fmt.Fprintln(a.io.Err, "nb: "+w)
	}
	if a.opts.Verbose {
		fmt.Fprint(a.io.Err, a.describeInstructions("nb: "))
	}
}

// describeInstructions lists the instruction files, one per line.
func (a *app) describeInstructions(prefix string) string {
	if len(a.instructions) == 0 {
		return fmt.Sprintf("%sproject instructions: no %s found (looked from %s up to the repository root, and in %s)\n", prefix, strings.Join(instructions.FileNames, ", "), a.launch, a.configDir())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%sproject instructions (most general first, at most %d bytes in all):\n", prefix, instructions.DefaultMaxBytes)
	for _, f := range a.instructions {
		fmt.Fprintf(&b, "%s  %s\n", prefix, instructions.Describe(f))
	}
	return b.String()
}

func (c *chat) slashContext(ctx context.Context, _ []string) error {
	var b strings.Builder
	prompt := c.systemPrompt(ctx)
	fmt.Fprintf(&b, "system prompt: %d bytes\n", len(prompt))
	b.WriteString(c.describeInstructions(""))
	if c.userSystem != "" {
		path := c.opts.System
		if path == "" {
			path = filepath.Join(c.configDir(), "system.md")
		}
		fmt.Fprintf(&b, "user system prompt: %s (%d bytes)\n", path, len(c.userSystem))
	}
	fmt.Fprintf(&b, "conversation: %d messages", len(c.agent.Messages))
	c.println("%s", b.String())
	return nil
}
