package winshell

import (
	"regexp"
	"strings"
)

// cmd.exe's for loops inside the plain subset:
//
//	for %v in (ITEM …) do COMMAND         the command once per item
//	for /d %v in (PATTERN …) do COMMAND   the same, directories
//	for /l %v in (START,STEP,END) do COMMAND
//	for /f ["OPTIONS"] %v in ('COMMAND') do COMMAND
//	for /f ["OPTIONS"] %v in ("TEXT") do COMMAND
//
// With usebackq among the options, "…" names files to read (outside the
// subset) and `…` is the command.
//
// The body runs once per item with the variable replaced by the item (a
// pattern stays a pattern: the command reads what it matches), or, where
// the values come at run time (numbers, a command's output, a text's
// tokens), with a Computed word: a value cmd.exe substitutes after the
// line is parsed, never an operator or a command. for /r, for /f over
// files (it reads them) and variables with modifiers (%~nxv) are outside
// the subset.

// maxLoopItems bounds the items a loop's body is judged for, one by one.
const maxLoopItems = 8

// forLoop appends the commands of a for loop (c, already in out) and of
// its body.
func (p *cmdParser) forLoop(out []*Command, c *Command, toks []*ctok, n, depth int) []*Command {
	h, ok := readFor(toks)
	if !ok {
		p.s.unknown("a for loop")
		return p.forOutside(out, c, toks, n, depth)
	}
	p.loopVars = append(p.loopVars, h.name)
	if h.command != "" {
		out = p.innerOf(out, c, h.command, "for", n, depth)
	}
	if h.items == nil || len(h.items) > maxLoopItems {
		return p.innerOf(out, c, h.body, "for", n, depth)
	}
	for _, item := range h.items {
		if strings.ContainsAny(item, "&|<>^\"%!()") {
			return p.innerOf(out, c, h.body, "for", n, depth)
		}
	}
	for _, item := range h.items {
		out = p.innerOf(out, c, replaceFold(h.body, "%"+h.name, item), "for", n, depth)
	}
	return out
}

// forHeader is what a for loop's words say.
type forHeader struct {
	name string // the variable, without %
	// items are the values the body runs with, as written (nil: known
	// only at run time)
	items []string
	// command is the command whose output /f reads, body the loop's
	// command, as cmd.exe would read them
	command, body string
}

// readFor reads a for loop's words; ok is false for a form outside the
// subset.
func readFor(toks []*ctok) (forHeader, bool) {
	var h forHeader
	i, kind, backq := 1, "", false
	for i < len(toks) && strings.HasPrefix(toks[i].text(), "/") {
		kind = strings.ToLower(toks[i].text())
		i++
		if kind == "/f" && i < len(toks) && len(toks[i].r) > 0 && toks[i].kind[0] == kQuote {
			// the options: usebackq (or its undocumented useback) makes
			// "…" a file to read
			backq = strings.Contains(strings.ToLower(toks[i].text()), "useback")
			i++
		}
	}
	if kind != "" && kind != "/d" && kind != "/l" && kind != "/f" {
		return h, false
	}
	if i+3 >= len(toks) || !loopVar(toks[i].text()) || !strings.EqualFold(toks[i+1].text(), "in") || toks[i+2].raw != "(" {
		return h, false
	}
	h.name = toks[i].text()[1:]
	set, rest := setOf(toks[i+3:])
	if len(rest) < 2 || !strings.EqualFold(rest[0].text(), "do") {
		return h, false
	}
	parts := make([]string, 0, len(rest)-1)
	for _, t := range rest[1:] {
		parts = append(parts, t.line())
	}
	h.body = strings.Join(parts, " ")
	text := strings.TrimSpace(strings.Join(set, " "))
	switch kind {
	case "", "/d":
		h.items = strings.Fields(text)
	case "/f":
		switch {
		case len(text) >= 2 && (text[0] == '\'' || text[0] == '`') && text[len(text)-1] == text[0]:
			h.command = text[1 : len(text)-1]
		case len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' && !backq:
		default:
			return h, false // it reads the files the set names
		}
	}
	return h, true
}

// loopVar says w is a for loop's variable: % and one letter.
func loopVar(w string) bool {
	return len(w) == 2 && w[0] == '%' && isDriveLetter(w[1])
}

// setOf reads a for loop's set up to its closing parenthesis: the set's
// words, and the tokens after it (nil when it does not close).
func setOf(toks []*ctok) ([]string, []*ctok) {
	var set []string
	for i, t := range toks {
		if t.raw == ")" {
			return set, toks[i+1:]
		}
		set = append(set, t.line())
	}
	return nil, nil
}

// forOutside is a loop outside the subset: the command /f runs and the
// body are still parsed, so deny rules and warnings see them.
func (p *cmdParser) forOutside(out []*Command, c *Command, toks []*ctok, n, depth int) []*Command {
	open := -1
	for i, t := range toks {
		switch {
		case t.raw == "(" && open == -1:
			open = i
		case t.raw == ")" && open >= 0:
			var parts []string
			for _, t := range toks[open+1 : i] {
				parts = append(parts, t.line())
			}
			set := strings.TrimSpace(strings.Join(parts, " "))
			if len(set) >= 2 && (set[0] == '\'' || set[0] == '`') && set[len(set)-1] == set[0] {
				out = p.innerOf(out, c, set[1:len(set)-1], "for", n, depth)
			}
			open = -2 // only the first set
		}
	}
	for i, t := range toks {
		if strings.EqualFold(t.text(), "do") {
			parts := make([]string, 0, len(toks)-i-1)
			for _, t := range toks[i+1:] {
				parts = append(parts, t.line())
			}
			out = p.innerOf(out, c, strings.Join(parts, " "), "for", n, depth)
			break
		}
	}
	return out
}

// innerOf appends the commands of text, which c runs.
func (p *cmdParser) innerOf(out []*Command, c *Command, text, via string, n, depth int) []*Command {
	from := len(out)
	out = p.line(out, text, n, via, depth+1)
	c.Inner = append(c.Inner, out[from:]...)
	return out
}

// loopValues marks the words of c that name a loop variable of the line
// (%v) as values known only at run time.
func (p *cmdParser) loopValues(c *Command) {
	if len(p.loopVars) == 0 {
		return
	}
	for i, w := range c.Words {
		for _, v := range p.loopVars {
			if strings.Contains(strings.ToLower(w.Text), "%"+strings.ToLower(v)) {
				c.Words[i].Dynamic, c.Words[i].Computed = true, true
			}
		}
	}
}

// replaceFold replaces old (any case) in s by new.
func replaceFold(s, old, new string) string {
	var b strings.Builder
	lower, lold := strings.ToLower(s), strings.ToLower(old)
	for {
		i := strings.Index(lower, lold)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(new)
		s, lower = s[i+len(old):], lower[i+len(old):]
	}
}

// setVar finds cmd.exe's assignments of a literal value (set a=for).
var setVar = regexp.MustCompile(`(?i)\bset\s+"?([a-z_][a-z0-9_]*)=([^&|"\r\n]*)`)

// ExpandDelayed is the text of a cmd.exe script with its delayed
// expansions (!a!) replaced by the literal values the script itself
// assigns them (set a=for): what cmd /v:on may run. It is a guess for
// warnings, never for allowing (a value may come from elsewhere).
func ExpandDelayed(src string) string {
	for _, m := range setVar.FindAllStringSubmatch(src, -1) {
		src = replaceFold(src, "!"+m[1]+"!", strings.TrimSpace(m[2]))
	}
	return src
}
