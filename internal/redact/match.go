package redact

import (
	"math"
	"strings"
)

// Bounds of the text a rule that matches across lines is run on, from
// the line of its keyword: a private key of 8192 bits takes 100 lines.
const (
	maxMultiline = 64 << 10
	maxLines     = 160
)

// window is a part of the text a rule is run on.
type window struct{ start, end int }

// Bounds of the text a rule is run on around its keyword: the rules
// match a secret a few dozen bytes from it, and a longer run is the
// line's (a match cut at the end of a window is taken to the end of its
// token).
const (
	beforeKeyword = 256
	afterKeyword  = 1024
	// maxJoined bounds the overlapping windows of a rule run at once
	// (joinLimit).
	maxJoined = 4096
)

// find runs every rule whose keyword occurs in text on the text around
// the keyword, and nb's own shapes where their keywords occur, and adds
// what they find.
func (rs *ruleSet) find(text string, spans []span) []span {
	// per rule, the window not yet run: a rule of one line runs once on
	// each line holding its keywords (a short text, which Go runs with its
	// faster engine); overlapping windows are joined up to joinLimit
	pending := map[int]window{}
	var at [urlShape + 1][]int
	rs.index.find(text, func(h hit) {
		if shape := rs.own[h.keyword]; shape != noShape {
			at[shape] = append(at[shape], h.pos)
		}
		for _, ri := range rs.byKeyword[h.keyword] {
			r := rs.rules[ri]
			if r.assigns && !assignedNear(r, text, h.pos+len(rs.index.keywords[h.keyword])) {
				continue
			}
			if re, _ := r.compiled(); re != nil && r.at != nil && !rs.unanchored {
				spans = rs.runAt(r, text, h.pos, spans)
				continue
			}
			w := ruleWindow(text, h.pos, r.lines)
			if p, ok := pending[ri]; ok {
				if w.start < p.end && (w.start == p.start || w.end-p.start <= joinLimit(r)) {
					pending[ri] = window{p.start, max(p.end, w.end)}
					continue
				}
				spans = rs.run(r, text, p, spans)
			}
			pending[ri] = w
		}
	})
	for ri, w := range pending {
		spans = rs.run(rs.rules[ri], text, w, spans)
	}
	spans = findNetrc(text, at[netrcShape], rs, spans)
	spans = findPrivateKeyParts(text, at[keyEdgeShape], spans)
	return findURLCredentials(text, at[urlShape], rs, spans)
}

// joinLimit bounds the overlapping windows of rule r run at once: the
// keywords of a long line (or of a long stretch of lines, for a rule
// matching across lines, whose one window may be maxMultiline long) are
// looked for in few runs, not once each over nearly the same text.
func joinLimit(r *rule) int {
	if r.lines > 0 {
		return maxMultiline + maxJoined
	}
	return maxJoined
}

// assignedNear reports whether a value the rule could take for a secret
// may be assigned after its keyword, which ends at i: the rule set's
// expressions of this kind allow, after the name, up to 20 bytes of
// [ \t\w.-] and 3 blanks or quotes, then an operator (=, >, :, ||, ?=,
// ,), then up to 5 blanks, quotes or =, then the secret (searched up to
// as many bytes again, for a name longer than the keyword).
func assignedNear(r *rule, text string, i int) bool {
	op := -1
	for end := min(len(text), i+46); i < end && op < 0; i++ {
		switch c := text[i]; {
		case c == '=' || c == '>' || c == ':' || c == '|' || c == '?' || c == ',':
			op = i
		case c == '\n' || c == '\\':
			return false
		}
	}
	if op < 0 {
		return false
	}
	_, pre := r.compiled()
	return pre == nil || pre.may(text[op:min(len(text), op+afterOperator)])
}

// afterOperator bounds the text after an assignment's operator a rule's
// secret is looked for in: the 5 bytes before it and its length (the
// rule set's longest value of this kind is 150 bytes).
const afterOperator = 192

// ruleWindow is the text a rule is run on for a keyword at pos: its line
// within the bounds, or for a rule matching across lines, its line and
// the lines after it the rule may reach.
func ruleWindow(text string, pos int, lines int) window {
	if lines == 0 {
		return lineWithin(text, pos, pos-beforeKeyword, pos+afterKeyword)
	}
	w := lineWithin(text, pos, pos-beforeKeyword, pos+maxMultiline)
	limit := min(len(text), w.start+maxMultiline)
	end := w.end
	for range lines {
		next := skipBreak(text, end)
		if next == end || next >= limit {
			break
		}
		end = lineAround(text, next).end
	}
	return window{w.start, min(end, limit)}
}

// run applies one rule to one window of text, as gitleaks judges a
// match: the secret is the rule's secret group (or the first group that
// matched), it must pass the rule's entropy threshold, and no allow-list
// (global or the rule's) may let it through.
func (rs *ruleSet) run(r *rule, text string, w window, spans []span) []span {
	re, pre := r.compiled()
	if re == nil {
		return spans
	}
	part := text[w.start:w.end]
	if rs.ran != nil {
		rs.ran(r, len(part))
	}
	if pre != nil && (!pre.may(part) || !pre.holds(part)) || !re.MatchString(part) {
		// (a match without its groups costs Go's engine less: most
		// windows hold none)
		return spans
	}
	for _, m := range re.FindAllStringSubmatchIndex(part, -1) {
		spans = rs.judge(r, text, w, m, spans)
	}
	return spans
}

