package visible

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Elided is a text too large to show whole: its first and last bytes and
// how much lies between them.
type Elided struct {
	Head, Tail string
	// Hidden is the number of bytes between Head and Tail, HiddenLines the
	// line breaks among them.
	Hidden, HiddenLines int
}

// Elide splits s into its first head and last tail bytes, cut at rune
// boundaries, when s is longer than head+tail; ok is false (and s whole
// in Head) otherwise. It looks at no more of s than it keeps, apart from
// counting the hidden line breaks.
func Elide(s string, head, tail int) (e Elided, ok bool) {
	if len(s) <= head+tail {
		return Elided{Head: s}, false
	}
	h := head
	for h > 0 && h < len(s) && !utf8.RuneStart(s[h]) {
		h--
	}
	t := len(s) - tail
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return Elided{Head: s[:h], Tail: s[t:], Hidden: t - h, HiddenLines: strings.Count(s[h:t], "\n")}, true
}

// Marker is the note standing for the hidden part: "… 10,485,760 bytes
// more …", naming the hidden lines when there are some.
func (e Elided) Marker() string {
	lines := ""
	switch {
	case e.HiddenLines == 1:
		lines = ", 1 line"
	case e.HiddenLines > 1:
		lines = fmt.Sprintf(", %s lines", Count(e.HiddenLines))
	}
	return fmt.Sprintf("… %s bytes%s more …", Count(e.Hidden), lines)
}

// Count writes n with thousands separators: 10,485,760.
func Count(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Bound is s, or for a longer s its first head and last tail bytes
// around the marker: "abc … 10,485,760 bytes more … xyz".
func Bound(s string, head, tail int) string {
	e, cut := Elide(s, head, tail)
	if !cut {
		return s
	}
	return e.Head + " " + e.Marker() + " " + e.Tail
}
