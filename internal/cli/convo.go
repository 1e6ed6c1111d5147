package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/compact"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/llm/catalog"
	"github.com/nb-cli/nb/internal/llm/providers"
	"github.com/nb-cli/nb/internal/store"
)

// describeModel combines the built-in catalog with the configuration and
// the --reasoning flag.
func (a *app) describeModel(spec providers.Spec) (agent.Model, error) {
	info := catalog.Lookup(spec.Type, spec.Model)
	m := agent.Model{Window: info.ContextWindow, Prices: info.Prices, ThinkingBudget: spec.ThinkingBudget, CostEstimate: info.Estimate && info.Prices.Known()}
	if spec.ContextWindow > 0 {
		m.Window = spec.ContextWindow
	}
	if p := spec.Prices; p != nil {
		m.Prices = catalog.Prices{Input: p.Input, CachedInput: p.CachedInput, CacheWrite: p.CacheWrite, Output: p.Output}
		m.CostEstimate = false
	}
	// The effort goes only to models that take one: the catalog knows,
	// the configuration's "sendReasoning" overrides it.
	takes := info.Reasoning
	if spec.SendReasoning != nil {
		takes = *spec.SendReasoning
	}
	m.Reasons = takes || spec.ThinkingBudget > 0
	effort := spec.Reasoning
	if a.opts.Reasoning != "" {
		effort = a.opts.Reasoning
	}
	e, err := llm.ParseEffort(effort)
	if err != nil {
		// --reasoning was checked with the flags: this is the configuration's
		return m, fmt.Errorf("provider %q: %w", spec.Name, err)
	}
	if !takes {
		m.IgnoredReasoning = e
		return m, nil
	}
	if spec.Type == "anthropic" {
		// Anthropic reasons through extended thinking: the effort picks a
		// budget unless the configuration sets one.
		if m.ThinkingBudget == 0 {
			m.ThinkingBudget = map[llm.Effort]int{llm.EffortLow: 2048, llm.EffortMedium: 8192, llm.EffortHigh: 24576}[e]
		}
	} else {
		m.Reasoning = e
	}
	return m, nil
}

// windowTimeout bounds asking a server the context window it runs with.
const windowTimeout = 5 * time.Second

// modelWindow completes what is known of the model of p: the context
// window an OpenAI-compatible server runs it with, asked of the server
// (said once, in interactive chats or with --verbose, and remembered in
// the state directory, so it is asked again only when unknown), else a
// hint, once, on how to set it. It also says when the reasoning effort
// asked for is not sent, and when the cost is an estimate from the model's
// family.
func (c *chat) modelWindow(p llm.Provider, m agent.Model) agent.Model {
	if m.IgnoredReasoning != "" {
		c.ui.Notice(agent.NoticeWarn, fmt.Sprintf("reasoning effort %q not sent: %s does not take one (set \"sendReasoning\": true in providers.%s of the config if it does)", m.IgnoredReasoning, p.Model(), p.Name()))
	}
	say := !c.single || c.opts.Verbose
	if m.CostEstimate && say {
		c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("%s is not in nb's price table: costs are estimated from its family's prices (set \"prices\" in providers.%s of the config)", p.Model(), p.Name()))
	}
	spec := c.spec
	if spec.Type != "openai-compatible" {
		return m
	}
	known := store.NewServerModels(c.state)
	seen, _ := known.Get(spec.BaseURL, spec.Model)
	if f, ok := llm.As[llm.RoleFolder](p); ok && seen.StrictRoles {
		f.SetStrictRoles()
	}
	if spec.ContextWindow > 0 {
		return m
	}
	if seen.Window > 0 {
		m.Window = seen.Window
		return m
	}
	// A server is asked once: what it said, or that it said nothing, is
	// remembered (one that could not be asked is asked again).
	if r, ok := llm.As[llm.WindowReader](p); ok && seen.Seen.IsZero() {
		ctx, cancel := context.WithTimeout(context.Background(), windowTimeout)
		n, from, err := r.ServerWindow(ctx, spec.Model)
		cancel()
		if err == nil {
			seen.Window, seen.From, seen.Seen = n, from, c.io.Now()
			known.Put(spec.BaseURL, spec.Model, seen)
		}
		if err == nil && n > 0 {
			m.Window = n
			if say {
				c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("%s runs with a context window of %s tokens (the server's %s); nb remembers it", spec.Model, catalog.Tokens(n), from))
			}
			return m
		}
	}
	if say && !seen.Hinted && !catalog.Lookup(spec.Type, spec.Model).Known {
		hint := catalog.WindowHint(p.Name(), p.Model(), m.Window)
		if spec.Source == "env" {
			// No configuration names this provider: say how to make one.
			hint = fmt.Sprintf("context window of %s unknown (the server does not say); assuming %s tokens: start the server with a larger one, or set \"contextWindow\" in a provider entry of the config (README: Local models)", p.Model(), catalog.Tokens(m.Window))
		}
		c.ui.Notice(agent.NoticeInfo, hint)
		seen.Hinted = true
		if seen.Seen.IsZero() {
			seen.Seen = c.io.Now()
		}
		known.Put(spec.BaseURL, spec.Model, seen)
	}
	return m
}

