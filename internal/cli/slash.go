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
	"github.com/nb-cli/nb/internal/llm/catalog"
	"github.com/nb-cli/nb/internal/regular"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/spelling"
	"github.com/nb-cli/nb/internal/store"
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
		{"/clear", "", "new conversation, the old one kept; ends sessions", (*chat).slashClear},
		{"/conversations", "[N]", "list this directory's earlier conversations, reopen N", (*chat).slashConversations},
		{"/compact", "", "summarise older turns now to free the context window", (*chat).slashCompact},
		{"/usage", "", "tokens, cost and how full the context window is", (*chat).slashUsage},
		{"/insert", "FILE", "attach a text file or an image to the next message", (*chat).slashInsert},
		{"/providers", "", "list model providers", (*chat).slashProviders},
		{"/provider", "NAME", "switch the model provider", (*chat).slashProvider},
		{"/model", "[NAME]", "list the models, or switch (remembered here)", (*chat).slashModel},
		{"/prompts", "", "list prompts offered by MCP servers", (*chat).slashPrompts},
		{"/prompt", "NAME", "use an MCP server's prompt", (*chat).slashPrompt},
		{"/approvals", "[revoke N]", "list saved approvals, revoke one", (*chat).slashApprovals},
		{"/sessions", "[ID]", "list terminal sessions, or show one's screen", (*chat).slashSessions},
		{"/terminal", "[NAME]", "list terminal providers, or switch where commands run", (*chat).slashTerminal},
		{"/hosts", "[SELECTION]", "list the fleet's hosts, or those a selection picks", (*chat).slashHosts},
		{"/run", "SELECTION CMD", "run your command on those hosts (also: !@group CMD)", (*chat).slashRun},
		{"/context", "", "what the system prompt holds (AGENTS.md, system.md)", (*chat).slashContext},
		{"/changes", "", "list the file changes nb applied in this conversation", (*chat).slashChanges},
		{"/undo", "", "revert the last change nb applied (edit, write, run)", (*chat).slashUndo},
		{"/last", "[N]", "the full result of the last (or Nth last) tool call", (*chat).slashLast},
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
	b.WriteString(inputHelp)
	c.println("%s", strings.TrimRight(b.String(), "\n"))
	return nil
}

// inputHelp is the part of /help about what can be typed and the keys.
const inputHelp = `In a message:
  !COMMAND               run COMMAND yourself in the session's shell (not
                         asked); it and its output go with your next message
  !@web COMMAND          run it on hosts of the fleet (a selection starting
                         with @; /run web-0* COMMAND for others), asked as
                         the model's fan-out is
  @path                  attach a file (Tab completes the project's files);
                         what a message attaches is shown before it is sent
Keys:
  Enter                  send; Shift+Enter or Alt+Enter adds a line, as does
                         a line ending in \; a line of """ starts and ends a
                         block
  Up, Down / Ctrl+R      recall earlier messages / search them (Esc keeps
                         the match, Ctrl+G gives the message back)
  Ctrl+G, Ctrl+X Ctrl+E  edit the message in $VISUAL or $EDITOR
  Tab                    complete a /command or an @path
  Shift+Tab              switch edits between asked (each change approved
                         from its diff) and auto (edits inside the launch
                         directory applied with their diff shown; the prompt
                         says [edits: auto])
  Esc or Ctrl+C          stop the running answer or command (Ctrl+C on a
                         message drops it)
  Ctrl+D, or Ctrl+C twice at an empty prompt: leave`

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

func (c *chat) slashModel(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return c.listModels(ctx)
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: /model [NAME] (current: %s)", c.agent.Provider().Model())
	}
	p, model, err := c.newProvider(c.agent.Provider().Name(), args[0])
	if err != nil {
		return err
	}
	c.agent.SetProvider(p, c.modelWindow(p, model))
	note := ""
	if err := store.SaveChoice(c.state, c.launch, store.Choice{Provider: p.Name(), Model: p.Model()}); err == nil && c.state != "" {
		note = "; nb starts with it again in this directory"
	}
	c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("now using %s (%s)%s", p.Name(), p.Model(), note))
	return nil
}

// listModels prints the models the current provider's server offers
// (/model without a name), marking the one in use.
func (c *chat) listModels(ctx context.Context) error {
	cur := c.agent.Provider()
	lister, ok := llm.As[llm.ModelLister](cur)
	if !ok {
		return fmt.Errorf("usage: /model NAME (current: %s; %s does not list its models)", cur.Model(), cur.Name())
	}
	lctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	models, err := lister.Models(lctx)
	if err != nil {
		return fmt.Errorf("list models: %w", err)
	}
	var b strings.Builder
	for _, m := range models {
		mark := "  "
		if m.ID == cur.Model() {
			mark = "* "
		}
		b.WriteString(mark + style.Sanitize(m.ID))
		if m.Window > 0 {
			b.WriteString("  (" + catalog.Tokens(m.Window) + " tokens)")
		}
		b.WriteString("\n")
	}
	noun := "models"
	if len(models) == 1 {
		noun = "model"
	}
	fmt.Fprintf(&b, "%d %s at %s; switch with /model NAME", len(models), noun, cur.Name())
	out := c.io.Err
	if c.single {
		out = c.io.Out // nb /model: the list is the run's output
	}
	fmt.Fprintln(out, b.String())
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
	c.agent.SetProvider(p, c.modelWindow(p, model))
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
		if n == 1 {
			return fmt.Errorf("no tool call to show yet")
		}
		return fmt.Errorf("no tool call to show: there have been fewer than %d", n)
	}
	return nil
}
