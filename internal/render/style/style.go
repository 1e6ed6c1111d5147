// Package style is nb's small terminal palette and the display-width helpers
// shared by the renderer and the approval prompt. Colours are the 16 basic
// ANSI colours so the user's terminal theme decides the exact shades; with
// colour off every function returns its text unchanged.
package style

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Palette styles text when colour is on.
type Palette struct {
	Color bool
}

// SGR codes of the palette.
const (
	sgrBold   = "1"
	sgrDim    = "2"
	sgrItalic = "3"
	sgrUnder  = "4"
	sgrStrike = "9"
	sgrRed    = "31"
	sgrGreen  = "32"
	sgrYellow = "33"
	sgrCyan   = "36"
	sgrGrey   = "90"
)

func (p Palette) wrap(s string, codes ...string) string {
	if !p.Color || s == "" {
		return s
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}

// OK is success (green).
func (p Palette) OK(s string) string { return p.wrap(s, sgrGreen) }

// Fail is failure (red).
func (p Palette) Fail(s string) string { return p.wrap(s, sgrRed) }

// Warn is a warning or a refusal (yellow).
func (p Palette) Warn(s string) string { return p.wrap(s, sgrYellow) }

// Accent marks what to act on: prompt keys, headings, inline code (cyan).
func (p Palette) Accent(s string) string { return p.wrap(s, sgrCyan) }

// Muted is secondary text: metadata, auto-approved calls, output (grey).
func (p Palette) Muted(s string) string { return p.wrap(s, sgrGrey) }

// Bold is strong text.
func (p Palette) Bold(s string) string { return p.wrap(s, sgrBold) }

// Dim is faint text.
func (p Palette) Dim(s string) string { return p.wrap(s, sgrDim) }

// Italic is emphasised text.
func (p Palette) Italic(s string) string { return p.wrap(s, sgrItalic) }

// Strike is struck-through text.
func (p Palette) Strike(s string) string { return p.wrap(s, sgrStrike) }

// Heading is a markdown heading: bold accent, underlined for level 1.
func (p Palette) Heading(s string, level int) string {
	if level <= 1 {
		return p.wrap(s, sgrBold, sgrUnder, sgrCyan)
	}
	return p.wrap(s, sgrBold, sgrCyan)
}

// KeyHint renders one prompt choice such as "[Y]es": the bracketed key in
// accent colour, the rest plain.
func (p Palette) KeyHint(key, rest string) string {
	return p.Accent("["+key+"]") + rest
}

// Icons of the transcript.
const (
	IconOK      = "✓"
	IconFail    = "✗"
	IconRefused = "⊘"
	IconAsk     = "?"
	IconWarn    = "⚠️"
	IconNote    = "!"
	Ellipsis    = "…"
)

// Width is the display width of s in terminal cells, ignoring escape
// sequences and counting wide characters (CJK, emoji such as ⚠️) as two.
func Width(s string) int { return ansi.StringWidth(s) }

// Truncate cuts s to at most width cells, ending with "…" when cut. A width
// below one returns "".
func Truncate(s string, width int) string {
	if width < 1 {
		return ""
	}
	return ansi.Truncate(s, width, Ellipsis)
}

// Wrap word-wraps s to width cells, breaking words longer than a line.
func Wrap(s string, width int) string {
	if width < 1 {
		return s
	}
	return ansi.Wrap(s, width, "")
}

// Strip removes escape sequences.
func Strip(s string) string { return ansi.Strip(s) }

// Rows is how many terminal rows s occupies at width (each line at least one).
func Rows(s string, width int) int {
	n := 0
	for _, line := range strings.Split(s, "\n") {
		w := Width(line)
		if width < 1 || w <= width {
			n++
			continue
		}
		n += (w + width - 1) / width
	}
	return n
}

// Sanitize makes program output safe to draw in one line: escape sequences
// are removed, tabs become spaces and other control characters are dropped.
func Sanitize(s string) string {
	s = ansi.Strip(s)
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("  ")
		case isControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
}
