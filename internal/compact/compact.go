package compact

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/llm"
)

// Saver keeps a full text that is cut from the conversation and returns the
// path where it now lives.
type Saver func(kind, text string) (path string, err error)

// Shrunk tool results keep this many first lines, and results shorter than
// shrinkMin bytes are left alone.
const (
	ShrinkLines = 20
	shrinkMin   = 2048
	shrinkHead  = 1500
	// marker starts the note of a shrunk or capped text, so nothing is
	// shrunk twice.
	marker = "[nb: "
)

// ShrinkToolResults returns a copy of msgs in which the tool results before
// index end that are longer than a few lines are replaced by their first
// lines and the path of the saved full output. Results whose output cannot
// be saved stay as they are. It returns how many results were shrunk.
func ShrinkToolResults(msgs []llm.Message, end int, save Saver) ([]llm.Message, int) {
	out := msgs
	copied := false
	n := 0
	for i := 0; i < end && i < len(msgs); i++ {
		m := msgs[i]
		if m.Role != llm.RoleTool || len(m.Text) < shrinkMin || strings.Contains(m.Text, marker+"compacted") {
			continue
		}
		full := Decoded(m.Text)
		head, lines := firstLines(full, ShrinkLines)
		path, err := save("compacted-"+m.ToolName, full)
		if err != nil {
			continue
		}
		if !copied {
			out = append([]llm.Message(nil), msgs...)
			copied = true
		}
		out[i].Text = fmt.Sprintf("%s\n%scompacted: only the start of this result is shown (%d lines, %d bytes in all); the full result is saved in %s — search it with run_cmd if you need more]",
			head, marker, lines, len(m.Text), path)
		n++
	}
	return out, n
}

// Decoded is a tool result as text a person or grep reads: a result that
// is one JSON object (run_cmd's stdout, stderr, exit code…) becomes a line
// "key: value" for each short field, then each long or multi-line text
// field under a "--- key ---" line, decoded, so that its lines are lines
// again. Any other result is returned as it is.
func Decoded(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") {
		return text
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &fields) != nil {
		return text
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var head, body strings.Builder
	for _, k := range keys {
		raw := fields[k]
		var s string
		if json.Unmarshal(raw, &s) != nil {
			fmt.Fprintf(&head, "%s: %s\n", k, raw)
			continue
		}
		if s == "" {
			continue
		}
		if len(s) <= 200 && !strings.Contains(s, "\n") {
			fmt.Fprintf(&head, "%s: %s\n", k, s)
			continue
		}
		fmt.Fprintf(&body, "--- %s ---\n%s", k, s)
		if !strings.HasSuffix(s, "\n") {
			body.WriteByte('\n')
		}
	}
	return head.String() + body.String()
}

// firstLines returns the first n lines of s, at most shrinkHead bytes of
// them (a JSON result is often one long line), and the number of lines in
// s.
func firstLines(s string, n int) (string, int) {
	lines := strings.Count(s, "\n") + 1
	if strings.HasSuffix(s, "\n") {
		lines--
	}
	end := 0
	for i := 0; i < n && end < len(s); i++ {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			end = len(s)
			break
		}
		end += j + 1
	}
	head := strings.TrimRight(s[:end], "\n")
	if len(head) > shrinkHead {
		head = head[:shrinkHead]
		for len(head) > 0 && head[len(head)-1]&0xC0 == 0x80 {
			head = head[:len(head)-1]
		}
		head += "…"
	}
	return head, lines
}

// Cap bounds the text of one message to max bytes for the saved history:
// the head and the tail stay, with a marker where the middle was cut, and
// the full text of a tool result is saved first (save may be nil). It
// reports whether the text was cut.
func Cap(m *llm.Message, max int, save Saver) bool {
	if max <= 0 || len(m.Text) <= max {
		return false
	}
	where := ""
	if save != nil && m.Role == llm.RoleTool {
		if path, err := save("capped-"+m.ToolName, Decoded(m.Text)); err == nil {
			where = "; the full text is saved in " + path
		}
	}
	note := fmt.Sprintf("\n%s%d bytes cut here: a message is kept to %d bytes in the conversation%s]\n", marker, len(m.Text)-max, max, where)
	headLen, tailLen := max*3/4, max/4
	head, tail := m.Text[:headLen], m.Text[len(m.Text)-tailLen:]
	for len(head) > 0 && head[len(head)-1]&0xC0 == 0x80 {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && tail[0]&0xC0 == 0x80 {
		tail = tail[1:]
	}
	m.Text = head + note + tail
	return true
}

// CapArguments bounds the arguments of m's tool calls to max bytes for the
// saved history: a longer one becomes a JSON object holding a note (with
// the path of the full text, saved first when save is set) and its head,
// so that it stays valid for every provider. The calls are copied, never
// changed in place (they are the ones that run). It returns how many were
// cut.
func CapArguments(m *llm.Message, max int, save Saver) int {
	if max <= 0 {
		return 0
	}
	n := 0
	for i, c := range m.ToolCalls {
		if len(c.Arguments) <= max {
			continue
		}
		if n == 0 {
			m.ToolCalls = append([]llm.ToolCall(nil), m.ToolCalls...)
		}
		n++
		where := ""
		if save != nil {
			if path, err := save("capped-args-"+c.Name, c.Arguments); err == nil {
				where = "; the full text is saved in " + path
			}
		}
		head := c.Arguments[:min(len(c.Arguments), max/2, 1024)]
		for len(head) > 0 && !utf8.ValidString(head) {
			head = head[:len(head)-1]
		}
		cut, _ := json.Marshal(map[string]string{
			"nb_cut": fmt.Sprintf("%sthe arguments of this call (%d bytes) were cut from the saved conversation%s]", marker, len(c.Arguments), where),
			"head":   head,
		})
		m.ToolCalls[i].Arguments = string(cut)
	}
	return n
}

// Boundary returns the first message of the recent part of msgs that fits
// in budget tokens: an index whose message is a user or assistant message
// (never a tool result, whose call must stay with it), or len(msgs) when
// not even the last message fits.
func Boundary(msgs []llm.Message, budget int) int {
	used := 0
	i := len(msgs)
	for i > 0 {
		n := Message(msgs[i-1])
		if used+n > budget {
			break
		}
		used += n
		i--
	}
	for i < len(msgs) && msgs[i].Role == llm.RoleTool {
		i++
	}
	return i
}

// TurnBoundary returns the first message of the recent part of msgs: the
// most recent whole turns (a user message and the calls, results and
// answer after it) that fit in budget tokens. When not even the latest
// turn fits, it returns Boundary(msgs, budget).
func TurnBoundary(msgs []llm.Message, budget int) int {
	used := 0
	keep := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		used += Message(msgs[i])
		if used > budget {
			break
		}
		if msgs[i].Role == llm.RoleUser {
			keep = i
		}
	}
	if keep == len(msgs) {
		return Boundary(msgs, budget)
	}
	return keep
}

