// Package render is what the user sees of a conversation in the terminal:
// the spinner while the model thinks, the streamed markdown answer, one
// line per tool call with a live view of running commands, notices, and
// the approval prompt (package approval). It implements agent.UI.
//
// Only the answer goes to stdout; everything else goes to stderr, so
// `nb question > file` captures the answer alone. Nothing animates when
// the stream is not a terminal, and colour follows iostreams.IO.Color.
package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/render/style"
)

// Approver asks the user about a batch of calls (approval.Prompter).
type Approver interface {
	Approve(ctx context.Context, batch []*agent.Pending) ([]agent.Answer, error)
}

// Options configures a Terminal.
type Options struct {
	// Verbose prints the full model-visible result after every call.
	Verbose bool
	// Markdown renders answers as terminal markdown when stdout is a
	// terminal (config render.markdown); otherwise the raw text is written.
	Markdown bool
	// LiveLines is how many trailing output lines of a running command are
	// shown (config render.liveLines; 0 means the default 5, negative none).
	LiveLines int
	// KeepResults is how many call results LastResults keeps (default 20).
	KeepResults int
	// Approver asks approval questions; nil uses approval.New(io).
	Approver Approver
	// Frame is the redraw interval of the spinner and the live area
	// (default 50ms, at most 20 redraws a second).
	Frame time.Duration
	// LiveDelay is how long a call runs before its live area appears, so
	// quick calls print only their summary line (default 150ms).
	LiveDelay time.Duration
	// OnInterrupt is called when the user presses Ctrl+C at an approval
	// prompt (the terminal is in raw mode then, so no SIGINT is sent); the
	// CLI passes the function cancelling the running turn.
	OnInterrupt func()
	// Approving is called before an approval prompt takes the keyboard;
	// the function it returns, once the prompt is answered (the CLI
	// pauses what reads keys typed during the turn).
	Approving func() (done func())
	// HoldText keeps the answer text (written raw, stdout being no
	// terminal) until Flush: for a pipe whose reader prints on the
	// terminal the questions are asked on (held.go).
	HoldText bool
}

// Record is one finished (or refused) call kept for /last.
type Record struct {
	// Summary is the call's transcript line without styling.
	Summary string
	// Content is exactly what the model received.
	Content string
	IsError bool
}

// Terminal renders a conversation on a terminal (or on plain streams).
type Terminal struct {
	io   *iostreams.IO
	opts Options
	pal  style.Palette

	mu      sync.Mutex
	wg      sync.WaitGroup
	spin    *spinner
	live    *toolView // the view whose live area is on screen, if any
	md      *mdStream
	rawText bool // the current answer is written raw; lastNL tracks it
	lastNL  bool
	// answer is the answer text kept until Flush (Options.HoldText).
	answer  heldText
	results []Record
	closed  bool
	// typeahead is what the user has typed during the turn, shown after
	// the spinner.
	typeahead string
	// held counts the questions holding the screen (Hold).
	held int
}

var _ agent.UI = (*Terminal)(nil)

// New returns a Terminal drawing on io.
func New(io *iostreams.IO, opts Options) *Terminal {
	if opts.LiveLines == 0 {
		opts.LiveLines = 5
	}
	if opts.KeepResults <= 0 {
		opts.KeepResults = 20
	}
	if opts.Frame <= 0 {
		opts.Frame = 50 * time.Millisecond
	}
	if opts.LiveDelay <= 0 {
		opts.LiveDelay = 150 * time.Millisecond
	}
	if opts.Approver == nil {
		opts.Approver = approval.New(io)
	}
	if io.Now == nil {
		io.Now = time.Now
	}
	return &Terminal{io: io, opts: opts, pal: style.Palette{Color: io.Color}}
}

// Palette is the terminal's palette, for the CLI's own messages.
func (t *Terminal) Palette() style.Palette { return t.pal }