// keepBeforeCompaction keeps the conversation a summary is about to
// shorten in the archive /clear uses (so /conversations lists and reopens
// it) and returns the file's path. Without a history nothing is kept.
func (a *app) keepBeforeCompaction(msgs []llm.Message) (string, error) {
	if a.opts.NoHistory || a.state == "" {
		return "", nil
	}
	arch := store.NewArchive(a.state, a.launch, a.io.Now)
	id, err := arch.Keep(msgs)
	if err != nil || id == "" {
		return "", err
	}
	return arch.Path(id), nil
}

// saveOutput keeps a full text cut from the conversation in the project's
// state directory, where compaction never prunes it soon.
func (a *app) saveOutput(kind, text string) (string, error) {
	// The report and the history cap the same arguments: one file.
	if !strings.HasPrefix(kind, "capped-args-") {
		return a.saveNew(kind, text)
	}
	sum := sha256.Sum256([]byte(kind + "\x00" + text))
	key := hex.EncodeToString(sum[:])
	a.savedMu.Lock()
	defer a.savedMu.Unlock()
	if path, ok := a.saved[key]; ok {
		return path, nil
	}
	path, err := a.saveNew(kind, text)
	if err == nil {
		if a.saved == nil {
			a.saved = map[string]string{}
		}
		a.saved[key] = path
	}
	return path, err
}

func (a *app) saveNew(kind, text string) (string, error) {
	if a.compacted == nil {
		a.compacted = store.NewOutputs(store.ProjectDir(a.state, a.launch), 1000, 1<<30)
	}
	f, err := a.compacted.Create(kind)
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", fmt.Errorf("save output: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("save output: %w", err)
	}
	return f.Name(), nil
}

// usageLine is the dim line after a turn: tokens in / out / cached and the
// estimated cost.
func usageLine(s agent.Stats) string {
	u := s.Usage
	if u.IsZero() {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in", catalog.Tokens(u.InputTokens))
	if u.CachedInputTokens > 0 {
		fmt.Fprintf(&b, " (%s cached)", catalog.Tokens(u.CachedInputTokens))
	}
	fmt.Fprintf(&b, " · %s out", catalog.Tokens(u.OutputTokens))
	if u.ReasoningTokens > 0 {
		fmt.Fprintf(&b, " (%s reasoning)", catalog.Tokens(u.ReasoningTokens))
	}
	if s.CostKnown {
		fmt.Fprintf(&b, " · ~%s", dollars(s.Cost))
	}
	return b.String()
}

func dollars(v float64) string {
	if v < 0.01 {
		return fmt.Sprintf("$%.4f", v)
	}
	return fmt.Sprintf("$%.2f", v)
}

// showTurnUsage prints the dim usage line: always in interactive chats,
// with --verbose in single-shot runs (on stderr).
func (c *chat) showTurnUsage() {
	if c.ed == nil && !c.opts.Verbose {
		return
	}
	if line := usageLine(c.agent.TurnStats()); line != "" {
		c.ui.Notice(agent.NoticeInfo, line)
	}
}

func (c *chat) slashCompact(ctx context.Context, _ []string) error {
	tctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	c.cancel = cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.cancel = nil
		c.mu.Unlock()
		cancel()
	}()
	if err := c.agent.Compact(tctx); err != nil {
		return err
	}
	return c.history.Save(c.agent.Messages)
}

