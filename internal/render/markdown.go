package render

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/nb-cli/nb/internal/render/style"
)

// mdStream renders streamed markdown a line at a time: each completed
// source line is rendered and written for good (headings, paragraphs, list
// items, quotes, fenced code, rules; tables once complete), while the
// unfinished line is previewed raw and replaced when it completes. It is
// a deliberately small renderer: cheap to start, no width padding, the
// palette of the rest of nb.
type mdStream struct {
	out     io.Writer
	pal     style.Palette
	width   func() int // the terminal's full width
	preview bool

	pending   strings.Builder // the current line, not yet ended
	inCode    bool
	fence     string
	started   bool
	needBlank bool
	table     []string
	prevRows  int
	// status, when set, is a line shown under the preview while the
	// answer streams (what the user types meanwhile).
	status func() string
}

// maxPreviewRows bounds the preview of an unfinished line: only its tail
// is shown so erasing it never has to reach above the screen.
const maxPreviewRows = 4

func newMDStream(out io.Writer, pal style.Palette, width func() int, preview bool) *mdStream {
	return &mdStream{out: out, pal: pal, width: width, preview: preview}
}

// wrapWidth is the width text is wrapped to.
func (m *mdStream) wrapWidth() int {
	w := m.width()
	if w > 20 {
		w--
	}
	if w < 10 {
		w = 10
	}
	return w
}

// write takes the next chunk of the answer. Work is proportional to the
// chunk's length (plus the bounded preview), however long the current line
// grows: only the new chunk is searched for line ends, and the preview
// renders only the end of the pending line.
func (m *mdStream) write(chunk string) {
	m.clearPreview()
	for {
		i := strings.IndexByte(chunk, '\n')
		if i < 0 {
			break
		}
		m.pending.WriteString(chunk[:i])
		line := strings.TrimSuffix(m.pending.String(), "\r")
		m.pending.Reset()
		chunk = chunk[i+1:]
		m.line(line)
	}
	m.pending.WriteString(chunk)
	m.drawPreview()
}

// end renders what is left and closes open blocks.
func (m *mdStream) end() {
	m.clearPreview()
	if m.pending.Len() > 0 {
		m.line(strings.TrimSuffix(m.pending.String(), "\r"))
		m.pending.Reset()
	}
	m.flushTable()
	m.inCode = false
}

func (m *mdStream) drawPreview() {
	pending := m.pending.String()
	status := ""
	if m.status != nil && m.preview {
		status = m.status()
	}
	if !m.preview || pending == "" || len(m.table) > 0 || strings.HasPrefix(strings.TrimLeft(pending, " \t"), "|") {
		pending = ""
	}
	w := m.width() - 1
	if w < 2 || pending == "" && status == "" {
		return
	}
	if pending == "" {
		fmt.Fprint(m.out, style.Truncate(status, w))
		m.prevRows = 1
		return
	}
	// Only the end of a long line can show in the preview's rows: a
	// character takes at least one cell, so the last rows×width of them.
	if limit := maxPreviewRows * w; len(pending) > limit {
		cut := len(pending)
		for n := 0; n < limit && cut > 0; n++ {
			_, size := utf8.DecodeLastRuneInString(pending[:cut])
			cut -= size
		}
		pending = pending[cut:]
	}
	text := style.Sanitize(pending)
	if m.inCode {
		text = "  " + text
	}
	lines := strings.Split(ansi.Hardwrap(text, w, true), "\n")
	if len(lines) > maxPreviewRows {
		lines = lines[len(lines)-maxPreviewRows:]
	}
	if status != "" {
		lines = append(lines, style.Truncate(status, w))
	}
	fmt.Fprint(m.out, strings.Join(lines, "\n"))
	m.prevRows = len(lines)
}

func (m *mdStream) clearPreview() {
	if m.prevRows == 0 {
		return
	}
	s := "\r\x1b[J"
	if m.prevRows > 1 {
		s = fmt.Sprintf("\x1b[%dA", m.prevRows-1) + s
	}
	fmt.Fprint(m.out, s)
	m.prevRows = 0
}

// emit writes one rendered line for good.
func (m *mdStream) emit(s string) {
	if m.needBlank && m.started {
		fmt.Fprint(m.out, "\n")
	}
	m.needBlank = false
	m.started = true
	fmt.Fprint(m.out, s+"\n")
}

