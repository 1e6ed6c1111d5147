package lineedit

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// contPrefix starts every line after the first of a multi-line message.
const contPrefix = "… "

// row is one screen row of the edited message.
type row struct {
	text  string // what is written, escapes included
	width int    // its width in columns
}

// layout places the prompt and the buffer on rows of at most width-1
// columns (the last column stays free, so the cursor never waits in the
// terminal's pending-wrap state) and returns the rows and the cursor's row
// and column.
func layout(prompt string, buf []rune, cursor, width int, dim func(string) string) (rows []row, curRow, curCol int) {
	max := width - 1
	if max < 8 {
		max = 8
	}
	var sb strings.Builder
	sb.WriteString(prompt)
	col := ansi.StringWidth(prompt)
	textStart := col // where the text of the current logical line starts
	flush := func() {
		rows = append(rows, row{text: sb.String(), width: col})
		sb.Reset()
		col = 0
	}
	curRow, curCol = -1, 0
	for i, r := range buf {
		if r == '\n' {
			if i == cursor {
				curRow, curCol = len(rows), col
			}
			flush()
			sb.WriteString(dim(contPrefix))
			col = ansi.StringWidth(contPrefix)
			textStart = col
			continue
		}
		glyph, w := display(r, col-textStart)
		if col+w > max && col > 0 {
			flush()
			textStart = 0
			if r == '\t' {
				glyph, w = display(r, 0)
			}
		}
		if i == cursor {
			curRow, curCol = len(rows), col
		}
		sb.WriteString(glyph)
		col += w
	}
	if curRow < 0 {
		if col >= max {
			flush()
		}
		curRow, curCol = len(rows), col
	}
	flush()
	return rows, curRow, curCol
}

// display is how one rune is drawn at a text column: tabs as spaces to the
// next stop of 4, control characters as ^X.
func display(r rune, textCol int) (string, int) {
	switch {
	case r == '\t':
		n := 4 - textCol%4
		return strings.Repeat(" ", n), n
	case r < 0x20 || r == 0x7f:
		return "^" + string(r^0x40), 2
	case r >= 0x80 && r < 0xa0:
		return fmt.Sprintf("\\u%04x", r), 6
	}
	s := string(r)
	w := ansi.StringWidth(s)
	return s, w
}

// viewport picks the rows shown when the message is taller than the
// screen: height rows holding the cursor, starting near the previous top.
// A cut side shows how many rows it hides in place of its outermost row.
func viewport(rows []row, curRow, height, prevTop int, dim func(string) string) (vis []row, visCur, top int) {
	n := len(rows)
	if height < 3 {
		height = 3
	}
	if n <= height {
		return rows, curRow, 0
	}
	clamp := func(t int) int { return min(max(t, 0), n-height) }
	top = clamp(prevTop)
	for range 4 {
		lo, hi := top, top+height-1
		if top > 0 {
			lo++
		}
		if top+height < n {
			hi--
		}
		switch {
		case curRow < lo:
			top = clamp(curRow - 1)
		case curRow > hi:
			top = clamp(curRow - height + 2)
		default:
			vis = append(vis, rows[top:top+height]...)
			if top > 0 {
				vis[0] = note(fmt.Sprintf("↑ %d more lines", top+1), dim)
			}
			if below := n - (top + height); below > 0 {
				vis[len(vis)-1] = note(fmt.Sprintf("↓ %d more lines", below+1), dim)
			}
			return vis, curRow - top, top
		}
	}
	return rows[n-height:], curRow - (n - height), n - height
}

func note(s string, dim func(string) string) row {
	return row{text: dim(s), width: ansi.StringWidth(s)}
}
