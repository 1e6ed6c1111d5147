package render

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/visible"
)

// The call line shows at most this many bytes of a display's head and
// tail; a larger display shows "… N bytes more …" between them.
const (
	lineHead = 384
	lineTail = 128
)

// shown is the call's display on one line, bounded: head, and for a huge
// display the marker and tail.
type shown struct{ head, marker, tail string }

func (s shown) String() string {
	if s.marker == "" {
		return s.head
	}
	return s.head + " " + s.marker + " " + s.tail
}

// fit cuts s to width cells (0: no limit), keeping some of the tail of a
// huge display.
func (s shown) fit(width int) string {
	if width <= 0 {
		return s.String()
	}
	if s.marker == "" {
		return style.Truncate(s.head, width)
	}
	return style.FitMiddle(s.head, s.marker, s.tail, width)
}

// summaryDisplay is the call's display on one line: a multi-line script
// becomes "run (3 lines): a ↵ b ↵ c". Only the head and tail of a huge
// display are looked at.
func summaryDisplay(p *agent.Pending) shown {
	disp := ""
	if p.Decision != nil {
		disp = p.Decision.Display
		if disp == "" {
			disp = p.Decision.Subject
		}
	}
	if disp == "" && p.Call != nil {
		disp = p.Call.Name
	}
	e, cut := visible.Elide(disp, lineHead, lineTail)
	out := shown{head: oneLineDisplay(e.Head)}
	if cut {
		out.marker, out.tail = e.Marker(), oneLineDisplay(e.Tail)
	}
	return out
}