// width is the usable width of stderr lines: one less than the terminal
// so the cursor never sits in the pending-wrap column; 0 (no limit) when
// stderr is not a terminal.
func (t *Terminal) width() int {
	if !t.io.ErrTTY {
		return 0
	}
	return termWidth(t.io)
}

func termWidth(io *iostreams.IO) int {
	w := 80
	if io.Width != nil {
		if v := io.Width(); v > 0 {
			w = v
		}
	}
	if w > 1 {
		w--
	}
	return w
}

// settle removes ephemeral content (spinner, live area, answer preview)
// before permanent output. Callers hold t.mu.
func (t *Terminal) settle() {
	if t.spin != nil {
		t.spin.stop()
		t.spin = nil
	}
	if t.live != nil {
		t.live.erase()
	}
	if t.md != nil {
		t.md.clearPreview()
	}
}

// errLine writes one permanent line to stderr.
func (t *Terminal) errLine(s string) {
	fmt.Fprint(t.io.Err, s+"\n")
}

// Waiting starts the spinner until the first token or event.
func (t *Terminal) Waiting() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.settle()
	if !t.io.ErrTTY || t.closed {
		return
	}
	t.spin = startSpinner(t, "thinking")
}

// Text streams answer text.
func (t *Terminal) Text(chunk string) {
	if chunk == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.spin != nil {
		t.spin.stop()
		t.spin = nil
	}
	if t.live != nil {
		t.live.erase()
	}
	if t.opts.Markdown && t.io.OutTTY {
		if t.md == nil {
			t.md = newMDStream(t.io.Out, t.pal, func() int { return termWidth(t.io) }, true)
			t.md.status = t.typeaheadLine
		}
		t.md.write(chunk)
		return
	}
	t.rawText = true
	t.writeAnswer(chunk)
	t.lastNL = strings.HasSuffix(chunk, "\n")
}

// writeAnswer writes raw answer text to stdout, or holds it (HoldText).
func (t *Terminal) writeAnswer(s string) {
	if t.opts.HoldText {
		t.answer.WriteString(s)
		return
	}
	fmt.Fprint(t.io.Out, s)
}

// Flush writes the answer text held back (Options.HoldText): the turn is
// over, no question will be drawn until the next.
func (t *Terminal) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.answer.flush(t.io.Out)
}

// EndText ends the current answer, finishing its last line.
func (t *Terminal) EndText() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.spin != nil {
		t.spin.stop()
		t.spin = nil
	}
	if t.md != nil {
		t.md.end()
		t.md = nil
	}
	if t.rawText && !t.lastNL {
		t.writeAnswer("\n")
	}
	t.rawText, t.lastNL = false, false
}

// Notice shows a one-line message on stderr.
func (t *Terminal) Notice(kind agent.NoticeKind, msg string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.settle()
	t.errLine(formatNotice(t.pal, kind, msg, t.width()))
}

func formatNotice(pal style.Palette, kind agent.NoticeKind, msg string, width int) string {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	for i, l := range lines {
		lines[i] = style.Sanitize(l)
		if i > 0 {
			lines[i] = "  " + lines[i]
		}
	}
	switch kind {
	case agent.NoticeWarn:
		lines[0] = pal.Warn(style.IconNote) + " " + lines[0]
	case agent.NoticeError:
		lines[0] = pal.Fail(style.IconFail) + " " + lines[0]
	default:
		for i := range lines {
			lines[i] = pal.Muted(lines[i])
		}
	}
	return strings.Join(lines, "\n")
}

// Approve asks about calls needing approval. Without a terminal on both
// stdin and stderr it asks nothing and returns approval.ErrNoTerminal with
// every call declined.
func (t *Terminal) Approve(ctx context.Context, batch []*agent.Pending) ([]agent.Answer, error) {
	if !CanPrompt(t.io) {
		return make([]agent.Answer, len(batch)), approval.ErrNoTerminal
	}
	t.mu.Lock()
	t.settle()
	t.mu.Unlock()
	if t.opts.Approving != nil {
		defer t.opts.Approving()()
	}
	answers, err := t.opts.Approver.Approve(ctx, batch)
	if errors.Is(err, approval.ErrInterrupted) {
		// The prompt is gone; each call's line takes its place, as after
		// any other answer. None of them runs: the turn stops.
		for _, p := range batch {
			t.Refused(p, "interrupted (Ctrl+C)")
		}
		if t.opts.OnInterrupt != nil {
			t.opts.OnInterrupt()
		}
	}
	return answers, err
}

