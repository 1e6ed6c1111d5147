package files

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the byte order mark some editors put at the start of UTF-8
// files.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// textForm is how a file spells its text: a byte order mark and CRLF line
// ends, which an edit or a rewrite keeps.
type textForm struct {
	bom, crlf bool
}

// formOf reads the form of data: CRLF when most of its line ends are.
func formOf(data []byte) textForm {
	crlf := bytes.Count(data, []byte("\r\n"))
	lf := bytes.Count(data, []byte("\n"))
	return textForm{bom: bytes.HasPrefix(data, utf8BOM), crlf: crlf > 0 && crlf*2 >= lf}
}

// spell writes text (as the model wrote it, with \n line ends) in form f:
// lone \n become \r\n in a CRLF file.
func (f textForm) spell(text string) string {
	if !f.crlf {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && (i == 0 || text[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

// rewrite is content written over a file of form f: the file's line ends
// and byte order mark are kept when the content has none of its own.
func (f textForm) rewrite(content string) []byte {
	if f.crlf && !strings.Contains(content, "\r\n") {
		content = f.spell(content)
	}
	if f.bom && !strings.HasPrefix(content, string(utf8BOM)) {
		content = string(utf8BOM) + content
	}
	return []byte(content)
}

// replaceText replaces oldText by newText in data, keeping the file's
// byte order mark and line ends; it returns the new bytes and how many
// places changed. The errors are written for the model: not found (with
// the closest candidates), found more than once (with their lines).
func replaceText(data []byte, oldText, newText string, all bool) ([]byte, int, error) {
	switch {
	case oldText == "":
		return nil, 0, fmt.Errorf("oldText is empty: give the exact text to replace (to create or rewrite a whole file, use write_file)")
	case oldText == newText:
		return nil, 0, fmt.Errorf("oldText and newText are the same: nothing would change")
	}
	form := formOf(data)
	body := string(data)
	if form.bom {
		body = body[len(utf8BOM):]
	}
	oldText = strings.TrimPrefix(oldText, string(utf8BOM))
	newText = strings.TrimPrefix(newText, string(utf8BOM))
	o, n := form.spell(oldText), form.spell(newText)
	count := strings.Count(body, o)
	if count == 0 && o != oldText {
		// a CRLF file whose text the model quoted with its \r kept
		o, n = oldText, newText
		count = strings.Count(body, o)
	}
	switch {
	case count == 0:
		return nil, 0, notFound(body, oldText)
	case count > 1 && !all:
		return nil, 0, fmt.Errorf("oldText occurs %d times (at lines %s): add surrounding lines so that it occurs once, or set replaceAll to replace every occurrence", count, occurrences(body, o))
	}
	limit := 1
	if all {
		limit = -1
	}
	out := strings.Replace(body, o, n, limit)
	if form.bom {
		out = string(utf8BOM) + out
	}
	return []byte(out), count, nil
}

// occurrences lists the line numbers where o starts in body (the first
// ten).
func occurrences(body, o string) string {
	var lines []string
	at := 0
	for i := 0; i < 10; i++ {
		k := strings.Index(body[at:], o)
		if k < 0 {
			break
		}
		lines = append(lines, fmt.Sprint(strings.Count(body[:at+k], "\n")+1))
		at += k + max(len(o), 1)
	}
	return strings.Join(lines, ", ")
}

// notFound explains a missing oldText: the place where it matches but for
// whitespace, else the lines most like its first line.
func notFound(body, oldText string) error {
	const msg = "oldText was not found in the file (it must match exactly, whitespace and line breaks included; read the file again and copy the text)"
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	want := strings.Split(strings.Trim(strings.ReplaceAll(oldText, "\r\n", "\n"), "\n"), "\n")
	if at := looseIndex(lines, want); at >= 0 {
		return fmt.Errorf("%s; the same text with other whitespace is at line %d:\n%s", msg, at+1, numbered(lines[at:at+len(want)], at+1))
	}
	first := ""
	for _, w := range want {
		if strings.TrimSpace(w) != "" {
			first = strings.TrimSpace(w)
			break
		}
	}
	type cand struct {
		line  int
		score float64
	}
	var cands []cand
	for i, l := range lines {
		if s := similarity(first, strings.TrimSpace(l)); s >= 0.5 {
			cands = append(cands, cand{i, s})
		}
	}
	if len(cands) == 0 {
		return fmt.Errorf("%s; no line of the file is close to its first line %q", msg, cut(first, 120))
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var b strings.Builder
	for i, c := range cands {
		if i == 3 {
			break
		}
		fmt.Fprintf(&b, "%6d: %s\n", c.line+1, cut(lines[c.line], 200))
	}
	return fmt.Errorf("%s; the lines closest to its first line are:\n%s", msg, strings.TrimRight(b.String(), "\n"))
}

// looseIndex finds want in lines comparing each line with its runs of
// blanks made one space and its ends trimmed; -1 when it is not there.
func looseIndex(lines, want []string) int {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	w := make([]string, len(want))
	for i := range want {
		w[i] = norm(want[i])
	}
	for i := 0; i+len(w) <= len(lines); i++ {
		ok := true
		for k := range w {
			if norm(lines[i+k]) != w[k] {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

func numbered(lines []string, from int) string {
	var b strings.Builder
	for i, l := range lines {
		if i == 5 {
			fmt.Fprintf(&b, "%6s  … %d more lines\n", "", len(lines)-i)
			break
		}
		fmt.Fprintf(&b, "%6d: %s\n", from+i, cut(l, 200))
	}
	return strings.TrimRight(b.String(), "\n")
}

// similarity is the Dice coefficient of the character pairs of a and b:
// 1 for equal strings, 0 for strings sharing no pair.
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	pairs := func(s string) map[string]int {
		m := map[string]int{}
		r := []rune(s)
		for i := 0; i+1 < len(r); i++ {
			m[string(r[i:i+2])]++
		}
		return m
	}
	pa, pb := pairs(a), pairs(b)
	na, nb, common := 0, 0, 0
	for k, v := range pa {
		na += v
		common += min(v, pb[k])
	}
	for _, v := range pb {
		nb += v
	}
	if na+nb == 0 {
		return 0
	}
	return 2 * float64(common) / float64(na+nb)
}

// cut shortens s to n bytes on a character boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
