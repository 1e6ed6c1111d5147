// Package approval asks the user whether the model's tool calls may run:
// one prompt per call, or one list for a batch of calls, answered with a
// single keypress in raw mode. Keystrokes typed before a prompt appeared
// are discarded, so they never answer it.
package approval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/visible"
)

// ErrNoTerminal means there is no terminal to ask at; the call must be
// refused with a remedy instead.
var ErrNoTerminal = errors.New("no terminal to ask at")

// ErrInterrupted means the user pressed Ctrl+C at a prompt. The answers
// returned with it are valid: every call is declined.
var ErrInterrupted = errors.New("interrupted at the approval prompt")

// Prompter asks approval questions at a terminal.
type Prompter struct {
	// In delivers keystrokes.
	In io.Reader
	// Fd is the terminal file descriptor behind In, put in raw mode while
	// asking and polled for input; -1 when In is not a terminal (tests).
	Fd int
	// Out receives the prompt (the terminal's stderr).
	Out io.Writer
	// Width returns the terminal width in columns.
	Width func() int
	// Palette styles the prompt.
	Palette style.Palette
	// EraseLimit is the largest prompt, in rows, that is erased after it
	// is answered, `?` expansions included (0: one less than the
	// terminal's height, or 12 when that is unknown; negative: never).
	// A larger prompt, part of which has scrolled away, stays on screen
	// followed by the answer.
	EraseLimit int
	// Height returns the terminal height in rows (nil or 0: unknown).
	Height func() int
	// Save keeps a text too large to show at the prompt (`?` on a huge
	// command or content) and returns where; nil: SaveTemp.
	Save func(text string) (path string, err error)
}

// New returns a prompter reading keys from io.In and drawing on io.Err.
func New(io *iostreams.IO) *Prompter {
	fd := -1
	if io.InTTY {
		fd = io.InFd
	}
	p := &Prompter{In: io.In, Fd: fd, Out: io.Err, Width: io.Width, Palette: style.Palette{Color: io.Color}}
	if fd >= 0 {
		p.Height = func() int { return termHeight(fd) }
	}
	return p
}

// Approve asks about every pending call and returns one answer per call,
// in order. A single call gets the single prompt; several get a numbered
// list answered at once or one by one. Ctrl+C declines everything and
// returns ErrInterrupted with the answers; a cancelled ctx declines
// everything and returns ctx's error.
func (p *Prompter) Approve(ctx context.Context, batch []*agent.Pending) ([]agent.Answer, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	if p.In == nil || p.Out == nil {
		return declineAll(len(batch), ""), ErrNoTerminal
	}
	if p.Fd >= 0 {
		restore, err := rawMode(p.Fd)
		if err != nil {
			return declineAll(len(batch), ""), fmt.Errorf("approval: raw mode: %w", err)
		}
		defer restore()
		discardInput(p.Fd)
	}
	s := &session{p: p, keys: &keyReader{r: p.In, fd: p.Fd}, w: crlfWriter{p.Out}}
	defer s.removeTemps()
	if len(batch) == 1 {
		a, err := s.single(ctx, batch[0], "")
		return []agent.Answer{a}, err
	}
	return s.batch(ctx, batch)
}

func declineAll(n int, reason string) []agent.Answer {
	out := make([]agent.Answer, n)
	for i := range out {
		out[i].Reason = reason
	}
	return out
}

// session is one Approve call: the screen state of the prompt being shown.
type session struct {
	p    *Prompter
	keys *keyReader
	w    io.Writer
	// rows counts the rows drawn since the current prompt started, with
	// the cursor on the last one.
	rows int
	// col is the width of the choice line the cursor is on.
	col int
	// temps are the files SaveTemp wrote for `?`, removed once answered.
	temps []string
}

// removeTemps removes the files `?` saved (a reader that has one open
// keeps reading it).
func (s *session) removeTemps() {
	for _, path := range s.temps {
		_ = os.Remove(path)
	}
}

// termWidth is the terminal's width in columns.
func (s *session) termWidth() int {
	if s.p.Width != nil {
		if v := s.p.Width(); v > 0 {
			return v
		}
	}
	return 80
}