// emitWrapped writes text wrapped to the width, the first line after
// first and the others after an indent of the same width.
func (m *mdStream) emitWrapped(first, text string) {
	pw := style.Width(first)
	room := m.wrapWidth() - pw
	if room < 10 {
		room = 10
	}
	indent := strings.Repeat(" ", pw)
	for i, l := range strings.Split(style.Wrap(text, room), "\n") {
		if i == 0 {
			m.emit(first + l)
		} else {
			m.emit(indent + strings.TrimLeft(l, " "))
		}
	}
}

var (
	reHeading = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	reRule    = regexp.MustCompile(`^ {0,3}((\*\s*){3,}|(-\s*){3,}|(_\s*){3,})$`)
	reBullet  = regexp.MustCompile(`^(\s*)([-*+])\s+(.*)$`)
	reOrdered = regexp.MustCompile(`^(\s*)(\d{1,9}[.)])\s+(.*)$`)
	reQuote   = regexp.MustCompile(`^ {0,3}>\s?(.*)$`)
	reFence   = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})\\s*([^`]*)$")
	reTaskBox = regexp.MustCompile(`^\[([ xX])\]\s+`)
)

func (m *mdStream) line(l string) {
	if m.inCode {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, m.fence) && strings.Trim(t, m.fence[:1]) == "" {
			m.inCode = false
			return
		}
		m.emit("  " + m.pal.Accent(expandTabs(style.Sanitize(l))))
		return
	}
	isRow := strings.HasPrefix(strings.TrimSpace(l), "|")
	if len(m.table) > 0 && !isRow {
		m.flushTable()
	}
	l = expandTabs(l)
	trimmed := strings.TrimSpace(l)
	switch {
	case trimmed == "":
		m.needBlank = true
	case reFence.MatchString(l):
		g := reFence.FindStringSubmatch(l)
		m.inCode, m.fence = true, g[1]
	case reHeading.MatchString(l):
		g := reHeading.FindStringSubmatch(l)
		if m.started {
			m.needBlank = true
		}
		text := m.plainInline(g[2])
		if !m.pal.Color {
			text = g[1] + " " + text
		}
		m.emitWrapped("", m.pal.Heading(text, len(g[1])))
	case reRule.MatchString(l):
		m.emit(m.pal.Muted(strings.Repeat("─", min(m.wrapWidth(), 40))))
	case isRow:
		m.table = append(m.table, trimmed)
	case reQuote.MatchString(l):
		g := reQuote.FindStringSubmatch(l)
		m.emitWrapped(m.pal.Muted("│ "), m.pal.Italic(m.inline(g[1])))
	case reBullet.MatchString(l):
		g := reBullet.FindStringSubmatch(l)
		text := g[3]
		bullet := m.pal.Accent("•")
		if b := reTaskBox.FindStringSubmatch(text); b != nil {
			bullet = m.pal.Accent("☐")
			if b[1] != " " {
				bullet = m.pal.OK("☑")
			}
			text = text[len(b[0]):]
		}
		m.emitWrapped(listIndent(g[1])+bullet+" ", m.inline(text))
	case reOrdered.MatchString(l):
		g := reOrdered.FindStringSubmatch(l)
		m.emitWrapped(listIndent(g[1])+m.pal.Accent(g[2])+" ", m.inline(g[3]))
	default:
		lead := l[:len(l)-len(strings.TrimLeft(l, " "))]
		if len(lead) >= 4 && !m.started {
			lead = "  "
		}
		m.emitWrapped(lead, m.inline(trimmed))
	}
}

// listIndent keeps nesting visible without letting it grow too wide.
func listIndent(lead string) string {
	n := len(lead)
	if n > 12 {
		n = 12
	}
	return strings.Repeat(" ", n)
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// flushTable writes a complete table with aligned columns; a table wider
// than the terminal gets its widest columns narrowed and their cells
// wrapped, or, when even that cannot fit, one "header: value" record per
// row.
func (m *mdStream) flushTable() {
	rows := m.table
	m.table = nil
	if len(rows) == 0 {
		return
	}
	var cells [][]string
	sep := -1
	for i, r := range rows {
		c := splitRow(r)
		if isSeparatorRow(c) {
			if sep < 0 {
				sep = i
			}
			cells = append(cells, nil)
			continue
		}
		for j := range c {
			if i == 0 && sep < 0 && len(rows) > 1 && isSeparatorRow(splitRow(rows[1])) {
				c[j] = m.pal.Bold(m.plainInline(c[j]))
			} else {
				c[j] = m.inline(c[j])
			}
		}
		cells = append(cells, c)
	}
	var widths []int
	for _, c := range cells {
		for j, v := range c {
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], style.Width(v))
		}
	}
	total := 2 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	if total > m.wrapWidth() {
		// Too wide: narrow the widest columns and wrap their cells, never
		// splitting an ordinary word; when even that cannot fit, show
		// each row as "header: value" lines.
		avail := m.wrapWidth() - 2*(len(widths)-1)
		floors := wordFloors(cells, len(widths))
		sum := 0
		for _, f := range floors {
			sum += f
		}
		if sum > avail {
			m.tableRecords(cells, sep == 1)
			return
		}
		widths = shrinkColumns(widths, floors, avail)
	}
	for _, c := range cells {
		if c == nil {
			var b strings.Builder
			for j, w := range widths {
				if j > 0 {
					b.WriteString("  ")
				}
				b.WriteString(m.pal.Muted(strings.Repeat("─", w)))
			}
			m.emit(b.String())
			continue
		}
		wrapped := make([][]string, len(c))
		height := 1
		for j, v := range c {
			wrapped[j] = strings.Split(style.Wrap(v, widths[j]), "\n")
			height = max(height, len(wrapped[j]))
		}
		for k := range height {
			var b strings.Builder
			for j := range c {
				v := ""
				if k < len(wrapped[j]) {
					v = wrapped[j][k]
				}
				if j > 0 {
					b.WriteString("  ")
				}
				b.WriteString(v)
				if j < len(c)-1 {
					b.WriteString(strings.Repeat(" ", max(widths[j]-style.Width(v), 0)))
				}
			}
			m.emit(strings.TrimRight(b.String(), " "))
		}
	}
}

// minColumn is the narrowest a table column is wrapped to.
const minColumn = 6

// maxWordFloor bounds the width kept for a column's longest word: longer
// ones (URLs, paths) may be split rather than force the records layout.
const maxWordFloor = 16

// wordFloors is the narrowest each column may be wrapped to: its longest
// word (up to maxWordFloor), at least minColumn, at most its width.
func wordFloors(cells [][]string, n int) []int {
	floors := make([]int, n)
	for j := range floors {
		floors[j] = 1
	}
	for _, c := range cells {
		for j, v := range c {
			w := style.Width(v)
			floor := min(w, minColumn)
			for _, word := range strings.Fields(style.Strip(v)) {
				floor = max(floor, min(style.Width(word), maxWordFloor))
			}
			floors[j] = max(floors[j], floor)
		}
	}
	return floors
}

// shrinkColumns narrows the widest columns that are above their floors,
// one cell at a time, until the widths add up to at most avail.
func shrinkColumns(widths, floors []int, avail int) []int {
	w := append([]int(nil), widths...)
	sum := 0
	for _, v := range w {
		sum += v
	}
	for sum > avail {
		widest := -1
		for j := range w {
			if w[j] > floors[j] && (widest < 0 || w[j] > w[widest]) {
				widest = j
			}
		}
		if widest < 0 {
			break
		}
		w[widest]--
		sum--
	}
	return w
}

// tableRecords shows a table too wide for the terminal one row at a time,
// each cell on its own lines after its column's header.
func (m *mdStream) tableRecords(cells [][]string, header bool) {
	var head []string
	body := cells
	if header && len(cells) > 0 {
		head, body = cells[0], cells[1:]
	}
	first := true
	for _, c := range body {
		if c == nil {
			continue
		}
		if !first {
			m.emit(m.pal.Muted(strings.Repeat("─", min(m.wrapWidth(), 20))))
		}
		first = false
		for j, v := range c {
			label := ""
			if j < len(head) && head[j] != "" {
				label = head[j] + ": "
			}
			m.emitWrapped(label, v)
		}
	}
}

func splitRow(r string) []string {
	r = strings.TrimSpace(r)
	r = strings.TrimPrefix(r, "|")
	r = strings.TrimSuffix(r, "|")
	var out []string
	var cur strings.Builder
	for i := 0; i < len(r); i++ {
		if r[i] == '\\' && i+1 < len(r) && r[i+1] == '|' {
			cur.WriteByte('|')
			i++
			continue
		}
		if r[i] == '|' {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteByte(r[i])
	}
	return append(out, strings.TrimSpace(cur.String()))
}

var reSepCell = regexp.MustCompile(`^:?-{1,}:?$`)

func isSeparatorRow(c []string) bool {
	if len(c) == 0 {
		return false
	}
	for _, v := range c {
		if !reSepCell.MatchString(v) {
			return false
		}
	}
	return true
}

// plainInline drops inline markers, for text styled as a whole.
func (m *mdStream) plainInline(s string) string {
	return m.withPalette(style.Palette{}).inline(s)
}

func (m *mdStream) withPalette(p style.Palette) *mdStream {
	c := *m
	c.pal = p
	return &c
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

func isPunct(b byte) bool { return strings.IndexByte("\\`*_{}[]()#+-.!|~<>\"'", b) >= 0 }

// inline renders emphasis, code spans, strikethrough and links.
func (m *mdStream) inline(s string) string {
	s = style.Sanitize(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := runOf(s, i, '`')
			if j := findRun(s, i+n, '`', n); j >= 0 {
				code := s[i+n : j]
				if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' {
					code = code[1 : len(code)-1]
				}
				b.WriteString(m.pal.Accent(code))
				i = j + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '*' || c == '_':
			n := runOf(s, i, c)
			if n > 3 || i+n >= len(s) || s[i+n] == ' ' || (c == '_' && i > 0 && isWordByte(s[i-1])) {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			j := findClose(s, i+n, c, n)
			if j < 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			inner := m.inline(s[i+n : j])
			switch n {
			case 1:
				b.WriteString(m.pal.Italic(inner))
			case 2:
				b.WriteString(m.pal.Bold(inner))
			default:
				b.WriteString(m.pal.Bold(m.pal.Italic(inner)))
			}
			i = j + n
			continue
		case c == '~' && strings.HasPrefix(s[i:], "~~"):
			if j := strings.Index(s[i+2:], "~~"); j > 0 {
				b.WriteString(m.pal.Strike(m.inline(s[i+2 : i+2+j])))
				i += j + 4
				continue
			}
		case c == '[':
			if text, url, n, ok := parseLink(s[i:]); ok {
				t := m.inline(text)
				b.WriteString(m.pal.Accent(t))
				if url != text && url != "" {
					b.WriteString(m.pal.Muted(" (" + url + ")"))
				}
				i += n
				continue
			}
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 {
				u := s[i+1 : i+j]
				if strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "mailto:") {
					b.WriteString(m.pal.Accent(u))
					i += j + 1
					continue
				}
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// findRun finds a run of exactly n c's at or after i.
func findRun(s string, i int, c byte, n int) int {
	for i < len(s) {
		if s[i] != c {
			i++
			continue
		}
		r := runOf(s, i, c)
		if r == n {
			return i
		}
		i += r
	}
	return -1
}

// findClose finds the closing emphasis run for an opener of n c's.
func findClose(s string, i int, c byte, n int) int {
	for i < len(s) {
		if s[i] == '`' {
			r := runOf(s, i, '`')
			if j := findRun(s, i+r, '`', r); j >= 0 {
				i = j + r
				continue
			}
		}
		if s[i] != c {
			i++
			continue
		}
		r := runOf(s, i, c)
		if r == n && s[i-1] != ' ' && (c != '_' || i+r >= len(s) || !isWordByte(s[i+r])) {
			return i
		}
		i += r
	}
	return -1
}

// parseLink parses "[text](url)" at the start of s.
func parseLink(s string) (text, url string, n int, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				if i+1 >= len(s) || s[i+1] != '(' {
					return "", "", 0, false
				}
				j := strings.IndexByte(s[i+2:], ')')
				if j < 0 {
					return "", "", 0, false
				}
				url = strings.TrimSpace(s[i+2 : i+2+j])
				if k := strings.IndexByte(url, ' '); k >= 0 {
					url = url[:k] // drop a title
				}
				return s[1:i], url, i + 3 + j, true
			}
		}
	}
	return "", "", 0, false
}
