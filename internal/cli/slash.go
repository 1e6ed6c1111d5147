package cli

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/regular"
	"github.com/nb-cli/nb/internal/spelling"
)

type slashCmd struct {
	name, args, help string
	run              func(c *chat, ctx context.Context, args []string) error
}

// errLeave ends the chat (/quit).
var errLeave = fmt.Errorf("leave")

var slashCmds []slashCmd

func init() {
	slashCmds = []slashCmd{
		{"/help", "", "show this list", (*chat).slashHelp},
		{"/clear", "", "start a new conversation, keeping the old one (ends terminal sessions)", (*chat).slashClear},
		{"/conversations", "[N]", "list earlier conversations of this directory, or reopen number N", (*chat).slashConversations},
		{"/compact", "", "summarise older turns now to free the context window", (*chat).slashCompact},
		{"/usage", "", "tokens and estimated cost of this session and conversation; how full the context is", (*chat).slashUsage},
		{"/insert", "FILE", "attach a text file or an image to the next message", (*chat).slashInsert},
		{"/providers", "", "list model providers", (*chat).slashProviders},
		{"/provider", "NAME", "switch the model provider", (*chat).slashProvider},
		{"/model", "NAME", "switch the model of the current provider", (*chat).slashModel},
		{"/prompts", "", "list prompts offered by MCP servers", (*chat).slashPrompts},
		{"/prompt", "NAME", "use an MCP server's prompt", (*chat).slashPrompt},
		{"/approvals", "[revoke N]", "list saved approvals, revoke one", (*chat).slashApprovals},
		{"/sessions", "[ID]", "list terminal sessions, or show one's screen", (*chat).slashSessions},
		{"/terminal", "[NAME]", "list terminal providers, or switch where commands run", (*chat).slashTerminal},
		{"/hosts", "[SELECTION]", "list the fleet inventory (~/.ssh/config, fleet.inventory), or the hosts a selection picks", (*chat).slashHosts},
		{"/context", "", "show what the system prompt holds: project instructions (AGENTS.md), system.md, sizes", (*chat).slashContext},
		{"/changes", "", "list the file changes nb applied in this conversation", (*chat).slashChanges},
		{"/undo", "", "revert the last change nb applied (an edit, a write, a previewed or approved command)", (*chat).slashUndo},
		{"/last", "[N]", "show the full result the model saw for the last (or Nth last) tool call", (*chat).slashLast},
		{"/quit", "", "leave nb (also: exit, Ctrl+D)", func(*chat, context.Context, []string) error { return errLeave }},
	}
}

func slashNames() []string {
	var names []string
	for _, s := range slashCmds {
		names = append(names, s.name)
	}
	return append(names, "/exit")
}

func findSlash(name string) *slashCmd {
	if name == "/exit" {
		name = "/quit"
	}
	for i := range slashCmds {
		if slashCmds[i].name == name {
			return &slashCmds[i]
		}
	}
	return nil
}

// slash runs an interactive slash command; it reports whether to leave.
func (c *chat) slash(ctx context.Context, line string) bool {
	fields := strings.Fields(line)
	cmd := findSlash(fields[0])
	if cmd == nil {
		c.ui.Notice(agent.NoticeError, unknownSlash(fields[0]))
		return false
	}
	err := cmd.run(c, ctx, fields[1:])
	if err == errLeave {
		return true
	}
	if err != nil {
		c.ui.Notice(agent.NoticeError, err.Error())
	}
	return false
}

// slashSingleShot runs a slash command given as nb's words. /insert
// attaches its file and hands the remaining words back as the message.
// Failures are usage errors (exit 2) or run errors (exit 1).
func (c *chat) slashSingleShot(ctx context.Context, words string) (rest string, handled bool, err error) {
	if err := checkSlashWords(words); err != nil {
		return "", true, err
	}
	fields := strings.Fields(words)
	cmd := findSlash(fields[0])
	if cmd.name == "/insert" {
		if err := c.slashInsert(ctx, fields[1:2]); err != nil {
			return "", true, err
		}
		return strings.Join(fields[2:], " "), false, nil
	}
	if err := cmd.run(c, ctx, fields[1:]); err != nil && err != errLeave {
		return "", true, err
	}
	return "", true, nil
}

// checkSlashWords returns the usage error of a single-shot run's words
// that start with a slash command, if any: checked before the run starts,
// so that exit 2 leaves stdout empty in every output format.
func checkSlashWords(words string) error {
	fields := strings.Fields(words)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return nil
	}
	cmd := findSlash(fields[0])
	if cmd == nil {
		return usagef("%s", unknownSlash(fields[0]))
	}
	if cmd.name == "/insert" && len(fields) < 2 {
		return usagef("usage: /insert FILE [message]")
	}
	return nil
}