// width is the layout width: one column is left free so the cursor never
// sits in the pending-wrap position.
func (s *session) width() int {
	w := s.termWidth()
	if w > 1 {
		w--
	}
	return w
}

// rowsOf is how many rows text takes on the terminal. It must not
// overcount: erasing goes up that many rows.
func (s *session) rowsOf(text string) int { return style.Rows(text, s.termWidth()) }

// line writes one full line (the cursor ends at the start of the next).
func (s *session) line(text string) {
	fmt.Fprint(s.w, text+"\n")
	s.rows += s.rowsOf(text)
}

// ask writes the choice line without a newline.
func (s *session) ask(text string) {
	fmt.Fprint(s.w, text)
	s.rows += s.rowsOf(text)
	s.col = style.Width(text)
}

// eraseLimit is the largest number of rows finish can erase.
func (s *session) eraseLimit() int {
	if s.p.EraseLimit != 0 {
		return s.p.EraseLimit
	}
	if s.p.Height != nil {
		if h := s.p.Height(); h > 1 {
			return h - 1
		}
	}
	return 12
}

// finish removes the prompt (with anything `?` showed) from the screen
// when all of it is still there; otherwise it leaves it and writes the
// answer after the choices.
func (s *session) finish(answer string) {
	if s.rows > 0 && s.rows <= s.eraseLimit() {
		if s.rows > 1 {
			fmt.Fprintf(s.w, "\x1b[%dA", s.rows-1)
		}
		fmt.Fprint(s.w, "\r\x1b[J")
	} else {
		if s.col <= 0 || s.col+style.Width(answer) >= s.width() {
			fmt.Fprint(s.w, "\r\n  ")
		}
		fmt.Fprint(s.w, s.p.Palette.Muted(answer)+"\n")
	}
	s.col = 0
	s.rows = 0
}

// Answers to the single prompt.
const (
	ansYes = iota
	ansNo
	ansAlways
	ansSession
)

