package style

import (
	"github.com/charmbracelet/x/ansi"
)

// FitMiddle cuts s, a line of head, marker and tail, to width cells,
// keeping the marker whole and a part of both ends: the head is cut on
// its right, the tail on its left. Styles are applied by the caller.
func FitMiddle(head, marker, tail string, width int) string {
	sep := " "
	full := head + sep + marker + sep + tail
	if Width(full) <= width {
		return full
	}
	room := width - Width(marker) - 2*Width(sep)
	if room < 4 {
		return Truncate(full, width)
	}
	tailRoom := min(Width(tail), room/3)
	headRoom := room - tailRoom
	h := Truncate(head, headRoom)
	t := tail
	if w := Width(t); w > tailRoom {
		t = ansi.TruncateLeft(t, w-tailRoom+1, Ellipsis)
	}
	return h + sep + marker + sep + t
}

// HardWrap breaks s into lines of at most width cells, inside words too.
func HardWrap(s string, width int) string {
	if width < 1 {
		return s
	}
	return ansi.Hardwrap(s, width, true)
}
