package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/providers"
	"github.com/nb-cli/nb/internal/mcpclient"
	"github.com/nb-cli/nb/internal/render"
	"github.com/nb-cli/nb/internal/report"
	"github.com/nb-cli/nb/internal/store"
)

// maxPipedInput bounds the piped stdin added to a message; the middle of
// longer input is cut.
const maxPipedInput = 256 << 10

// maxPipedRead is how much piped stdin nb reads at most before it stops
// waiting for the end of it.
const maxPipedRead = 16 << 20

// chat is a running conversation, interactive or single-shot.
type chat struct {
	*app
	ui      chatUI
	agent   *agent.Agent
	history *store.History

	// ed is the line editor of an interactive chat (nil in single-shot).
	ed *lineEditor
	// mcp is the client of configured MCP servers (nil when none).
	mcp      *mcpclient.Client
	mcpReady chan struct{}

	// pending holds /insert attachments for the next message.
	pendingText   []string
	pendingImages []llm.Image

	// single is set for a single-shot run.
	single bool
	// continues: the run goes on with the conversation the launch
	// directory kept (said once, see sayContinuing).
	continues bool
	// apartNote says why this run keeps a conversation of its own
	// (another nb holds the directory's); said once, at the start.
	apartNote string
	// typeahead reads what is typed while a turn of an interactive chat
	// runs.
	typeahead *typeahead

	mu     sync.Mutex
	cancel context.CancelFunc // cancels the running turn
	quit   bool
}

func runChat(opts *Options, io *iostreams.IO) error {
	if opts.Help {
		printHelp(io, usageText)
		return nil
	}
	if opts.Version {
		fmt.Fprintf(io.Out, "nb %s\n", Version)
		return nil
	}
	rec := newRecorder(opts, io)
	words := strings.Join(opts.Words, " ")
	var piped string
	if !io.InTTY {
		data, err := readBounded(io.In, maxPipedInput)
		if err != nil {
			return failRun(rec, io, kindRun, fmt.Errorf("read stdin: %w", err))
		}
		piped = data
	}
	singleShot := len(opts.Words) > 0 || !io.InTTY || opts.Print
	if singleShot && strings.TrimSpace(words) == "" && strings.TrimSpace(piped) == "" {
		return failRun(rec, io, kindRun, usagef("nothing to ask: give a message as arguments or on stdin (see nb --help)"))
	}
	if singleShot && strings.HasPrefix(words, "/") {
		if err := checkSlashWords(words); err != nil {
			return failRun(rec, io, kindRun, err)
		}
	}
	if !singleShot && opts.OutputFormat != FormatText {
		return failRun(rec, io, kindRun, usagef("--output-format %s reports a single-shot run: give a message (nb --output-format %[1]s WORDS...)", opts.OutputFormat))
	}

	a, err := newApp(io, opts, !canPrompt(io), forChat)
	if err != nil {
		return failRun(rec, io, kindConfig, err)
	}
	defer a.close()
	if singleShot {
		a.rec = rec // an interactive chat has no report
	}
	a.loadInstructions()

	c := &chat{app: a, single: singleShot}
	if err := c.start(); err != nil {
		return err
	}
	defer c.history.Close()
	defer c.ui.Close()

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	c.handleSignals(ctx, stop)
	c.startMCP(ctx)

	if singleShot {
		return c.singleShot(ctx, words, piped)
	}
	return c.interactive(ctx)
}

// canPrompt reports whether approvals can be asked at a terminal.
func canPrompt(io *iostreams.IO) bool { return render.CanPrompt(io) }

// start opens the history, the provider and the UI.
func (c *chat) start() error {
	p, model, err := c.newProvider(c.opts.Provider, c.opts.Model)
	if err != nil {
		return failRun(c.rec, c.io, kindConfig, err)
	}
	h, err := c.openHistory()
	if err != nil {
		return failRun(c.rec, c.io, kindHistory, err)
	}
	msgs, warning, err := h.Load()
	if err != nil {
		h.Close()
		return failRun(c.rec, c.io, kindHistory, err)
	}
	c.history = h
	c.ui = c.newUI()
	c.sudo.hold, c.sudo.interrupt = c.ui.Hold, c.cancelTurn
	if warning != "" {
		c.ui.Notice(agent.NoticeWarn, warning)
	}
	c.openJournal()
	c.agent = c.newAgent(p, c.modelWindow(p, model), c.ui, canPrompt(c.io), msgs)
	if err := c.resumeAtStart(); err != nil {
		c.history.Close()
		return failRun(c.rec, c.io, kindHistory, err)
	}
	// A start that goes on with the directory's conversation says so
	// before its first message (not for a slash command of its own).
	c.continues = len(msgs) > 0 && !c.opts.Resume && len(c.agent.Messages) == len(msgs)
	c.startReport(p)
	return nil
}