func (c *chat) slashUsage(ctx context.Context, _ []string) error {
	var b strings.Builder
	s := c.agent.SessionStats()
	fmt.Fprintf(&b, "this session:      %d requests · %s", s.Requests, orNone(usageLine(s)))
	m := c.agent.Model()
	conv := agent.Stats{Usage: c.agent.ConversationUsage()}
	if m.Prices.Known() {
		// At the current model's prices.
		conv.Cost, conv.CostKnown = m.Prices.Cost(conv.Usage), true
	}
	fmt.Fprintf(&b, "\nthis conversation: %s (turns still in it)", orNone(usageLine(conv)))
	if m.Window > 0 {
		used := c.agent.ContextTokens(ctx)
		fmt.Fprintf(&b, "\ncontext window:    about %s of %s tokens (%d%%); compaction at %d%%",
			catalog.Tokens(used), catalog.Tokens(m.Window), used*100/m.Window, int(c.cfg.Conversation.CompactAt*100+0.5))
	}
	c.println("%s", b.String())
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no tokens counted"
	}
	return s
}

// archive is this directory's archive of earlier conversations.
func (c *chat) archive() *store.Archive { return store.NewArchive(c.state, c.launch, c.io.Now) }

// archiveCurrent keeps the current conversation in the archive and starts
// an empty one. It returns the archived conversation's ID ("" when the
// conversation was empty). On failure nothing changes.
func (c *chat) archiveCurrent() (string, error) {
	if c.history == nil {
		// --no-history: nothing is kept anywhere.
		c.agent.Messages = nil
		return "", nil
	}
	id, err := c.archive().Keep(c.agent.Messages)
	if err != nil {
		return "", err
	}
	if err := c.history.Save(nil); err != nil {
		return id, err
	}
	c.agent.Messages = nil
	return id, nil
}

// reopen makes archived conversation n (1 = the most recent) current; the
// current one, if any, is archived first.
func (c *chat) reopen(n int) error {
	if c.history == nil {
		return fmt.Errorf("this run keeps no history (--no-history): it opens no earlier conversation")
	}
	list := c.conversations()
	if len(list) == 0 {
		return fmt.Errorf("no earlier conversation in %s", c.launch)
	}
	if n < 1 || n > len(list) {
		return fmt.Errorf("no conversation %d (there are %d; see /conversations)", n, len(list))
	}
	want := list[n-1]
	msgs, err := c.archive().Take(want.ID)
	if err != nil {
		return err
	}
	if _, err := c.archive().Keep(c.agent.Messages); err != nil {
		c.archive().Keep(msgs) // put it back
		return err
	}
	if err := c.history.Save(msgs); err != nil {
		return err
	}
	c.agent.Messages = msgs
	if c.journal != nil {
		// the changes of the conversation set aside are no longer undone
		// from this one
		_ = c.journal.Reset()
	}
	c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("reopened the conversation of %s (%d messages): %s", want.Saved.Local().Format("2006-01-02 15:04"), want.Messages, want.Title))
	return nil
}

func (c *chat) slashConversations(_ context.Context, args []string) error {
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return fmt.Errorf("usage: /conversations [N]")
		}
		return c.reopen(n)
	}
	list := c.conversations()
	// In `nb /conversations` the list is the run's output: stdout.
	out := c.io.Err
	if c.single {
		out = c.io.Out
	}
	if len(list) == 0 {
		fmt.Fprintf(out, "no earlier conversations in %s (/clear keeps the current one here)\n", c.launch)
		return nil
	}
	fmt.Fprintln(out, conversationList(list)+"reopen one with /conversations N (the current conversation is kept), or start nb with --resume (-r) to pick one")
	return nil
}