func (s *session) single(ctx context.Context, pd *agent.Pending, counter string) (agent.Answer, error) {
	d := pd.Decision
	if d == nil {
		d = &policy.Decision{Display: pd.Call.Name}
	}
	pal := s.p.Palette
	width := s.width()
	// A rule too long to show is never saved by a keypress.
	always := OfferAlways(d) && len(d.Rule) <= promptBytes
	defYes := DefaultYes(d)
	head := pal.Accent(style.IconAsk) + " "
	if counter != "" {
		head += pal.Muted(counter) + " "
	}
	display := DisplayLine(d)
	lines, cut, hidden := shape(pal, display, width-2)
	big := hidden || tooLarge(d)
	if big {
		// What is not on the screen is never approved by a glance.
		defYes = false
	}
	if pd.Description != "" {
		// The intent is worth a few lines: wrap it rather than cut it
		// (only its head: a model may send megabytes).
		intent, _ := visible.Elide(pd.Description, 2048, 0)
		desc := strings.Split(style.Wrap(oneLine(intent.Head), max(width-style.Width(head), 10)), "\n")
		if len(desc) > 3 {
			desc = append(desc[:2], style.Truncate(strings.Join(desc[2:], " "), width-style.Width(head)))
		}
		for i, l := range desc {
			if i == 0 {
				s.line(head + pal.Bold(l))
			} else {
				s.line(strings.Repeat(" ", style.Width(head)) + pal.Bold(l))
			}
		}
		for _, l := range lines {
			s.line("  " + l)
		}
	} else {
		s.line(style.Truncate(head, width) + lines[0])
		for _, l := range lines[1:] {
			s.line("  " + l)
		}
	}
	s.why(d, "  ")
	var pg *pager
	if pd.Changes != nil {
		pg = &pager{lines: DiffLines(pal, pd.Changes, pd.Cwd, width-2)}
		s.showPage(pg, s.firstPage(), "? shows more")
	} else if big {
		s.line("  " + pal.Warn(style.Truncate(tooLargeNote(d), width-2)))
	}
	hintsNow := func() string {
		more := moreLabel(d, cut)
		if pg != nil && pg.rest() > 0 {
			more = " more diff"
		}
		return fitChoices(width, choices(pal, defYes, always, more), choices(pal, defYes, always, ""), shortChoices(pal, defYes, always, false), shortChoices(pal, defYes, always, true)) + " "
	}
	hints := hintsNow()
	s.ask(hints)
	for {
		k, err := s.keys.read(ctx)
		if err != nil {
			s.finish("no")
			return agent.Answer{}, err
		}
		choice := -1
		switch {
		case k.kind == keyEnter:
			choice = ansNo
			if defYes {
				choice = ansYes
			}
		case k.kind == keyCtrlC:
			s.finish("no (interrupted)")
			return agent.Answer{}, ErrInterrupted
		case k.kind == keyEsc || k.kind == keyCtrlD:
			s.finish("no")
			return agent.Answer{}, nil
		case k.r == 'y' || k.r == 'Y':
			choice = ansYes
		case k.r == 'n' || k.r == 'N':
			choice = ansNo
		case (k.r == 'a' || k.r == 'A') && always:
			choice = ansAlways
		case (k.r == 's' || k.r == 'S') && always:
			choice = ansSession
		case k.r == '?' && pg != nil && pg.rest() > 0:
			// the diff first, a screen at a time; then the whole call
			fmt.Fprint(s.w, "\n")
			s.showPage(pg, s.page(), "? shows more")
			hints = hintsNow()
			s.ask(hints)
			continue
		case k.r == '?':
			fmt.Fprint(s.w, "\n")
			s.expand(d)
			if always {
				s.line("  " + pal.Muted("[a]lways saves ") + style.Sanitize(d.Rule) + pal.Muted(" for this project; [s] allows it for this session only"))
			}
			s.ask(hints)
			continue
		default:
			continue // not an answer: ignored
		}
		switch choice {
		case ansYes:
			s.finish("yes")
			return agent.Answer{Approved: true}, nil
		case ansAlways:
			s.finish("always")
			fmt.Fprint(s.w, "  "+pal.Muted("saved rule: ")+style.Sanitize(d.Rule)+pal.Muted("  (/approvals to revoke)")+"\n")
			return agent.Answer{Approved: true, Always: true}, nil
		case ansSession:
			s.finish("this session")
			fmt.Fprint(s.w, "  "+pal.Muted("allowed for this session: ")+style.Sanitize(d.Rule)+"\n")
			return agent.Answer{Approved: true, Session: true}, nil
		default:
			fmt.Fprint(s.w, "\n")
			reason, err := s.reason(ctx)
			s.finish("no")
			return agent.Answer{Reason: reason}, err
		}
	}
}

// reason asks for an optional explanation of a rejection.
func (s *session) reason(ctx context.Context) (string, error) {
	prompt := "  " + s.p.Palette.Muted("reason (optional, Enter to skip): ")
	text, err := s.readLine(ctx, prompt)
	s.col = -1 // the answer goes on a line of its own
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(text), nil
}

// readLine reads one line with echo and minimal editing (Backspace,
// Ctrl+U); Esc returns "" and Ctrl+C returns ErrInterrupted.
func (s *session) readLine(ctx context.Context, prompt string) (string, error) {
	var buf []rune
	drawn := 1
	redraw := func() {
		if drawn > 1 {
			fmt.Fprintf(s.w, "\x1b[%dA", drawn-1)
		}
		text := prompt + string(buf)
		fmt.Fprint(s.w, "\r\x1b[J"+text)
		drawn = s.rowsOf(text)
	}
	redraw()
	for {
		k, err := s.keys.read(ctx)
		if err != nil {
			s.rows += drawn
			return "", err
		}
		switch k.kind {
		case keyEnter:
			s.rows += drawn
			return string(buf), nil
		case keyEsc:
			s.rows += drawn
			return "", nil
		case keyCtrlC:
			s.rows += drawn
			return "", ErrInterrupted
		case keyBackspace:
			if len(buf) > 0 {
				buf = buf[:len(buf)-1]
				redraw()
			}
		case keyCtrlU:
			buf = buf[:0]
			redraw()
		case keyRune:
			if len(buf) < 2000 {
				buf = append(buf, k.r)
				fmt.Fprint(s.w, string(k.r))
				drawn = s.rowsOf(prompt + string(buf))
			}
		}
	}
}

