package redact

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// Half of gitleaks' rules (its catch-all among them) read a value
// assigned to a name: a run of up to 50 name characters, lazily, then a
// keyword, an operator and the value. Go's regexp runs such an
// expression, hundreds of instructions long, by simulating it from every
// position of the text at once, at about a microsecond a byte. The
// keyword index already knows where every keyword is: the expression
// without its leading run, anchored, is run at the keyword, and the
// match's start is found by walking back over the name characters, as
// far as the run reaches. The match, its secret and the allow-lists'
// view of it are the original expression's (a differential test checks
// them on real output).

// The rules whose expression begins with its keyword (\bcurl\b …, run
// across lines) are anchored the same way, at the keyword.

// anchoredRule is a rule's expression anchored at its keyword.
type anchoredRule struct {
	re *regexp.Regexp
	// class and most are the leading run's characters and length (0
	// for an expression that begins with its keyword).
	class [256]bool
	most  int
	// boundary is set when the keyword must begin a word (\b).
	boundary bool
}

// newAnchored derives the anchored expression of src, or returns nil
// when src begins neither with a lazy run of one class of characters
// nor with one of keywords.
func newAnchored(src string, keywords []string) *anchoredRule {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 {
		return nil
	}
	a := &anchoredRule{}
	rest := re.Sub
	switch run := re.Sub[0]; {
	case run.Op == syntax.OpRepeat && run.Min == 0 && run.Max > 0 && run.Flags&syntax.NonGreedy != 0 && run.Sub[0].Op == syntax.OpCharClass:
		a.most = run.Max
		cls := run.Sub[0].Rune
		for i := 0; i+1 < len(cls); i += 2 {
			for c := cls[i]; c <= cls[i+1] && c < 256; c++ {
				a.class[c] = true
			}
		}
		rest = rest[1:]
	case run.Op == syntax.OpWordBoundary && len(re.Sub) > 2 && startsWithKeyword(re.Sub[1], keywords):
		a.boundary = true
		rest = rest[1:]
	case startsWithKeyword(run, keywords):
	default:
		return nil
	}
	anchored := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: append([]*syntax.Regexp{{Op: syntax.OpBeginText}}, rest...)}
	if a.re, err = regexp.Compile(anchored.String()); err != nil || a.re.NumSubexp() != regexp.MustCompile(src).NumSubexp() {
		return nil
	}
	return a
}

// startsWithKeyword reports a literal that is one of keywords (the
// keyword index ignores case; a literal that does not is not one).
func startsWithKeyword(re *syntax.Regexp, keywords []string) bool {
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase == 0 && strings.ToLower(string(re.Rune)) != string(re.Rune) {
		return false
	}
	return slices.Contains(keywords, strings.ToLower(string(re.Rune)))
}

// runAt applies a rule whose expression is anchored at a keyword found
// at pos, as run applies it to a window.
func (rs *ruleSet) runAt(r *rule, text string, pos int, spans []span) []span {
	a := r.at
	if a.boundary && pos > 0 && wordByte(text[pos-1]) {
		return spans
	}
	// the line only as far as the match may reach: each keyword of a long
	// line reading it whole made the line's keywords cost its length each
	line := lineWithin(text, pos, pos-a.most, pos+afterKeyword)
	end := line.end
	if r.lines > 0 {
		end = ruleWindow(text, pos, r.lines).end
	}
	m := a.re.FindStringSubmatchIndex(text[pos:end])
	if m == nil {
		return spans
	}
	start := pos
	for start > line.start && pos-start < a.most && text[start-1] < 128 && a.class[text[start-1]] {
		start--
	}
	for i := range m {
		if m[i] >= 0 {
			m[i] += pos - start
		}
	}
	m[0] = 0
	return rs.judge(r, text, window{start, end}, m, spans)
}

// wordByte reports a byte of \w.
func wordByte(c byte) bool { return alnumByte(c) || c == '_' }