// handleSignals makes Ctrl+C cancel the running turn (not nb), and SIGTERM
// or SIGHUP end nb cleanly.
func (c *chat) handleSignals(ctx context.Context, stop context.CancelFunc) {
	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	c.closers = append(c.closers, func() {
		signal.Stop(sigc)
		close(done)
	})
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigc:
				c.mu.Lock()
				running := c.cancel != nil
				if running {
					c.cancel()
				}
				if sig != os.Interrupt {
					c.quit = true
					stop()
				}
				c.mu.Unlock()
				if sig != os.Interrupt && !running {
					// Waiting at the prompt, where nothing would notice
					// the cancellation: end sessions and leave now.
					c.shutdown()
					os.Exit(exitCode(errInterrupted))
				}
			}
		}
	}()
}

// quitting reports whether a SIGTERM or SIGHUP asked nb to end.
func (c *chat) quitting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.quit
}

// shutdown restores the terminal and ends everything nb started, for a
// SIGTERM or SIGHUP that arrives at the prompt.
func (c *chat) shutdown() {
	if c.ed != nil {
		c.ed.close()
	}
	c.ui.Close()
	c.history.Close()
	c.close()
}

// turn runs one user message and saves the conversation.
func (c *chat) turn(ctx context.Context, text string) error {
	msg := llm.Message{Role: llm.RoleUser, Text: text, Images: c.pendingImages}
	if len(c.pendingText) > 0 {
		msg.Text = strings.Join(append(c.pendingText, text), "\n\n")
	}
	c.pendingText, c.pendingImages = nil, nil

	tctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.cancel = cancel
	c.mu.Unlock()
	c.waitMCP(tctx)
	changed, err := c.agent.Turn(tctx, msg)
	cancel()
	c.rememberRoles()
	// c.cancel stays set while saving: a SIGTERM or SIGHUP now marks nb to
	// quit after the save instead of exiting in the middle of it, so the
	// exchange already printed is kept.
	var serr error
	if changed {
		if serr = c.history.Save(c.agent.Messages); serr != nil {
			c.ui.Notice(agent.NoticeError, serr.Error())
		}
	}
	c.mu.Lock()
	c.cancel = nil
	c.mu.Unlock()
	if ferr := c.ui.Flush(); ferr != nil {
		c.ui.Notice(agent.NoticeError, ferr.Error())
	}
	if serr != nil && (err == nil || errors.Is(err, agent.ErrToolLimit)) {
		return serr
	}
	c.showTurnUsage()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, agent.ErrToolLimit):
		return err
	case errors.Is(err, context.Canceled):
		c.ui.Notice(agent.NoticeWarn, "interrupted")
	default:
		c.ui.Notice(agent.NoticeError, err.Error())
		var le *llm.Error
		if errors.As(err, &le) && le.Kind == llm.ErrAuth {
			c.ui.Notice(agent.NoticeInfo, providers.KeyHint(c.spec))
		}
		if errors.As(err, &le) && le.Status == http.StatusNotFound {
			if hint := providers.MissingV1(c.spec); hint != "" {
				// A base URL without its API's path.
				c.ui.Notice(agent.NoticeInfo, "the server at "+c.spec.BaseURL+" has no such path: "+hint)
			} else {
				// Mostly a model the server does not have.
				c.ui.Notice(agent.NoticeInfo, "the server does not know the model "+c.agent.Provider().Model()+": "+providers.ModelHint(c.spec))
			}
		}
		if !changed {
			c.ui.Notice(agent.NoticeInfo, "the message was not sent; the conversation is unchanged")
		}
	}
	return err
}

func (c *chat) singleShot(ctx context.Context, words, piped string) error {
	if strings.HasPrefix(words, "/") {
		rest, handled, err := c.slashSingleShot(ctx, words)
		if err != nil {
			return failRun(c.rec, c.io, kindRun, err)
		}
		if handled {
			finishReport(c.rec, c.io, report.StatusAnswered, nil, nil)
			return nil
		}
		words = rest
	}
	c.attachMentions(ctx, words)
	text := words
	if strings.TrimSpace(piped) != "" {
		text = fence(piped) + "\n\n" + words
	}
	if strings.TrimSpace(text) == "" && len(c.pendingText) == 0 && len(c.pendingImages) == 0 {
		finishReport(c.rec, c.io, report.StatusAnswered, nil, nil)
		return nil
	}
	c.sayContinuing()
	err := c.turn(ctx, strings.TrimSpace(text))
	if err == nil && c.quitting() {
		// SIGTERM or SIGHUP arrived while the answer was saved.
		err = context.Canceled
	}
	return c.finishTurn(err)
}