// SummarySystem is the system prompt of a summary request.
const SummarySystem = `You compact the conversation between a user and nb, an assistant in the user's terminal, so that it can go on within the model's context window. Your summary replaces the older turns: the model will see only it and the most recent turns.

Write, in Markdown, factually and briefly:
- What the user wanted (their goals and requests, in their words where it matters).
- What was found: facts about the system, files, errors, versions.
- Commands that mattered, each with its outcome (exit status, key lines of output, paths of saved full outputs).
- The current state: working directory, files changed, services started or stopped.
- Open questions and what was about to happen next.

Keep paths, names, numbers and error messages exact. Do not add a preamble or address the user.`

// transcriptItemMax bounds one message in the transcript of a summary
// request.
const transcriptItemMax = 6000

// SummaryRequest builds the request that asks the model to summarise older
// messages, within maxInput tokens (the oldest items are left out first).
func SummaryRequest(older []llm.Message, maxInput, maxTokens int) *llm.Request {
	budget := maxInput - Text(SummarySystem) - 200
	// Shorten every item before leaving the oldest out.
	var items []string
	for limit := transcriptItemMax; ; limit /= 2 {
		items = items[:0]
		total := 0
		for _, m := range older {
			it := transcriptItem(m, limit)
			items = append(items, it)
			total += Text(it) + 2
		}
		if total <= budget || limit < 400 {
			break
		}
	}
	total := 0
	first := len(items)
	for first > 0 {
		n := Text(items[first-1]) + 2
		if total+n > budget {
			break
		}
		total += n
		first--
	}
	var b strings.Builder
	b.WriteString("Summarise this conversation (the transcript of the turns to compact):\n\n")
	if first > 0 {
		fmt.Fprintf(&b, "[%d older items did not fit and are left out]\n\n", first)
	}
	for _, it := range items[first:] {
		b.WriteString(it)
		b.WriteString("\n\n")
	}
	return &llm.Request{
		System:    SummarySystem,
		Messages:  []llm.Message{{Role: llm.RoleUser, Text: b.String()}},
		MaxTokens: maxTokens,
	}
}

func transcriptItem(m llm.Message, limit int) string {
	var b strings.Builder
	switch {
	case m.Summary:
		b.WriteString("### Summary of still earlier turns\n")
	case m.Role == llm.RoleTool:
		fmt.Fprintf(&b, "### Result of %s", m.ToolName)
		if m.IsError {
			b.WriteString(" (error)")
		}
		b.WriteString("\n")
	default:
		fmt.Fprintf(&b, "### %s\n", m.Role)
	}
	text := m.Text
	if len(text) > limit {
		c := llm.Message{Text: text}
		Cap(&c, limit, nil)
		text = c.Text
	}
	b.WriteString(text)
	if len(m.Images) > 0 {
		fmt.Fprintf(&b, "\n[%d image(s)]", len(m.Images))
	}
	for _, c := range m.ToolCalls {
		args := c.Arguments
		if len(args) > limit/2 {
			args = args[:limit/2] + "…"
		}
		fmt.Fprintf(&b, "\n→ %s %s", c.Name, args)
	}
	return b.String()
}

// SummaryPrefix starts the text of a summary message.
const SummaryPrefix = "[nb: the older part of this conversation was compacted into this summary; full outputs of commands are in the files it names]\n\n"

// summaryPrefixKept starts the text of a summary message whose
// conversation was kept whole before it replaced older turns.
const summaryPrefixKept = "[nb: the older part of this conversation was compacted into this summary; the whole conversation before it is kept in %s (JSON: grep it for exact details); full outputs of commands are in the files it names]\n\n"

// Replace returns the conversation that replaces msgs: a summary message
// standing for msgs[:keep] (naming kept, the copy of the whole
// conversation, when set), then msgs[keep:]. When the turn in flight
// begins in the summarised part (0 <= inflight < keep), its user message
// stays, verbatim, right after the summary, so it is never lost.
func Replace(msgs []llm.Message, keep int, summary string, inflight int, kept string) []llm.Message {
	out := make([]llm.Message, 0, len(msgs)-keep+2)
	prefix := SummaryPrefix
	if kept != "" {
		prefix = fmt.Sprintf(summaryPrefixKept, kept)
	}
	out = append(out, llm.Message{Role: llm.RoleUser, Text: prefix + strings.TrimSpace(summary), Summary: true})
	if inflight >= 0 && inflight < keep {
		out = append(out, msgs[inflight])
	}
	return append(out, msgs[keep:]...)
}