func unknownSlash(name string) string {
	msg := "unknown command " + name
	if s := spelling.Suggest(name, slashNames()); s != "" {
		return msg + " (did you mean " + s + "?)"
	}
	return msg + " (type /help for the list)"
}

func (c *chat) println(format string, args ...any) {
	fmt.Fprintf(c.io.Err, format+"\n", args...)
}

func (c *chat) slashHelp(context.Context, []string) error {
	var b strings.Builder
	for _, s := range slashCmds {
		fmt.Fprintf(&b, "  %-22s %s\n", strings.TrimSpace(s.name+" "+s.args), s.help)
	}
	b.WriteString("  exit, quit             leave nb\n\n")
	b.WriteString("Input: end a line with \\ to continue it; a line of \"\"\" starts and ends a block.\n")
	b.WriteString("Shift+Tab switches edits between asked (each change approved from its diff) and auto\n")
	b.WriteString("(edits inside the launch directory applied with their diff shown; the prompt says [edits: auto]).\n")
	b.WriteString("Ctrl+C stops the running answer or command; Ctrl+D leaves.")
	c.println("%s", b.String())
	return nil
}

func (c *chat) slashClear(context.Context, []string) error {
	id, err := c.archiveCurrent()
	if err != nil {
		return err
	}
	c.pendingText, c.pendingImages = nil, nil
	c.endSessions()
	c.w.Sudo.Forget()
	if err := c.journal.Reset(); err != nil {
		c.ui.Notice(agent.NoticeWarn, err.Error())
	}
	if id == "" {
		c.ui.Notice(agent.NoticeInfo, "conversation cleared")
	} else {
		c.ui.Notice(agent.NoticeInfo, "conversation cleared; the old one is kept (/conversations lists it, nb --resume reopens it)")
	}
	return nil
}

// maxInsert bounds a file attached with /insert.
const maxInsert = 20 << 20

func (c *chat) slashInsert(_ context.Context, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: /insert FILE")
	}
	path := args[0]
	if strings.HasPrefix(path, "~/") {
		path = filepath.Join(c.io.Getenv("HOME"), path[2:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.workdir.Cwd(), path)
	}
	if err := c.linkedSecret(args[0], path); err != nil {
		return err
	}
	// Only regular files: a device, FIFO or socket would never end (or
	// never start), and a directory is not text.
	data, err := regular.ReadFile(path, maxInsert)
	if err != nil {
		return fmt.Errorf("insert: %w", err)
	}
	switch mt := http.DetectContentType(data); mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		c.pendingImages = append(c.pendingImages, llm.Image{MediaType: mt, Data: data, Name: filepath.Base(path)})
		c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("attached image %s (%d KiB) to the next message", filepath.Base(path), (len(data)+1023)/1024))
		return nil
	}
	if !utf8.Valid(data) || strings.ContainsRune(string(data), 0) {
		return fmt.Errorf("insert: %s is binary (%d bytes); only text files and PNG, JPEG, GIF or WebP images can be attached", path, len(data))
	}
	c.pendingText = append(c.pendingText, fmt.Sprintf("File %s:\n%s", args[0], fence(string(data))))
	c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("attached %s (%d lines) to the next message", args[0], strings.Count(string(data), "\n")+1))
	return nil
}

func (c *chat) slashModel(_ context.Context, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: /model NAME (current: %s)", c.agent.Provider().Model())
	}
	p, model, err := c.newProvider(c.agent.Provider().Name(), args[0])
	if err != nil {
		return err
	}
	c.agent.SetProvider(p, model)
	c.windowHint(p, model)
	c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("now using %s (%s)", p.Name(), p.Model()))
	return nil
}

func (c *chat) slashProvider(_ context.Context, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: /provider NAME (see /providers)")
	}
	p, model, err := c.newProvider(args[0], "")
	if err != nil {
		return err
	}
	c.agent.SetProvider(p, model)
	c.windowHint(p, model)
	c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("now using %s (%s)", p.Name(), p.Model()))
	return nil
}

func (c *chat) slashLast(_ context.Context, args []string) error {
	n := 1
	if len(args) == 1 {
		if _, err := fmt.Sscanf(args[0], "%d", &n); err != nil || n < 1 {
			return fmt.Errorf("usage: /last [N] (N counts back from the most recent call)")
		}
	}
	if !c.ui.ShowLast(n) {
		return fmt.Errorf("no tool call to show (there have been fewer than %d)", n)
	}
	return nil
}
