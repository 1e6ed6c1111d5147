package redact

import (
	"math"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A rule's regular expression is costly to run (gitleaks' catch-all rule
// costs microseconds a byte), and most lines holding one of its keywords
// cannot hold its secret. The precheck is a necessary condition read
// from the expression itself: the secret (its capture group) is made of
// the bytes of an alphabet and is at least so long; its entropy must pass
// the rule's threshold, which needs so many distinct characters. A window
// with no run of the alphabet that long and that varied is not run.

// precheck is what a window must hold for a rule to find a secret in it.
type precheck struct {
	// alphabet is the set of bytes the secret may hold; any is set when
	// it may hold a character outside ASCII (then only minLen is asked).
	alphabet [256]bool
	any      bool
	// minLen is the secret's least length in bytes; distinct the least
	// number of distinct characters its entropy needs.
	minLen   int
	distinct int
	// needs are sets of literals (lower case) of which every match holds
	// one at least: "curl", then "-u" or "--user".
	needs [][]string
}

// newPrecheck reads the precheck of a rule's expression; ok is false
// when the expression cannot be read (then the rule always runs).
func newPrecheck(src string, group int, entropyMin float64) (precheck, bool) {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return precheck{}, false
	}
	var groups []*syntax.Regexp
	collectCaptures(re, &groups)
	var targets []*syntax.Regexp
	switch {
	case len(groups) == 0:
		targets = []*syntax.Regexp{re}
	case group > 0 && group <= len(groups):
		targets = []*syntax.Regexp{groups[group-1]}
	default:
		// the secret is the first group that matched: any of them
		targets = groups
	}
	p := precheck{minLen: math.MaxInt}
	for _, t := range targets {
		addAlphabet(t, &p)
		p.minLen = min(p.minLen, minLength(t))
	}
	if entropyMin > 0 {
		// log2(k) > entropyMin needs k distinct characters
		p.distinct = int(math.Floor(math.Exp2(entropyMin))) + 1
	}
	p.minLen = max(p.minLen, p.distinct, 1)
	p.needs = required(re)
	return p, true
}

// required returns sets of literals of at least two bytes, lower-cased,
// of which every match of re holds one at least.
func required(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if s := string(re.Rune); len(s) >= 2 {
			return [][]string{{strings.ToLower(s)}}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var out [][]string
		for _, s := range re.Sub {
			out = append(out, required(s)...)
		}
		return out
	case syntax.OpAlternate:
		// one of the alternatives' own literals, if each has one
		var any []string
		for _, s := range re.Sub {
			r := required(s)
			if len(r) == 0 {
				return nil
			}
			any = append(any, r[0]...)
		}
		return [][]string{any}
	}
	return nil
}

// holds reports whether text holds one literal of every set of needs,
// ignoring case.
func (p *precheck) holds(text string) bool {
	if len(p.needs) == 0 {
		return true
	}
	lower := strings.ToLower(text)
	for _, set := range p.needs {
		found := false
		for _, lit := range set {
			if strings.Contains(lower, lit) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func collectCaptures(re *syntax.Regexp, out *[]*syntax.Regexp) {
	if re.Op == syntax.OpCapture {
		for len(*out) < re.Cap {
			*out = append(*out, nil)
		}
		(*out)[re.Cap-1] = re
	}
	for _, s := range re.Sub {
		collectCaptures(s, out)
	}
}

// addAlphabet adds the characters re can match to p's alphabet.
func addAlphabet(re *syntax.Regexp, p *precheck) {
	if re == nil {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			addRune(p, r, re.Flags&syntax.FoldCase != 0)
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf {
				p.any = true
				hi = utf8.RuneSelf - 1
			}
			for r := lo; r <= hi; r++ {
				p.alphabet[r] = true
			}
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		p.any = true
		for i := range p.alphabet {
			p.alphabet[i] = true
		}
		if re.Op == syntax.OpAnyCharNotNL {
			p.alphabet['\n'] = false
		}
	}
	for _, s := range re.Sub {
		addAlphabet(s, p)
	}
}

func addRune(p *precheck, r rune, fold bool) {
	if r >= utf8.RuneSelf {
		p.any = true
		return
	}
	p.alphabet[r] = true
	if fold {
		p.alphabet[lowerTable[r]] = true
		if r >= 'a' && r <= 'z' {
			p.alphabet[r-'a'+'A'] = true
		}
	}
}

// minLength is the least number of bytes re matches.
func minLength(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune))
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLength(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLength(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minLength(s)
		}
		return n
	case syntax.OpAlternate:
		n := math.MaxInt
		for _, s := range re.Sub {
			n = min(n, minLength(s))
		}
		return n
	}
	return 0 // star, quest, empty, anchors
}

// may reports whether text holds a run of the alphabet long and varied
// enough for the secret.
func (p *precheck) may(text string) bool {
	if p.any {
		return runLongEnough(text, p)
	}
	run, distinct := 0, 0
	var seen [256]bool
	var touched []byte
	reset := func() {
		for _, c := range touched {
			seen[c] = false
		}
		touched = touched[:0]
		run, distinct = 0, 0
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !p.alphabet[c] {
			reset()
			continue
		}
		run++
		if !seen[c] {
			seen[c] = true
			touched = append(touched, c)
			distinct++
		}
		if run >= p.minLen && distinct >= p.distinct {
			return true
		}
	}
	return false
}

// runLongEnough is may for an alphabet with characters outside ASCII:
// only the length counts.
func runLongEnough(text string, p *precheck) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < utf8.RuneSelf && !p.alphabet[c] {
			run = 0
			continue
		}
		if run++; run >= p.minLen {
			return true
		}
	}
	return false
}

// unbounded stands for a number of lines an expression can match without
// limit.
const unbounded = -1

// maxBreaks is how many line breaks re can match at most (unbounded: no
// limit): a rule matching across lines is run on that many lines after
// its keyword's.
func maxBreaks(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if r == '\n' {
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		return classBreaks(re.Rune)
	case syntax.OpAnyChar:
		return 1
	case syntax.OpCapture, syntax.OpQuest:
		return maxBreaks(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		if maxBreaks(re.Sub[0]) != 0 {
			return unbounded
		}
		return 0
	case syntax.OpRepeat:
		n := maxBreaks(re.Sub[0])
		switch {
		case n == 0:
			return 0
		case n == unbounded || re.Max < 0:
			return unbounded
		}
		return n * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, s := range re.Sub {
			n := maxBreaks(s)
			if n == unbounded {
				return unbounded
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return 0
}

// classBreaks is 1 for a character class written to match a line
// break: one holding a line break but no space ([\r\n]), or every ASCII
// character ([\s\S]). A class of blanks ([\s'"], [ \t\n]) is not, nor
// one excluding a few characters ([^"]): the rules use them for what
// surrounds a value on its line, and runs of one line are cheap to scan
// while runs of many are not.
func classBreaks(ranges []rune) int {
	var ascii [utf8.RuneSelf]bool
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < utf8.RuneSelf; r++ {
			ascii[r] = true
		}
	}
	if !ascii['\n'] {
		return 0
	}
	if !ascii[' '] {
		return 1
	}
	for _, in := range ascii {
		if !in {
			return 0
		}
	}
	return 1
}

// spanLines is how many lines after its keyword's a rule's expression
// may reach: its most line breaks, bounded by maxLines.
func spanLines(src string) int {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return maxLines
	}
	n := maxBreaks(re)
	if n == unbounded || n > maxLines {
		return maxLines
	}
	return n
}