// expand shows the whole text behind a display line (`?`). A text of more
// than a few screens is saved to a file instead, and the prompt names it.
func (s *session) expand(d *policy.Decision) {
	full := fullText(d)
	label := "full command"
	if isWrite(d) {
		label = "content"
	}
	pal := s.p.Palette
	if tooLarge(d) {
		save := s.p.Save
		if save == nil {
			save = func(text string) (string, error) {
				path, err := SaveTemp(text)
				if err == nil {
					s.temps = append(s.temps, path)
				}
				return path, err
			}
		}
		path, err := save(full)
		if err != nil {
			s.line("  " + pal.Fail(style.Sanitize(fmt.Sprintf("could not save the %s (%s bytes): %v", label, visible.Count(len(full)), err))))
			return
		}
		size := visible.Count(len(full)) + " bytes"
		if n := strings.Count(strings.TrimRight(full, "\n"), "\n") + 1; n > 1 {
			size += ", " + visible.Count(n) + " lines"
		}
		s.line("  " + pal.Muted(label+" ("+size+") saved to ") + visible.String(path))
		s.line("  " + pal.Muted("read it with: ") + "less " + visible.String(path) + pal.Muted("  (removed once answered)"))
		return
	}
	s.line("  " + pal.Muted(label+":"))
	for _, l := range strings.Split(strings.TrimRight(full, "\n"), "\n") {
		s.line("    " + visible.String(l))
	}
}