// conversationList is the numbered list of archived conversations.
func conversationList(list []store.Archived) string {
	var b strings.Builder
	for i, a := range list {
		fmt.Fprintf(&b, "%3d  %s  %4d messages  %s", i+1, a.Saved.Local().Format("2006-01-02 15:04"), a.Messages, a.Title)
		if a.InUse {
			b.WriteString("  (open in " + (&store.LockedError{Holder: a.Holder}).Who() + ")")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// sayContinuing tells, once, that the run goes on with the conversation
// the launch directory kept: how much of it is sent again, and how to
// start anew.
func (c *chat) sayContinuing() {
	if c.apartNote != "" {
		c.ui.Notice(agent.NoticeInfo, c.apartNote)
		c.apartNote = ""
	}
	if !c.continues || len(c.agent.Messages) == 0 {
		return
	}
	c.continues = false
	msgs := c.agent.Messages
	c.ui.Notice(agent.NoticeInfo, fmt.Sprintf("continuing this directory's conversation: %d messages, about %s tokens (/clear starts a new one)", len(msgs), catalog.Tokens(compact.Messages(msgs))))
}

// rememberRoles keeps, for the next runs, that the server rejected the
// roles of a request and now gets tool calls and results as text.
func (c *chat) rememberRoles() {
	f, ok := llm.As[llm.RoleFolder](c.agent.Provider())
	if !ok || !f.StrictRoles() || c.spec.StrictRoles || c.spec.BaseURL == "" {
		return
	}
	known := store.NewServerModels(c.state)
	seen, _ := known.Get(c.spec.BaseURL, c.spec.Model)
	if !seen.StrictRoles {
		seen.StrictRoles, seen.Seen = true, c.io.Now()
		known.Put(c.spec.BaseURL, c.spec.Model, seen)
	}
}

// resumeAtStart applies --continue (the launch directory's conversation,
// or when it is empty the most recent one set aside) and, outside an
// interactive chat, --resume (the most recent one set aside; an
// interactive chat asks which, see pickConversation).
func (c *chat) resumeAtStart() error {
	switch {
	case c.opts.Continue && len(c.agent.Messages) == 0:
		if n := c.latest(); n > 0 {
			return c.reopen(n)
		}
	case c.opts.Resume && c.single:
		return c.reopen(max(c.latest(), 1))
	}
	return nil
}

// conversations lists the directory's earlier conversations, newest
// first, but for this run's own (kept in the archive when another nb
// holds the directory's).
func (c *chat) conversations() []store.Archived {
	var out []store.Archived
	for _, a := range c.archive().List() {
		if c.archive().Path(a.ID) != c.history.Path() {
			out = append(out, a)
		}
	}
	return out
}

// latest is the number of the most recent conversation no other nb has
// open (0: none).
func (c *chat) latest() int {
	for i, a := range c.conversations() {
		if !a.InUse {
			return i + 1
		}
	}
	return 0
}

// pickConversation asks which archived conversation --resume reopens: a
// number, Enter for the most recent; Ctrl+C keeps the current one. It
// returns io.EOF when the user left (Ctrl+D).
func (c *chat) pickConversation() error {
	list := c.conversations()
	if len(list) < 2 {
		if err := c.reopen(max(c.latest(), 1)); err != nil {
			c.ui.Notice(agent.NoticeWarn, err.Error())
		}
		return nil
	}
	c.println("%s", strings.TrimRight(conversationList(list), "\n"))
	for {
		n := len(c.ed.ed.History.Entries())
		def := max(c.latest(), 1)
		line, err := c.ed.readMessage(fmt.Sprintf("reopen which conversation? [%d] ", def))
		c.ed.ed.History.Truncate(n)
		switch {
		case errors.Is(err, errAborted):
			c.ui.Notice(agent.NoticeInfo, "kept the current conversation")
			return nil
		case err != nil:
			return err
		}
		choice := def
		if t := strings.TrimSpace(line); t != "" {
			if choice, err = strconv.Atoi(t); err != nil {
				c.ui.Notice(agent.NoticeError, fmt.Sprintf("%q is not a number from 1 to %d", t, len(list)))
				continue
			}
		}
		if err := c.reopen(choice); err != nil {
			c.ui.Notice(agent.NoticeError, err.Error())
			continue
		}
		return nil
	}
}