// oneLineDisplay joins a display's lines with " ↵ " (the plain display:
// the warning sign belongs to the prompt, the transcript stays plain).
func oneLineDisplay(disp string) string {
	lines := strings.Split(strings.TrimRight(disp, "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(style.Sanitize(lines[i]))
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return lines[0] + " " + strings.Join(lines[1:], " ↵ ")
}

func autoApproved(p *agent.Pending) bool {
	return p.Decision != nil && p.Decision.Decision == policy.Allow
}

// failed reports whether res is a failure.
func failed(res *tool.Result) bool {
	return res.IsError || (res.ExitCode != nil && *res.ExitCode != 0)
}

// answerStatus: commands whose exit status 1 is an answer, not a failure,
// and what it means.
var answerStatus = map[string]string{
	"grep": "no match", "egrep": "no match", "fgrep": "no match", "zgrep": "no match",
	"rg": "no match", "ag": "no match", "ack": "no match", "pgrep": "no match",
	"pidof": "no match", "which": "not found", "diff": "files differ", "cmp": "files differ",
	"test": "false", "[": "false", "[[": "false",
}

// answered returns what an exit status 1 means when the call is a
// command, such as grep or diff, for which it is an answer ("no match"),
// or "".
func answered(p *agent.Pending, res *tool.Result) string {
	if res.IsError || res.ExitCode == nil || *res.ExitCode != 1 || p.Call == nil || p.Call.Name != "run_cmd" {
		return ""
	}
	var args struct{ Command string }
	if json.Unmarshal(p.Call.Args, &args) != nil {
		return ""
	}
	name, rest, ok := shellparse.StatusCommand(args.Command)
	if !ok {
		return ""
	}
	if name == "git" && len(rest) > 0 && rest[0] == "grep" {
		return "no match"
	}
	return answerStatus[name]
}

// toolLine is the one-line summary of a finished call:
//
//	✓ read: /etc/hosts  exit 0 · 12ms
//	✗ run: make  exit 2 · 1.3s  make: *** No rule to make target
//
// Auto-approved calls have their display muted. width 0 means no limit.
func toolLine(pal style.Palette, p *agent.Pending, res *tool.Result, width int) string {
	icon := pal.OK(style.IconOK)
	fail := failed(res)
	answer := answered(p, res)
	if answer != "" {
		fail = false
	}
	if fail {
		icon = pal.Fail(style.IconFail)
	}
	var meta []string
	if res.ExitCode != nil {
		meta = append(meta, "exit "+strconv.Itoa(*res.ExitCode))
	}
	if res.Duration > 0 {
		meta = append(meta, formatDuration(res.Duration))
	}
	metaStyle := pal.Muted
	withheld, kinds := "", ""
	if len(res.Withheld) > 0 {
		// what the model did not get stands out among the metadata, and
		// its kinds come first in the note
		withheld, kinds = withheldParts(res.Withheld)
		if width > 0 && width-style.Width(icon)-1-len("  ")-style.Width(strings.Join(append(meta, withheld), " · ")) < 8 {
			meta = nil // too narrow for both: what was withheld matters more
		}
		meta = append(meta, withheld)
		metaStyle = func(s string) string {
			if rest, ok := strings.CutSuffix(s, withheld); ok {
				return pal.Muted(rest) + pal.Warn(withheld)
			}
			return pal.Muted(s)
		}
	}
	note := res.Note
	if note == "" && fail && res.ExitCode == nil {
		note = firstUseful(res.Content)
	}
	if note == "" {
		note = answer
	}
	if kinds != "" {
		note = strings.TrimSuffix(kinds+" · "+note, " · ")
	}
	display := summaryDisplay(p)
	dispStyle := func(s string) string { return s }
	if autoApproved(p) {
		dispStyle = pal.Muted
	}
	noteStyle := pal.Muted
	if fail {
		noteStyle = pal.Fail
	}
	return layout(icon, display, dispStyle, strings.Join(meta, " · "), metaStyle, oneLineNote(note), noteStyle, width)
}

// withheldParts says what was withheld from a call's result: the count
// ("withheld 3 secrets") and the kinds ("github-pat, 2 × $AWS_KEY").
func withheldParts(counts []redact.Count) (count, kinds string) {
	d := agent.Describe(counts) // "3 secrets (github-pat, 2 × $AWS_KEY)"
	count, kinds, _ = strings.Cut(d, " (")
	return "withheld " + count, strings.TrimSuffix(kinds, ")")
}

// refusedLine is the line of a call that did not run:
//
//	⊘ delete: /tmp/x  declined
func refusedLine(pal style.Palette, p *agent.Pending, why string, width int) string {
	return layout(pal.Warn(style.IconRefused), summaryDisplay(p), func(s string) string { return s }, "", pal.Muted, oneLineNote(why), pal.Warn, width)
}

// layout fits "icon display  meta  note" in width: the meta always shows,
// the display is cut before it, the note gets what is left.
func layout(icon string, disp shown, dispStyle func(string) string, meta string, metaStyle func(string) string, note string, noteStyle func(string) string, width int) string {
	const gap = "  "
	if width <= 0 {
		s := icon + " " + dispStyle(disp.String())
		if meta != "" {
			s += gap + metaStyle(meta)
		}
		if note != "" {
			s += gap + noteStyle(note)
		}
		return s
	}
	room := width - style.Width(icon) - 1
	metaW := 0
	if meta != "" {
		metaW = len(gap) + style.Width(meta)
		if room-metaW < 8 {
			meta, metaW = "", 0 // too narrow: the display matters more
		}
	}
	dispRoom := room - metaW
	if dispRoom < 1 {
		dispRoom = 1
	}
	display := disp.fit(dispRoom)
	s := icon + " " + dispStyle(display)
	if meta != "" {
		s += gap + metaStyle(meta)
	}
	left := room - style.Width(display) - metaW - len(gap)
	if note != "" && left >= 8 {
		s += gap + noteStyle(style.Truncate(note, left))
	}
	return s
}

// firstUseful is the first non-empty line of s.
func firstUseful(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

func oneLineNote(s string) string {
	return strings.Join(strings.Fields(style.Sanitize(strings.ReplaceAll(s, "\n", " "))), " ")
}

// formatDuration is a short human duration: 12ms, 1.3s, 2m05s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