// SaveTemp writes text to a new file only the user can read, in the
// temporary directory, and returns its path.
func SaveTemp(text string) (string, error) {
	f, err := os.CreateTemp("", "nb-approve-*.txt")
	if err != nil {
		return "", fmt.Errorf("save: %w", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", fmt.Errorf("save: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("save: %w", err)
	}
	return f.Name(), nil
}

// warnReasons is the reason line under a warned call: its reasons, less
// those that only repeat the display line ("writes notes.txt" under
// "write: notes.txt").
func warnReasons(d *policy.Decision) string {
	disp := DisplayLine(d)
	var keep []string
	for _, r := range d.Reasons {
		if what, ok := strings.CutPrefix(r, "writes "); ok && d.Category.Writes() && (what == "a file" || strings.Contains(disp, what)) {
			continue
		}
		keep = append(keep, r)
	}
	return style.Sanitize(strings.Join(keep, "; "))
}

// why writes the line under a call that says why it is asked: for a
// warned call its reasons, else the most telling one, on one row.
func (s *session) why(d *policy.Decision, indent string) {
	room := s.width() - style.Width(indent)
	if Warned(d) {
		if r := warnReasons(d); r != "" {
			s.line(indent + s.p.Palette.Warn(style.Truncate(r, room)))
		}
		return
	}
	if r := askReason(d); r != "" {
		s.line(indent + s.p.Palette.Muted(style.Truncate(r, room)))
	}
}

// askReason is the most telling of the reasons a call is asked: what it
// reads of a secret, sends over the network or changes comes before its
// not being known to be read-only.
func askReason(d *policy.Decision) string {
	best, rank := "", -1
	for _, r := range d.Reasons {
		k := 0
		switch {
		case strings.HasPrefix(r, "sensitive"):
			k = 4
		case strings.Contains(r, "network") || strings.Contains(r, "sends"):
			k = 3
		case strings.HasPrefix(r, "writes") || strings.Contains(r, "changes"):
			k = 2
		case strings.Contains(r, "not on the safe list") || strings.Contains(r, "not known to be read-only"):
			k = 0
		default:
			k = 1
		}
		if k > rank {
			best, rank = r, k
		}
	}
	return style.Sanitize(oneLine(best))
}

func (s *session) batch(ctx context.Context, batch []*agent.Pending) ([]agent.Answer, error) {
	pal := s.p.Palette
	width := s.width()
	anyWarn := false
	for _, pd := range batch {
		if pd.Decision == nil || Warned(pd.Decision) {
			anyWarn = true
		}
	}
	s.line(pal.Accent(style.IconAsk) + " " + pal.Bold(fmt.Sprintf("%d calls to approve", len(batch))))
	numW := len(fmt.Sprint(len(batch)))
	anyCut := false
	for i, pd := range batch {
		d := pd.Decision
		if d == nil {
			d = &policy.Decision{Display: pd.Call.Name}
		}
		num := fmt.Sprintf("  %*d  ", numW, i+1)
		indent := strings.Repeat(" ", style.Width(num))
		lines, cut, hidden := shape(pal, DisplayLine(d), width-style.Width(num))
		anyCut = anyCut || cut
		big := hidden || tooLarge(d)
		if big {
			anyWarn = true // default No: part of it is not on the screen
		}
		first := num + lines[0]
		if pd.Description != "" && len(lines) == 1 {
			if room := width - style.Width(first) - 4; room >= 8 {
				intent, _ := visible.Elide(pd.Description, 2048, 0)
				first += pal.Muted("  · " + style.Truncate(oneLine(intent.Head), room))
			}
		}
		s.line(first)
		for _, l := range lines[1:] {
			s.line(indent + l)
		}
		s.why(d, indent)
		if big {
			s.line(indent + pal.Warn(style.Truncate(tooLargeNote(d), width-style.Width(indent))))
		}
	}
	more := ""
	if anyCut {
		more = " show full"
	}
	hintLine := fitChoices(width, batchChoices(pal, anyWarn, more, false), batchChoices(pal, anyWarn, more, true))
	s.ask(hintLine + " ")
	for {
		k, err := s.keys.read(ctx)
		if err != nil {
			s.finish("no to all")
			return declineAll(len(batch), ""), err
		}
		switch {
		case k.kind == keyCtrlC:
			s.finish("no to all (interrupted)")
			return declineAll(len(batch), ""), ErrInterrupted
		case k.kind == keyEsc || k.kind == keyCtrlD:
			s.finish("no to all")
			return declineAll(len(batch), ""), nil
		case k.r == 'y' || k.r == 'Y' || (k.kind == keyEnter && !anyWarn):
			s.finish("yes to all")
			out := make([]agent.Answer, len(batch))
			for i := range out {
				out[i].Approved = true
			}
			return out, nil
		case k.r == 'n' || k.r == 'N' || (k.kind == keyEnter && anyWarn):
			fmt.Fprint(s.w, "\n")
			reason, err := s.reason(ctx)
			s.finish("no to all")
			return declineAll(len(batch), reason), err
		case k.r == 'o' || k.r == 'O':
			s.finish("one by one")
			out := make([]agent.Answer, len(batch))
			for i, pd := range batch {
				a, err := s.single(ctx, pd, fmt.Sprintf("%d/%d", i+1, len(batch)))
				if err != nil {
					return declineAll(len(batch), ""), err
				}
				out[i] = a
			}
			return out, nil
		case k.r == '?':
			fmt.Fprint(s.w, "\n")
			for i, pd := range batch {
				if pd.Decision == nil {
					continue
				}
				s.line("  " + pal.Muted(fmt.Sprintf("%d.", i+1)))
				if pd.Changes != nil {
					s.showPage(&pager{lines: DiffLines(pal, pd.Changes, pd.Cwd, width-2)}, 2*s.page(), "answer [o]ne by one to page through it")
					continue
				}
				s.expand(pd.Decision)
			}
			s.ask(hintLine + " ")
		}
	}
}

// Warned reports whether d gets the warning treatment: ⚠️, default No and
// no Always (SPEC §6.2).
func Warned(d *policy.Decision) bool {
	return d.Warn || d.Safety == policy.Dangerous
}

// DefaultYes reports whether Enter means Yes for d.
func DefaultYes(d *policy.Decision) bool {
	return !Warned(d) && d.DefaultAnswer != policy.No
}

// OfferAlways reports whether "Always" is offered for d.
func OfferAlways(d *policy.Decision) bool {
	return d.OfferAlways && !Warned(d) && d.Rule != ""
}

// DisplayLine is the prompt line of d: its plain display with ⚠️ drawn
// where the policy marked it (Decision.WarnAt: "delete ⚠️: /tmp/x",
// "run ⚠️ (3 lines):", "input → term-1 (bash) run ⚠️: rm -rf ~",
// "answer ⚠️ → term-2 (python3) …") for warned calls, in front of the line
// when nothing is marked. It is the one place the warning sign is drawn:
// the prompt, `nb policy check`, nb mcp serve's questions and the run's
// report show this line.
func DisplayLine(d *policy.Decision) string {
	disp := d.Display
	if disp == "" {
		disp = d.Subject
	}
	if !Warned(d) {
		return disp
	}
	if d.Display == "" || !marksFit(d.WarnAt, disp) {
		return style.IconWarn + " " + disp
	}
	var b strings.Builder
	last := 0
	for _, at := range d.WarnAt {
		b.WriteString(disp[last:at])
		b.WriteString(" " + style.IconWarn)
		last = at
	}
	b.WriteString(disp[last:])
	return b.String()
}

// marksFit reports whether marks are ascending offsets of character
// boundaries in disp, after its first byte.
func marksFit(marks []int, disp string) bool {
	if len(marks) == 0 {
		return false
	}
	last := 1
	for _, m := range marks {
		if m < last || m > len(disp) || m < len(disp) && !utf8.RuneStart(disp[m]) {
			return false
		}
		last = m
	}
	return true
}

// isWrite reports whether d's `?` shows written content.
func isWrite(d *policy.Decision) bool {
	return d.Category.Writes()
}

func moreLabel(d *policy.Decision, cut bool) string {
	switch {
	case tooLarge(d):
		return " save full text"
	case isWrite(d):
		return " show content"
	case cut:
		return " show full"
	}
	return ""
}

// choices are "[Y]es [n]o [a]lways this [s]ession [?]" with the default
// in capitals.
func choices(pal style.Palette, defYes, always bool, more string) []string {
	y, n, a := "y", "N", "a"
	if defYes {
		y, n, a = "Y", "n", "a"
	}
	parts := []string{pal.KeyHint(y, "es"), pal.KeyHint(n, "o")}
	if always {
		parts = append(parts, pal.KeyHint(a, "lways"), "this "+pal.KeyHint("s", "ession"))
	}
	return append(parts, pal.KeyHint("?", more))
}

// shortChoices are the choices for narrow terminals: "[s]ession" for
// "this [s]ession", or (keys only) the keys alone.
func shortChoices(pal style.Palette, defYes, always, keysOnly bool) []string {
	y, n := "y", "N"
	if defYes {
		y, n = "Y", "n"
	}
	words := map[bool][4]string{false: {"es", "o", "lways", "ession"}}[keysOnly]
	parts := []string{pal.KeyHint(y, words[0]), pal.KeyHint(n, words[1])}
	if always {
		parts = append(parts, pal.KeyHint("a", words[2]), pal.KeyHint("s", words[3]))
	}
	return append(parts, pal.KeyHint("?", ""))
}

// batchChoices are the batch answers; short ones fit narrow terminals.
func batchChoices(pal style.Palette, anyWarn bool, more string, short bool) []string {
	y, n := "Y", "n"
	if anyWarn {
		y, n = "y", "N"
	}
	if short {
		return []string{pal.KeyHint(y, " all"), pal.KeyHint(n, "one"), pal.KeyHint("o", "ne by one"), pal.KeyHint("?", "")}
	}
	return []string{pal.KeyHint(y, "es to all"), pal.KeyHint(n, "o to all"), pal.KeyHint("o", "ne by one"), pal.KeyHint("?", more)}
}

// fitChoices joins the first choice list that fits in width (leaving a
// column for the cursor), trying wide spacing before narrow.
func fitChoices(width int, lists ...[]string) string {
	var line string
	for _, parts := range lists {
		for _, sep := range []string{"  ", " "} {
			line = "  " + strings.Join(parts, sep)
			if style.Width(line) < width {
				return line
			}
		}
	}
	return line
}

// A display larger than promptBytes or promptLines is shown as its first
// promptHead and last promptTail bytes (at most headLines and tailLines of
// them) around a line saying how much is hidden.
const (
	promptBytes = 4096
	promptLines = 40
	promptHead  = 384
	promptTail  = 192
	headLines   = 8
	tailLines   = 4
)

// Full texts larger than fullBytes or fullLines are too large to read at
// the prompt: `?` saves them to a file instead of printing them.
const (
	fullBytes = 64 << 10
	fullLines = 200
)

// shape lays out a display for the prompt: a one-line display is cut to
// width (cut reports it); a multi-line script is shown whole, its lines
// indented under the first. A display too large for that keeps its head
// and tail around a line saying how much is hidden (hidden reports it):
// the prompt's output stays bounded whatever the model sent.
func shape(pal style.Palette, display string, width int) (lines []string, cut, hidden bool) {
	if len(display) > promptBytes || strings.Count(display, "\n") >= promptLines {
		return shapeHuge(pal, display, width), true, true
	}
	raw := strings.Split(strings.TrimRight(display, "\n"), "\n")
	for i, l := range raw {
		raw[i] = indentLine(i, style.Sanitize(l))
	}
	if len(raw) == 1 {
		t := style.Truncate(raw[0], width)
		return []string{t}, t != raw[0], false
	}
	return raw, false, false
}

func indentLine(i int, l string) string {
	if i > 0 && !strings.HasPrefix(l, " ") {
		return "  " + l
	}
	return l
}

// shapeHuge is shape's head-and-tail view: long lines are wrapped (not
// cut), so every byte shown or hidden is accounted for.
func shapeHuge(pal style.Palette, display string, width int) []string {
	e, _ := visible.Elide(strings.TrimRight(display, "\n"), promptHead, promptTail)
	head := strings.Split(e.Head, "\n")
	if len(head) > headLines {
		for _, l := range head[headLines:] {
			e.Hidden += len(l) + 1
			e.HiddenLines++
		}
		head = head[:headLines]
	}
	tail := strings.Split(e.Tail, "\n")
	if len(tail) > tailLines {
		for _, l := range tail[:len(tail)-tailLines] {
			e.Hidden += len(l) + 1
			e.HiddenLines++
		}
		tail = tail[len(tail)-tailLines:]
	}
	var out []string
	wrapped := func(i int, l string) {
		out = append(out, strings.Split(style.HardWrap(indentLine(i, style.Sanitize(l)), max(width, 10)), "\n")...)
	}
	for i, l := range head {
		wrapped(i, l)
	}
	out = append(out, "  "+pal.Muted(e.Marker()))
	for _, l := range tail {
		wrapped(1, l)
	}
	return out
}

// tooLarge reports whether d's full text is more than a few screens: `?`
// saves it to a file, and Enter never approves it.
func tooLarge(d *policy.Decision) bool {
	full := fullText(d)
	return len(full) > fullBytes || strings.Count(full, "\n") >= fullLines
}

// tooLargeNote says that d is not shown whole.
func tooLargeNote(d *policy.Decision) string {
	return fmt.Sprintf("%s bytes, too large to show here: read them with ? before answering", visible.Count(len(fullText(d))))
}

// fullText is the complete text behind d's display.
func fullText(d *policy.Decision) string {
	if d.Full != "" {
		return d.Full
	}
	return d.Display
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(style.Sanitize(strings.ReplaceAll(s, "\n", " "))), " ")
	return s
}

// crlfWriter turns "\n" into "\r\n": the terminal is in raw mode, where
// output post-processing is off.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(c.w, strings.ReplaceAll(string(b), "\n", "\r\n")); err != nil {
		return 0, err
	}
	return len(b), nil
}
