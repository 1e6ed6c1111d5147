package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/tool"
)

// maxPartial bounds the unfinished last line kept for the live area.
const maxPartial = 4096

// toolView is the transcript entry of one call: while it runs, a small
// ephemeral area shows the elapsed time and the last lines of output; when
// it ends, the area is replaced by the one-line summary.
type toolView struct {
	t     *Terminal
	p     *agent.Pending
	start time.Time
	keep  int

	// Guarded by t.mu.
	lines    []string
	partial  []byte
	rows     int    // rows of the live area on screen
	drawn    string // what they show, to skip identical redraws
	finished bool
	quit     chan struct{}
}

// startTicker starts redrawing the live area. Callers hold t.mu.
func (v *toolView) startTicker() {
	quit := make(chan struct{})
	v.quit = quit
	t := v.t
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		tick := time.NewTicker(t.opts.Frame)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				t.mu.Lock()
				if !v.finished && t.live == v && t.held == 0 && t.io.Now().Sub(v.start) >= t.opts.LiveDelay {
					v.draw()
				}
				t.mu.Unlock()
			}
		}
	}()
}

// stopTicker ends the redraw goroutine. Callers hold t.mu.
func (v *toolView) stopTicker() {
	if v.quit != nil {
		close(v.quit)
		v.quit = nil
	}
}

// Output receives a chunk of the running command's output.
func (v *toolView) Output(stream string, chunk []byte) {
	if v.keep < 0 {
		return
	}
	v.t.mu.Lock()
	defer v.t.mu.Unlock()
	if v.finished {
		return
	}
	for _, b := range chunk {
		switch b {
		case '\n':
			v.pushLine(string(v.partial))
			v.partial = v.partial[:0]
		case '\r':
			// A carriage return starts the line again (progress bars).
			v.partial = v.partial[:0]
		default:
			if len(v.partial) < maxPartial {
				v.partial = append(v.partial, b)
			}
		}
	}
}

func (v *toolView) pushLine(l string) {
	v.lines = append(v.lines, l)
	if over := len(v.lines) - v.keep; over > 0 {
		v.lines = append(v.lines[:0], v.lines[over:]...)
	}
}

// tail returns the output lines to show: the kept lines plus the
// unfinished one, at most keep of them, blank trailing lines dropped.
func (v *toolView) tail() []string {
	out := append([]string(nil), v.lines...)
	if len(v.partial) > 0 {
		out = append(out, string(v.partial))
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if len(out) > v.keep {
		out = out[len(out)-v.keep:]
	}
	return out
}

// draw replaces the live area, unless it would look the same. Callers
// hold t.mu.
func (v *toolView) draw() {
	t := v.t
	pal := t.pal
	w := t.width()
	el := t.io.Now().Sub(v.start)
	meta := pal.Muted(fmt.Sprintf("%.1fs", el.Seconds()))
	head := pal.Accent(spinFrames[int(el/spinStep)%len(spinFrames)]) + " "
	room := w - style.Width(head) - 2 - style.Width(meta)
	var b strings.Builder
	b.WriteString(head + summaryDisplay(v.p).fit(max(room, 1)) + "  " + meta)
	rows := 1
	for _, l := range v.tail() {
		b.WriteString("\n  " + pal.Muted(style.Truncate(style.Sanitize(l), max(w-2, 1))))
		rows++
	}
	area := b.String()
	if v.rows > 0 && area == v.drawn {
		return
	}
	fmt.Fprint(t.io.Err, v.eraseSeq()+area)
	v.rows, v.drawn = rows, area
}

// erase removes the live area, leaving the cursor at the start of its
// first row. Callers hold t.mu.
func (v *toolView) erase() {
	if s := v.eraseSeq(); s != "" {
		fmt.Fprint(v.t.io.Err, s)
	}
}

// eraseSeq is the escape sequence erasing the live area; it forgets the
// area. Callers hold t.mu.
func (v *toolView) eraseSeq() string {
	if v.rows == 0 {
		return ""
	}
	s := "\r\x1b[J"
	if v.rows > 1 {
		s = fmt.Sprintf("\x1b[%dA", v.rows-1) + s
	}
	v.rows = 0
	return s
}

// Done replaces the live area with the call's summary line.
func (v *toolView) Done(res *tool.Result) {
	t := v.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if v.finished {
		return
	}
	v.finished = true
	v.stopTicker()
	if t.live == v {
		v.erase()
		t.live = nil
	}
	t.settle()
	if res == nil {
		res = &tool.Result{}
	}
	line := toolLine(t.pal, v.p, res, t.width())
	t.errLine(line)
	if res.Details != "" && !t.opts.Verbose {
		for _, l := range strings.Split(res.Details, "\n") {
			l = style.Sanitize(l)
			if w := t.width(); w > 0 {
				l = style.Truncate(l, max(w-2, 8))
			}
			t.errLine("  " + t.pal.Muted(l))
		}
	}
	if res.Changes != nil && !res.IsError && v.p.Decision != nil && v.p.Decision.DecidedBy == policy.ByEditMode {
		// applied without a question: the diff is shown as it lands
		t.appliedDiff(v.p, res)
	}
	if t.opts.Verbose {
		t.writeContent(res.Content)
	}
	t.remember(Record{Summary: style.Strip(line), Content: res.Content, IsError: res.IsError})
}

// appliedMax bounds the diff shown under a change applied without a
// question.
const appliedMax = 40

// appliedDiff shows the diff of a change applied without asking, bounded.
func (t *Terminal) appliedDiff(p *agent.Pending, res *tool.Result) {
	w := t.width()
	if w <= 0 {
		w = 100
	}
	lines := approval.DiffLines(t.pal, res.Changes, p.Cwd, w-2)
	for i, l := range lines {
		if i == appliedMax {
			t.errLine("  " + t.pal.Muted(fmt.Sprintf("… %d more lines of the diff (/changes lists the change, /undo reverts it)", len(lines)-i)))
			break
		}
		t.errLine("  " + l)
	}
}
