// Package visible escapes text shown to a person who must judge it (a
// command to approve, its reasons): control characters, escape sequences,
// carriage returns, bidirectional overrides and invisible or blank-looking
// characters become visible escapes (\x1b, \r, \u202e), so what is shown
// is what runs. It is the one escaping of commands for humans and MCP
// clients; applying it twice changes nothing. Elide and Bound give the
// head-and-tail view of a text too large to show whole.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String escapes s for one line: newlines become \n too.
func String(s string) string { return escape(s, false) }

// Lines escapes s keeping its newlines (tabs are kept in both).
func Lines(s string) string { return escape(s, true) }

// Hides reports whether s holds a character String would escape.
func Hides(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r != '\t' && r != '\n' && escaped(r) })
}

// escaped reports whether r is shown as an escape (other than \n).
func escaped(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f:
		return false // printable ASCII, the common case
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r < 0xa0, r == 0xad, r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e,
		r >= 0x2060 && r <= 0x2069, r == 0xfeff, r == 0x00a0, r == 0x2028, r == 0x2029,
		// blank-looking letters and symbols, variation selectors
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r == 0x2800, r == 0x180e, r == 0x034f,
		r == 0x17b4, r == 0x17b5, r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef,
		unicode.Is(unicode.Cf, r):
		return true
	case unicode.IsSpace(r) && r != ' ':
		return true
	}
	return false
}

func escape(s string, keepNewlines bool) string {
	clean := utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return r != '\t' && (r != '\n' || !keepNewlines) && escaped(r)
	})
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// not UTF-8: the byte itself
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && keepNewlines, r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case escaped(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}
