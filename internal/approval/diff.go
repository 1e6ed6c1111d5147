package approval

import (
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/textdiff"
	"github.com/nb-cli/nb/internal/visible"
)

// DiffContext is the unchanged lines shown around each change.
const DiffContext = 3

// outputLines bounds the lines of a preview's output shown above its diff.
const outputLines = 8

// DiffLines is the coloured unified diff of a change set, one screen row
// per line, each cut to width: per file a header (what happens to it and
// the line counts), a note for what a diff cannot show (a mode, a link,
// binary content), then its hunks. Names are shown relative to base.
// Control characters are escaped, so what is shown is what is written.
func DiffLines(pal style.Palette, set *changes.Set, base string, width int) []string {
	var out []string
	add := func(s string) { out = append(out, style.Truncate(s, max(width, 10))) }
	if set.Output != "" {
		lines := strings.Split(strings.TrimRight(set.Output, "\n"), "\n")
		add(pal.Muted("output of the preview:"))
		for i, l := range lines {
			if i == outputLines {
				add(pal.Muted(fmt.Sprintf("  … %d more lines", len(lines)-i)))
				break
			}
			add("  " + expandTabs(visible.String(l)))
		}
	}
	if len(set.Visible()) == 0 {
		add(pal.Muted("(it changed no file)"))
	}
	for _, f := range set.Visible() {
		name := visible.String(changes.Shown(f.Path, base))
		if f.RenamedFrom != "" {
			name = visible.String(changes.Shown(f.RenamedFrom, base)) + " → " + name
		}
		lines := f.Diff()
		head := pal.Bold(string(f.Kind()) + " " + name)
		if lines != nil {
			added, removed := textdiff.Stats(lines)
			head += pal.Muted(fmt.Sprintf(" (+%d -%d)", added, removed))
		}
		add(head)
		if n := f.Note(); n != "" {
			add("  " + pal.Muted("("+visible.String(n)+")"))
		}
		for _, h := range textdiff.Hunks(lines, DiffContext) {
			add(pal.Accent(h.Header()))
			for _, l := range h.Lines {
				text := string(l.Kind) + expandTabs(visible.String(textdiff.Trim(l.Text)))
				switch l.Kind {
				case textdiff.Insert:
					add(pal.OK(text))
				case textdiff.Delete:
					add(pal.Fail(text))
				default:
					add(text)
				}
				if !strings.HasSuffix(l.Text, "\n") {
					add(pal.Muted(textdiff.NoNewline))
				}
			}
		}
	}
	return out
}

// expandTabs turns tabs into spaces up to the next multiple of four
// columns (the terminal's own tab stops would break the row count).
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// pager shows a long diff a screen at a time: the prompt shows the first
// page, each `?` the next.
type pager struct {
	lines []string
	shown int
}

// next returns up to n more lines.
func (p *pager) next(n int) []string {
	end := min(p.shown+max(n, 1), len(p.lines))
	out := p.lines[p.shown:end]
	p.shown = end
	return out
}

// rest is the number of lines not shown yet.
func (p *pager) rest() int { return len(p.lines) - p.shown }

// firstPage is how many diff lines the prompt shows before `?`: half the
// terminal, at least 8 (16 when the height is unknown).
func (s *session) firstPage() int {
	if s.p.Height != nil {
		if h := s.p.Height(); h > 0 {
			return max(h/2, 8)
		}
	}
	return 16
}

// page is how many lines one `?` shows: a screen less the prompt's rows.
func (s *session) page() int {
	if s.p.Height != nil {
		if h := s.p.Height(); h > 4 {
			return h - 3
		}
	}
	return 20
}

// showPage writes the next n lines of the diff and, when some remain, a
// line saying how many and how to see them.
func (s *session) showPage(pg *pager, n int, how string) {
	for _, l := range pg.next(n) {
		s.line("  " + l)
	}
	if r := pg.rest(); r > 0 {
		s.line("  " + s.p.Palette.Muted(fmt.Sprintf("… %s more lines of the diff: %s", visible.Count(r), how)))
	}
}
