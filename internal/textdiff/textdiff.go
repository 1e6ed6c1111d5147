// Package textdiff compares two texts line by line (Myers' O(ND)
// algorithm, after the common head and tail are set aside) and shapes the
// result as unified-diff hunks. A comparison whose edit distance passes a
// bound is finished coarsely (the rest replaced whole), so a diff of two
// unrelated 10 MB files takes bounded time and memory.
package textdiff

import (
	"fmt"
	"strings"
)

// Kind is what a diff line does.
type Kind byte

const (
	Equal  Kind = ' '
	Delete Kind = '-'
	Insert Kind = '+'
)

// Line is one line of a diff: its text with its terminator ("\n",
// "\r\n", or none for a last line without one) and its 1-based number in
// the old and the new text (0 where it has none).
type Line struct {
	Kind     Kind
	Text     string
	Old, New int
}

// Hunk is a run of changes with their context, as a unified diff shows it.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
}

// Header is the hunk's "@@ -a,b +c,d @@" line.
func (h Hunk) Header() string {
	return fmt.Sprintf("@@ -%s +%s @@", span(h.OldStart, h.OldLines), span(h.NewStart, h.NewLines))
}

func span(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	if n == 0 && start > 0 {
		start-- // the line after which the empty range sits
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// MaxEdits bounds the edit distance searched exactly; past it the rest of
// the texts is shown as replaced whole.
const MaxEdits = 4000

// SplitLines cuts s into lines, each keeping its "\n".
func SplitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Compare returns every line of the two texts, in order, as kept, deleted
// or inserted.
func Compare(oldText, newText string) []Line {
	a, b := SplitLines(oldText), SplitLines(newText)
	ids := map[string]int32{}
	intern := func(ls []string) []int32 {
		out := make([]int32, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var out []Line
	for i := 0; i < pre; i++ {
		out = append(out, Line{Kind: Equal, Text: a[i], Old: i + 1, New: i + 1})
	}
	for _, e := range myers(x[pre:len(x)-suf], y[pre:len(y)-suf]) {
		l := Line{Kind: e.kind}
		switch e.kind {
		case Equal:
			l.Text, l.Old, l.New = a[pre+e.i], pre+e.i+1, pre+e.j+1
		case Delete:
			l.Text, l.Old = a[pre+e.i], pre+e.i+1
		case Insert:
			l.Text, l.New = b[pre+e.j], pre+e.j+1
		}
		out = append(out, l)
	}
	for k := suf; k > 0; k-- {
		i, j := len(a)-k, len(b)-k
		out = append(out, Line{Kind: Equal, Text: a[i], Old: i + 1, New: j + 1})
	}
	return out
}

type edit struct {
	kind Kind
	i, j int // index in a (Equal, Delete) and b (Equal, Insert)
}

// myers is the greedy O(ND) shortest edit script of a to b. It keeps the
// furthest-reaching x of every diagonal after each step (O(D²) memory)
// and walks back through them; past MaxEdits steps what remains is
// deleted and inserted whole.
func myers(a, b []int32) []edit {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return coarse(a, b, 0, 0)
	}
	off := n + m
	v := make([]int, 2*off+2)
	var trace [][]int
	found := -1
	for d := 0; d <= n+m && d <= MaxEdits; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
		if found >= 0 {
			break
		}
	}
	if found < 0 {
		return coarse(a, b, 0, 0)
	}
	var rev []edit
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		sx, sy := px, py // where the step lands, before the snake
		if pk == k+1 {
			sy++
		} else {
			sx++
		}
		for x > sx && y > sy {
			x--
			y--
			rev = append(rev, edit{Equal, x, y})
		}
		if pk == k+1 {
			rev = append(rev, edit{Insert, px, py})
		} else {
			rev = append(rev, edit{Delete, px, py})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, edit{Equal, x, y})
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

// coarse deletes all of a and inserts all of b.
func coarse(a, b []int32, i0, j0 int) []edit {
	out := make([]edit, 0, len(a)+len(b))
	for i := range a {
		out = append(out, edit{Delete, i0 + i, 0})
	}
	for j := range b {
		out = append(out, edit{Insert, 0, j0 + j})
	}
	return out
}

// Hunks groups the changed lines of a comparison with up to context lines
// of unchanged text around them; changes closer than twice that share a
// hunk.
func Hunks(lines []Line, context int) []Hunk {
	var hunks []Hunk
	for i := 0; i < len(lines); {
		if lines[i].Kind == Equal {
			i++
			continue
		}
		s := max(i-context, 0)
		e := i // one past the last change of the hunk
		for j := i; j < len(lines) && j <= e+2*context; j++ {
			if lines[j].Kind != Equal {
				e = j + 1
			}
		}
		end := min(e+context, len(lines))
		hunks = append(hunks, hunk(lines, s, end))
		i = end
	}
	return hunks
}

// hunk is lines[s:e] as a hunk.
func hunk(lines []Line, s, e int) Hunk {
	h := Hunk{Lines: lines[s:e]}
	oldAt, newAt := 0, 0 // the numbers of the lines before the hunk
	for _, l := range lines[:s] {
		if l.Old != 0 {
			oldAt = l.Old
		}
		if l.New != 0 {
			newAt = l.New
		}
	}
	h.OldStart, h.NewStart = oldAt+1, newAt+1
	for _, l := range h.Lines {
		if l.Kind != Insert {
			h.OldLines++
		}
		if l.Kind != Delete {
			h.NewLines++
		}
	}
	return h
}

// Stats counts the inserted and deleted lines.
func Stats(lines []Line) (added, removed int) {
	for _, l := range lines {
		switch l.Kind {
		case Insert:
			added++
		case Delete:
			removed++
		}
	}
	return added, removed
}

// NoNewline is the marker a unified diff puts after a last line without
// a terminator.
const NoNewline = `\ No newline at end of file`

// Unified writes a plain unified diff of two texts as patch reads it
// (lines keep a carriage return), with names in the ---/+++ header lines.
func Unified(oldName, newName, oldText, newText string, context int) string {
	hunks := Hunks(Compare(oldText, newText), context)
	if len(hunks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks {
		b.WriteString(h.Header() + "\n")
		for _, l := range h.Lines {
			b.WriteByte(byte(l.Kind))
			b.WriteString(strings.TrimSuffix(l.Text, "\n"))
			b.WriteByte('\n')
			if !strings.HasSuffix(l.Text, "\n") {
				b.WriteString(NoNewline + "\n")
			}
		}
	}
	return b.String()
}

// Trim is a line's text without its terminator ("\n" or "\r\n"), for
// display.
func Trim(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}