// judge adds the secret of one match m of rule r in the window w of text
// (its offsets from the window's start), unless it is too plain or an
// allow-list lets it through.
func (rs *ruleSet) judge(r *rule, text string, w window, m []int, spans []span) []span {
	part := text[w.start:w.end]
	start, end := m[0], m[1]
	// a match never takes the line break after it
	for end > start && part[end-1] == '\n' {
		end--
	}
	ss, se := secretGroup(m, r.secretGroup, start, end)
	secret := part[ss:se]
	if secret == "" || r.entropy != 0 && entropy(secret) <= r.entropy {
		return spans
	}
	match := part[start:end]
	line := lineText(part, start, end)
	if allowed(rs.global, secret, match, line) || allowed(r.allow, secret, match, line) {
		return spans
	}
	s := span{start: w.start + ss, end: w.start + se, kind: r.id}
	if se == len(part) {
		// cut by the window: the rest of its token goes with it
		s.end = tokenEndAt(text, s.end)
	}
	return append(spans, s)
}

// secretGroup is the part of a match that is the secret: the rule's
// group, else the first group that matched, else the whole match.
func secretGroup(m []int, group, start, end int) (int, int) {
	if len(m) < 4 {
		return start, end
	}
	if group > 0 {
		if 2*group+1 < len(m) && m[2*group] >= 0 {
			return m[2*group], m[2*group+1]
		}
		return start, end
	}
	for g := 1; 2*g+1 < len(m); g++ {
		if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
			return m[2*g], m[2*g+1]
		}
	}
	return start, end
}

// tokenEndAt is the end of the token going on at position i.
func tokenEndAt(text string, i int) int {
	for i < len(text) && !blank(text[i]) && text[i] != '"' && text[i] != '\'' && text[i] != '\\' {
		i++
	}
	return i
}

func allowed(lists []*allowlist, secret, match, line string) bool {
	for _, a := range lists {
		if a.allows(secret, match, line) {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, c := range s {
		counts[c]++
		n++
	}
	e := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		e -= p * math.Log2(p)
	}
	return e
}

// lineAround is the line holding position i. Lines end at a line break,
// and at the escapes \n and \r of text quoted as a JSON string (a tool
// result is a JSON document whose output is one string).
func lineAround(text string, i int) window {
	return lineWithin(text, i, 0, len(text))
}

// lineWithin is the part of the line holding position i that lies within
// [lo, hi): each keyword of a long line looks at its own stretch of it
// only, not at the whole line again.
func lineWithin(text string, i, lo, hi int) window {
	lo, hi = max(lo, 0), min(hi, len(text))
	start := i
	for start > lo {
		c := text[start-1]
		if c == '\n' || c == '\r' {
			break
		}
		if (c == 'n' || c == 'r') && start >= 2 && text[start-2] == '\\' {
			break
		}
		start--
	}
	end := i
	for end < hi {
		c := text[end]
		if c == '\n' || c == '\r' {
			break
		}
		if c == '\\' && end+1 < len(text) && (text[end+1] == 'n' || text[end+1] == 'r') {
			break
		}
		end++
	}
	return window{start, end}
}

// lineText is the whole line (or lines) of part holding [start, end).
func lineText(part string, start, end int) string {
	w := lineAround(part, start)
	if end > w.end {
		w.end = lineAround(part, max(end-1, start)).end
	}
	return part[w.start:w.end]
}

// escapeSafe widens [start, end) so that it cuts no backslash escape of a
// JSON string (\n, \", \\, \u00e9): a marker put in its place must leave
// the document valid.
func escapeSafe(text string, start, end int) (int, int) {
	if s, _, ok := escapeAround(text, start); ok {
		start = s
	}
	if end > start {
		if _, e, ok := escapeAround(text, end-1); ok {
			end = e
		}
	}
	return start, end
}

// escapeAround reports the escape sequence that position i is part of:
// a backslash preceded by an even run of backslashes, with the byte
// after it, or with five more for \uXXXX.
func escapeAround(text string, i int) (int, int, bool) {
	for k := 0; k <= 5 && i-k >= 0; k++ {
		s := i - k
		if text[s] != '\\' || !escapeStart(text, s) || s+1 >= len(text) {
			continue
		}
		n := 2
		if text[s+1] == 'u' {
			n = 6
		}
		if i < s+n {
			return s, min(len(text), s+n), true
		}
		return 0, 0, false
	}
	return 0, 0, false
}

// escapeStart reports whether the backslash at s starts an escape: it
// follows an even number of backslashes.
func escapeStart(text string, s int) bool {
	n := 0
	for j := s - 1; j >= 0 && text[j] == '\\'; j-- {
		n++
	}
	return n%2 == 0
}

// placeholder reports a value that only stands for a secret: empty, made
// of one repeated character (***, xxxx), a name in angle brackets or
// braces, a variable, or a word such as "password".
func placeholder(v string, rs *ruleSet) bool {
	if v == "" {
		return true
	}
	if strings.Trim(v, v[:1]) == "" {
		return true
	}
	switch strings.ToLower(v) {
	case "password", "passwd", "pass", "pwd", "secret", "token", "changeme", "username", "user", "example", "redacted", "hidden", "none", "null":
		return true
	}
	if v[0] == '<' && v[len(v)-1] == '>' || v[0] == '[' && v[len(v)-1] == ']' || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "%") {
		return true
	}
	return rs != nil && allowed(rs.global, v, v, v)
}