// Releaser asks whether withheld secrets may go to the model
// (approval.Prompter).
type Releaser interface {
	Release(ctx context.Context, from string, found []redact.Found) (bool, error)
}

// Release asks the user, at a terminal, whether secrets withheld from a
// text may go to the model after all (agent.ReleaseFunc); without a
// terminal, or an approver that can ask it, they stay withheld.
func (t *Terminal) Release(ctx context.Context, from string, found []redact.Found) bool {
	r, ok := t.opts.Approver.(Releaser)
	if !ok || !CanPrompt(t.io) {
		return false
	}
	t.mu.Lock()
	t.settle()
	t.mu.Unlock()
	if t.opts.Approving != nil {
		defer t.opts.Approving()()
	}
	yes, err := r.Release(ctx, from, found)
	if errors.Is(err, approval.ErrInterrupted) && t.opts.OnInterrupt != nil {
		t.opts.OnInterrupt()
	}
	return yes && err == nil
}

// CanPrompt reports whether approval questions can be asked: stdin and
// stderr are both terminals.
func CanPrompt(io *iostreams.IO) bool { return io.InTTY && io.ErrTTY }

// Refused shows a call that did not run.
func (t *Terminal) Refused(p *agent.Pending, why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.settle()
	line := refusedLine(t.pal, p, why, t.width())
	t.errLine(line)
	t.remember(Record{Summary: style.Strip(line), Content: "not run: " + why, IsError: true})
}

// ToolStart shows a call starting; the view streams its output live.
func (t *Terminal) ToolStart(p *agent.Pending) agent.ToolView {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.settle()
	v := &toolView{t: t, p: p, start: t.io.Now(), keep: t.opts.LiveLines}
	if t.io.ErrTTY && t.live == nil && !t.closed {
		t.live = v
		v.startTicker()
	}
	return v
}

// remember keeps r for LastResults. Callers hold t.mu.
func (t *Terminal) remember(r Record) {
	t.results = append(t.results, r)
	if over := len(t.results) - t.opts.KeepResults; over > 0 {
		t.results = append([]Record(nil), t.results[over:]...)
	}
}

// LastResults returns the kept results, oldest first.
func (t *Terminal) LastResults() []Record {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Record(nil), t.results...)
}

// ShowLast prints the n-th most recent result in full (1 is the last) on
// stderr and reports whether there was one.
func (t *Terminal) ShowLast(n int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n < 1 || n > len(t.results) {
		return false
	}
	t.settle()
	r := t.results[len(t.results)-n]
	t.errLine(r.Summary)
	t.writeContent(r.Content)
	return true
}

// writeContent prints a model-visible result indented and muted. A JSON
// object (run_cmd's result) is shown field by field, multi-line strings
// decoded into their lines, so output reads as output.
func (t *Terminal) writeContent(content string) {
	lines := resultLines(content)
	if len(lines) == 0 {
		t.errLine("  " + t.pal.Muted("(empty)"))
		return
	}
	w := t.width()
	for _, l := range lines {
		l = style.Sanitize(l)
		if w > 4 {
			for _, part := range strings.Split(style.Wrap(l, w-2), "\n") {
				t.errLine("  " + t.pal.Muted(part))
			}
			continue
		}
		t.errLine("  " + t.pal.Muted(l))
	}
}

