package cli

import (
	"strings"
	"unicode/utf8"
)

// typeaheadShown bounds what the spinner line shows of the text typed
// during a turn: its end, where the typing is.
const typeaheadShown = 40

// typeaheadText is how keys typed during a turn read on the spinner line:
// the text as edited with Backspace, a line break as ⏎, other keys left
// out; only its end when long.
func typeaheadText(keys []byte) string {
	var r []rune
	for len(keys) > 0 {
		c, n := utf8.DecodeRune(keys)
		keys = keys[n:]
		switch {
		case c == 0x1b:
			// An escape sequence (an arrow key): skipped up to its final
			// byte.
			for len(keys) > 0 && keys[0] < 0x40 || len(keys) > 0 && keys[0] == '[' {
				keys = keys[1:]
			}
			if len(keys) > 0 {
				keys = keys[1:]
			}
		case c == 0x7f || c == 0x08:
			if len(r) > 0 {
				r = r[:len(r)-1]
			}
		case c == '\r' || c == '\n':
			r = append(r, ' ', '⏎', ' ')
		case c == 0x15: // Ctrl+U
			r = r[:0]
		case c >= 0x20 && c != utf8.RuneError:
			r = append(r, c)
		}
	}
	s := strings.TrimSpace(string(r))
	if n := utf8.RuneCountInString(s); n > typeaheadShown {
		s = "…" + string([]rune(s)[n-typeaheadShown+1:])
	}
	return s
}

// pauseTypeahead stops reading typed keys while an approval prompt has the
// keyboard (render calls it); the function returned starts again.
func (c *chat) pauseTypeahead() func() {
	if c.typeahead == nil {
		return func() {}
	}
	return c.typeahead.pause()
}

// showTypeahead draws the text typed during a turn after the spinner.
func (c *chat) showTypeahead(text string) {
	if ui, ok := c.ui.(interface{ SetTypeahead(string) }); ok {
		ui.SetTypeahead(text)
	}
}