func (c *chat) interactive(ctx context.Context) error {
	ed := newLineEditor(c.io, c.state)
	defer ed.close()
	c.ed = ed
	c.typeahead = newTypeahead(c.io.InFd, terminalOut(c.io), c.showTypeahead, c.cancelTurn)
	c.pauseKeys = c.pauseTypeahead
	ed.setCompleter(slashNames())
	ed.ed.BackTab = c.switchEdits
	ed.ed.CompleteWord = c.completeMention()
	ed.ed.Note = c.mentionNote
	c.ui.Notice(agent.NoticeInfo, c.banner())
	c.sayContinuing()
	if c.opts.Resume {
		if err := c.pickConversation(); err != nil {
			return nil // Ctrl+D: leave
		}
	}
	for {
		if ctx.Err() != nil {
			return shown(errInterrupted)
		}
		line, err := ed.readMessage(c.promptString())
		if errors.Is(err, errAborted) {
			continue
		}
		if err != nil {
			return nil // Ctrl+D, or Ctrl+C twice
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			continue
		case trimmed == "exit" || trimmed == "quit":
			return nil
		case strings.HasPrefix(trimmed, "/"):
			if c.slash(ctx, trimmed) {
				return nil
			}
			continue
		}
		if command, hosts, ok := shellLine(line); ok {
			c.typeahead.start()
			c.shellCommand(ctx, command, hosts)
			ed.feed(c.typeahead.finish())
			continue
		}
		c.attachMentions(ctx, line)
		c.typeahead.start()
		c.turn(ctx, line)
		ed.feed(c.typeahead.finish())
		if c.quitting() {
			return shown(errInterrupted)
		}
	}
}

func (c *chat) banner() string {
	p := c.agent.Provider()
	return fmt.Sprintf("nb %s · %s (%s) · %s · /help for commands, Ctrl+D to leave", Version, p.Name(), p.Model(), c.launch)
}

func (c *chat) promptString() string {
	var marks []string
	if h := c.hosts.Get(); h.Name() != "local" {
		marks = append(marks, h.Name())
	}
	if c.w.EditsInWorkspace() {
		marks = append(marks, editsMark)
	}
	if len(marks) == 0 {
		return "nb> "
	}
	return "nb [" + strings.Join(marks, " · ") + "]> "
}

// editsMark is the prompt's sign of the mode that applies edits inside
// the workspace without asking.
const editsMark = "edits: auto"

// switchEdits is Shift+Tab at the prompt: it switches between asking
// for every change and applying edits inside the workspace (the diff
// shown as they land) and returns the prompt, which shows the mode.
func (c *chat) switchEdits() string {
	c.w.SetEditsInWorkspace(!c.w.EditsInWorkspace())
	return c.promptString()
}

// readBounded reads r to the end, keeping at most max bytes: the head and
// the tail, with a marker where the middle was cut.
func readBounded(r io.Reader, max int) (string, error) {
	headMax, tailMax := max*3/4, max/4
	var head, tail []byte
	total := 0
	buf := make([]byte, 32<<10)
	for {
		if total >= maxPipedRead {
			// An endless producer (`yes | nb why`): stop here.
			if len(tail) > tailMax {
				tail = tail[len(tail)-tailMax:]
			}
			return fmt.Sprintf("%s\n[... input cut: stopped reading after %d bytes; showing the first %d and the last %d read ...]\n%s", head, total, len(head), len(tail), tail), nil
		}
		n, err := r.Read(buf)
		chunk := buf[:n]
		total += n
		if k := min(headMax-len(head), n); k > 0 {
			head = append(head, chunk[:k]...)
			chunk = chunk[k:]
		}
		tail = append(tail, chunk...)
		if len(tail) > 2*tailMax {
			tail = tail[:copy(tail, tail[len(tail)-tailMax:])]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
	}
	if total <= max {
		return string(head) + string(tail), nil
	}
	if len(tail) > tailMax {
		tail = tail[len(tail)-tailMax:]
	}
	return fmt.Sprintf("%s\n[... input cut: %d bytes in all, showing the first %d and the last %d ...]\n%s", head, total, len(head), len(tail), tail), nil
}

// fence wraps text in a Markdown code fence that its content cannot close.
func fence(text string) string {
	marker := "```"
	for strings.Contains(text, marker) {
		marker += "`"
	}
	return marker + "\n" + strings.TrimRight(text, "\n") + "\n" + marker
}