// resultLines lays out a result for reading.
func resultLines(content string) []string {
	content = strings.TrimRight(content, "\n")
	if content == "" {
		return nil
	}
	if fields, ok := jsonFields(content); ok {
		var out []string
		for _, f := range fields {
			var s string
			if err := json.Unmarshal(f.value, &s); err == nil {
				if strings.Contains(strings.TrimRight(s, "\n"), "\n") {
					out = append(out, f.key+":")
					for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
						out = append(out, "  "+l)
					}
					continue
				}
				if s == "" {
					out = append(out, f.key+": \"\"")
					continue
				}
				out = append(out, f.key+": "+strings.TrimRight(s, "\n"))
				continue
			}
			var b bytes.Buffer
			if json.Compact(&b, f.value) == nil {
				out = append(out, f.key+": "+b.String())
			}
		}
		return out
	}
	return strings.Split(content, "\n")
}

type jsonField struct {
	key   string
	value json.RawMessage
}

// jsonFields decodes a JSON object keeping its key order.
func jsonFields(s string) ([]jsonField, bool) {
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []jsonField
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, ok := tok.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, jsonField{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	if dec.More() {
		return nil, false
	}
	return out, true
}

// Close stops the spinner and any live area and waits for their
// goroutines. The Terminal draws nothing animated afterwards.
func (t *Terminal) Close() error {
	t.mu.Lock()
	t.settle()
	t.answer.flush(t.io.Out)
	t.closed = true
	if t.live != nil {
		t.live.stopTicker()
		t.live = nil
	}
	t.mu.Unlock()
	t.wg.Wait()
	return nil
}

// spinner animates "⠋ thinking 1.2s" on stderr.
type spinner struct {
	t     *Terminal
	label string
	start time.Time
	quit  chan struct{}
	done  bool
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinStep is how long each spinner frame shows.
const spinStep = 100 * time.Millisecond

func startSpinner(t *Terminal, label string) *spinner {
	s := &spinner{t: t, label: label, start: t.io.Now(), quit: make(chan struct{})}
	s.draw()
	quit := s.quit
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		tick := time.NewTicker(spinStep)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				t.mu.Lock()
				if !s.done {
					s.draw()
				}
				t.mu.Unlock()
			}
		}
	}()
	return s
}

// SetTypeahead shows text as typed for the next message while the model
// works (after the spinner); "" shows nothing.
func (t *Terminal) SetTypeahead(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.typeahead = text
	if t.spin != nil && !t.spin.done {
		t.spin.draw()
	}
	if t.md != nil {
		t.md.clearPreview()
		t.md.drawPreview()
	}
}

// typeaheadLine is the line under a streaming answer showing what was
// typed meanwhile ("" for none). Callers hold t.mu.
func (t *Terminal) typeaheadLine() string {
	if t.typeahead == "" {
		return ""
	}
	return t.pal.Muted("next: ") + style.Sanitize(t.typeahead)
}

// draw writes the spinner line, with what was typed ahead. Callers hold
// t.mu.
func (s *spinner) draw() {
	el := s.t.io.Now().Sub(s.start)
	text := s.t.pal.Accent(spinFrames[int(el/spinStep)%len(spinFrames)]) + " " + s.t.pal.Muted(fmt.Sprintf("%s %.1fs", s.label, el.Seconds()))
	if ta := s.t.typeahead; ta != "" {
		text += s.t.pal.Muted("  next: ") + style.Sanitize(ta)
	}
	fmt.Fprint(s.t.io.Err, "\r"+style.Truncate(text, s.t.width())+"\x1b[K")
}

// stop ends the spinner and erases it. Callers hold t.mu.
func (s *spinner) stop() {
	if s.done {
		return
	}
	s.done = true
	close(s.quit)
	fmt.Fprint(s.t.io.Err, "\r\x1b[K")
}

// Hold keeps the screen still while a question other than an approval
// (sudo's password) has the terminal during a call: the live area is
// erased and not drawn again until the returned function is called.
func (t *Terminal) Hold() (release func()) {
	t.mu.Lock()
	t.settle()
	t.held++
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			t.held--
			t.mu.Unlock()
		})
	}
}
