package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/render/screentest"
	"github.com/nb-cli/nb/internal/render/style"
)

const answer = "# Why nginx fails\n\nThe config has a **syntax error** on line 12 of `nginx.conf`: a missing `;`.\n\n" +
	"Steps:\n\n1. Fix the line\n2. Test with `nginx -t`\n   and reload\n\n- a bullet with a [link](https://nginx.org/en/docs/)\n  - nested *item*\n\n" +
	"```nginx\nserver {\n    listen 80;\n}\n```\n\n> quoted text\n\n| name | value |\n|------|-------|\n| a | 1 |\n| bb | 22 |\n\n---\nThe end"

// renderChunks streams text in the given pieces and returns what a
// terminal of width w would show.
func renderChunks(t *testing.T, chunks []string, w int, preview bool) (string, string) {
	t.Helper()
	scr := screentest.New(w, 60, true)
	defer scr.Close()
	m := newMDStream(scr, style.Palette{}, func() int { return w }, preview)
	for _, c := range chunks {
		m.write(c)
	}
	m.end()
	return scr.String(), scr.Raw()
}

func TestMarkdownRendering(t *testing.T) {
	got, _ := renderChunks(t, []string{answer}, 80, false)
	want := strings.Join([]string{
		"# Why nginx fails",
		"",
		"The config has a syntax error on line 12 of nginx.conf: a missing ;.",
		"",
		"Steps:",
		"",
		"1. Fix the line",
		"2. Test with nginx -t",
		"   and reload",
		"",
		"• a bullet with a link (https://nginx.org/en/docs/)",
		"  • nested item",
		"",
		"  server {",
		"      listen 80;",
		"  }",
		"",
		"│ quoted text",
		"",
		"name  value",
		"────  ─────",
		"a     1",
		"bb    22",
		"",
		"────────────────────────────────────────",
		"The end",
	}, "\n")
	if got != want {
		t.Errorf("rendered:\n%s\n---- want:\n%s", got, want)
	}
}

func TestMarkdownAwkwardChunks(t *testing.T) {
	whole, _ := renderChunks(t, []string{answer}, 60, false)
	splits := map[string][]string{}
	var bytesplit []string
	for i := 0; i < len(answer); i++ {
		bytesplit = append(bytesplit, answer[i:i+1])
	}
	splits["every byte"] = bytesplit
	var threes []string
	for i := 0; i < len(answer); i += 3 {
		threes = append(threes, answer[i:min(i+3, len(answer))])
	}
	splits["threes"] = threes
	// Cut inside the fence marker, the bold marker and a CRLF.
	i := strings.Index(answer, "``")
	j := strings.Index(answer, "**") + 1
	splits["markers"] = []string{answer[:j], answer[j : i+1], answer[i+1:]}
	crlf := strings.ReplaceAll(answer, "\n", "\r\n")
	k := strings.Index(crlf, "\r\n") + 1
	splits["crlf"] = []string{crlf[:k], crlf[k:]}
	for name, chunks := range splits {
		for _, preview := range []bool{false, true} {
			got, _ := renderChunks(t, chunks, 60, preview)
			if got != whole {
				t.Errorf("%s (preview %v):\n%s\n---- want:\n%s", name, preview, got, whole)
			}
		}
	}
}

func TestMarkdownPreviewShowsUnfinishedLine(t *testing.T) {
	scr := screentest.New(40, 10, true)
	defer scr.Close()
	m := newMDStream(scr, style.Palette{}, func() int { return 40 }, true)
	m.write("First line.\nA long unfinished paragraph that keeps going and wraps over")
	if got := scr.String(); !strings.Contains(got, "First line.\nA long unfinished") {
		t.Errorf("preview:\n%s", got)
	}
	m.write(" the edge.\n")
	m.end()
	want := "First line.\nA long unfinished paragraph that keeps\ngoing and wraps over the edge."
	if got := scr.String(); got != want {
		t.Errorf("final:\n%s\n---- want:\n%s", got, want)
	}
}

func TestMarkdownColours(t *testing.T) {
	var b bytes.Buffer
	m := newMDStream(&b, style.Palette{Color: true}, func() int { return 80 }, false)
	m.write("## Title\nuse `ls` and **care**\n")
	m.end()
	out := b.String()
	for _, want := range []string{"\x1b[1;36mTitle\x1b[0m", "\x1b[36mls\x1b[0m", "\x1b[1mcare\x1b[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q: %q", want, out)
		}
	}
}

func TestInlineEdgeCases(t *testing.T) {
	m := newMDStream(nil, style.Palette{}, func() int { return 80 }, false)
	cases := map[string]string{
		"snake_case_name stays":     "snake_case_name stays",
		"2 * 3 * 4":                 "2 * 3 * 4",
		"a **bold `code**` end":     "a **bold code** end",
		"escaped \\*star\\*":        "escaped *star*",
		"unclosed `tick":            "unclosed `tick",
		"<https://example.com> ok":  "https://example.com ok",
		"[same](same)":              "same",
		"~~gone~~ here":             "gone here",
		"***both*** and _under_ ok": "both and under ok",
	}
	for in, want := range cases {
		if got := m.inline(in); got != want {
			t.Errorf("inline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWideTableReflows(t *testing.T) {
	table := "| option | what it does | default |\n|---|---|---|\n" +
		"| `maxInterval` | the longest a terminal read waits for output that matters before it returns | 30 |\n" +
		"| `settleInterval` | how long output must be quiet before a read returns | 0.5 |\n"
	screen, _ := renderChunks(t, []string{table}, 50, false)
	if strings.Contains(screen, "|") {
		t.Fatalf("raw pipes at 50 columns:\n%s", screen)
	}
	for _, l := range strings.Split(screen, "\n") {
		if style.Width(l) > 49 {
			t.Errorf("row wider than the terminal: %q", l)
		}
	}
	// Every word is whole on some row: wrapping breaks at spaces.
	for _, word := range []string{"maxInterval", "settleInterval", "matters", "returns", "default"} {
		if !strings.Contains(screen, word) {
			t.Errorf("%q broken or lost:\n%s", word, screen)
		}
	}
	// The cells stay in their columns: the wrapped description continues
	// under its own column.
	lines := strings.Split(screen, "\n")
	col := strings.Index(lines[0], "what it does")
	found := false
	for _, l := range lines {
		if i := strings.Index(l, "that matters"); i >= 0 && i == col && strings.TrimSpace(l[:i]) == "" {
			found = true
		}
	}
	if col < 0 || !found {
		t.Errorf("wrapped cells are not aligned under their column:\n%s", screen)
	}

	// Too narrow for columns: one row at a time, "header: value".
	screen, _ = renderChunks(t, []string{table}, 20, false)
	if strings.Contains(screen, "|") || !strings.Contains(screen, "option: maxInterval") || !strings.Contains(screen, "default: 30") {
		t.Fatalf("records at 20 columns:\n%s", screen)
	}
}

// A table narrowed to 60 columns wraps its cells at spaces: no ordinary
// word is split across rows.
func TestNarrowedTableKeepsWordsWhole(t *testing.T) {
	table := "| service | database | region | owner | notes |\n|---|---|---|---|---|\n" +
		"| billing-api | postgresql primary | eu-west | payments | replicated nightly to the warehouse cluster, retention ninety days |\n" +
		"| inventory | elasticsearch cluster | us-east | catalog | rebuilt from postgresql snapshots whenever the mapping changes |\n"
	screen, _ := renderChunks(t, []string{table}, 60, false)
	for _, l := range strings.Split(screen, "\n") {
		if style.Width(l) > 59 {
			t.Errorf("row wider than the terminal: %q", l)
		}
	}
	for _, word := range strings.Fields("billing-api postgresql replicated warehouse retention inventory elasticsearch snapshots whenever mapping changes") {
		if !strings.Contains(screen, word) {
			t.Errorf("%q split or lost:\n%s", word, screen)
		}
	}
	if !strings.Contains(lineOf(screen, "billing-api"), "postgresql") {
		t.Errorf("not laid out as a table:\n%s", screen)
	}
}

func lineOf(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
