package winshell

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf16"
)

// isSingleQuote says PowerShell reads r as a single quote (it accepts the
// typographic ones: ‘ ’ ‚ ‛).
func isSingleQuote(r rune) bool {
	return r == '\'' || r == '‘' || r == '’' || r == '‚' || r == '‛'
}

// isDoubleQuote says PowerShell reads r as a double quote (“ ” „ too).
func isDoubleQuote(r rune) bool { return r == '"' || r == '“' || r == '”' || r == '„' }

// IsDash says PowerShell reads r as the dash of a parameter or operator:
// the hyphen, en dash, em dash and horizontal bar.
func IsDash(r rune) bool { return r == '-' || r == '–' || r == '—' || r == '―' }

// ptok is a PowerShell token.
type ptok struct {
	kind  int // pWord, pParam, pSep, pPipe, pAmp, pOpen, pClose, pRedir, pComma
	text  string
	word  Word
	redir *Redir
	line  int
	// spaced: blanks come before it (.AddDays( after a group is a member
	// and its call only when nothing does)
	spaced bool
}

const (
	pWord = iota
	pParam
	pSep // ; newline && ||
	pPipe
	pAmp
	pOpen
	pClose
	pRedir
	pComma
)

// psKeywords start statements outside the subset.
var psKeywords = map[string]bool{
	"if": true, "elseif": true, "else": true, "for": true, "foreach": true, "while": true, "do": true,
	"until": true, "switch": true, "function": true, "filter": true, "workflow": true, "param": true,
	"try": true, "catch": true, "finally": true, "trap": true, "return": true, "throw": true, "break": true,
	"continue": true, "exit": true, "begin": true, "process": true, "end": true, "class": true, "enum": true,
	"using": true, "data": true, "dynamicparam": true, "configuration": true, "inlinescript": true,
	"parallel": true, "sequence": true, "hidden": true, "static": true,
}

type psLexer struct {
	// spaced: a blank was read since the last token
	spaced bool
	rs     []rune
	src    string // the text when rs are its bytes (ASCII), else ""
	i      int
	line   int
	s      *Script
	opts   Options
	toks   []ptok
}

func isPSWordEnd(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("{}();|&,<>\n", r)
}

// raw is rs[a:b] as written.
func (l *psLexer) raw(a, b int) string {
	if l.src != "" {
		return l.src[a:b]
	}
	return string(l.rs[a:b])
}

func (l *psLexer) emit(t ptok) {
	t.line = l.line
	t.spaced, l.spaced = l.spaced, false
	l.toks = append(l.toks, t)
}

// variable reads a $ reference at l.i (which is at '$'); it returns the
// substituted text and whether it is known.
func (l *psLexer) variable() (string, bool) {
	rs := l.rs
	j := l.i + 1
	if j < len(rs) && rs[j] == '{' {
		for j < len(rs) && rs[j] != '}' {
			j++
		}
		l.i = min(j, len(rs)-1)
		return string(rs[l.i:]), false
	}
	for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == ':' || rs[j] == '?' || rs[j] == '^' || rs[j] == '$') {
		j++
		if rs[j-1] == '?' || rs[j-1] == '^' || rs[j-1] == '$' {
			break
		}
	}
	name := strings.ToLower(string(rs[l.i+1 : j]))
	l.i = j - 1
	if (name == "home" || name == "env:userprofile") && l.opts.Home != "" {
		return l.opts.Home, true
	}
	if name == "null" || name == "true" || name == "false" {
		return "$" + name, true // constants
	}
	if env, ok := strings.CutPrefix(name, "env:"); ok {
		if v, ok := usualValue(env, l.opts); ok {
			// its usual value, for warnings and deny rules; still dynamic
			return v, false
		}
	}
	return "$" + name, false
}

// wordAt reads a bare or quoted word starting at l.i.
func (l *psLexer) wordAt() Word {
	rs := l.rs
	r := &psWord{l: l, start: l.i, verbatim: true}
	for ; l.i < len(rs); l.i++ {
		c := rs[l.i]
		switch {
		case isSingleQuote(c):
			r.single()
		case isDoubleQuote(c):
			r.double()
		case c == '`':
			r.leave()
			l.s.unknown("a backtick escape")
			r.w.Dynamic = true
			if l.i+1 < len(rs) {
				l.i++
				r.b.WriteRune(rs[l.i])
			}
		case c == '$':
			if l.i+1 < len(rs) && rs[l.i+1] == '(' {
				// a subexpression inside a word: the word ends here, the
				// group is read as its own token
				l.s.unknown("a subexpression")
				r.w.Dynamic = true
				return r.done(l.i)
			}
			if r.variable() {
				// $x=… is an assignment: the variable is a word of its own
				return r.done(l.i + 1)
			}
		case isPSWordEnd(c):
			return r.done(l.i)
		default:
			if c == '*' || c == '?' {
				r.w.Glob = true
			}
			if !r.verbatim {
				r.b.WriteRune(c)
			}
		}
	}
	return r.done(min(l.i, len(rs)))
}

// psWord is a word being read by wordAt.
type psWord struct {
	l     *psLexer
	start int
	b     strings.Builder
	// verbatim: nothing is written to b yet, the word so far is
	// rs[start:l.i] as written
	verbatim bool
	w        Word
}

// leave ends the verbatim part: the text differs from what is written.
func (r *psWord) leave() {
	if r.verbatim {
		r.verbatim = false
		for _, c := range r.l.rs[r.start:r.l.i] {
			r.b.WriteRune(c)
		}
	}
}

// done ends the word before rs[end] and leaves l.i at its last rune.
func (r *psWord) done(end int) Word {
	r.w.Raw = r.l.raw(r.start, end)
	r.w.Text = r.w.Raw
	if !r.verbatim {
		r.w.Text = r.b.String()
	}
	r.l.i = end - 1
	return r.w
}

// single reads a single-quoted part (two quotes in a row are one).
func (r *psWord) single() {
	l, rs := r.l, r.l.rs
	r.leave()
	r.w.Quoted = true
	l.i++
	for ; l.i < len(rs); l.i++ {
		if isSingleQuote(rs[l.i]) {
			if l.i+1 < len(rs) && isSingleQuote(rs[l.i+1]) {
				r.b.WriteRune(rs[l.i])
				l.i++
				continue
			}
			break
		}
		if rs[l.i] == '\n' {
			l.line++
		}
		r.b.WriteRune(rs[l.i])
	}
	if l.i >= len(rs) {
		l.s.unknown("an unclosed quote")
	}
}

// double reads a double-quoted part, with its escapes and variables.
func (r *psWord) double() {
	l, rs := r.l, r.l.rs
	r.leave()
	r.w.Quoted = true
	l.i++
	for ; l.i < len(rs) && !isDoubleQuote(rs[l.i]); l.i++ {
		switch rs[l.i] {
		case '`':
			l.s.unknown("an escape in a string")
			r.w.Dynamic = true
			if l.i+1 < len(rs) {
				l.i++
				r.b.WriteRune(rs[l.i])
			}
			continue
		case '$':
			v, ok := l.variable()
			if !ok {
				l.s.unknown("a variable or subexpression in a string")
				r.w.Dynamic = true
			}
			r.b.WriteString(v)
			continue
		case '\n':
			l.line++
		}
		r.b.WriteRune(rs[l.i])
	}
	if l.i >= len(rs) {
		l.s.unknown("an unclosed quote")
	}
}

// variable reads a $ reference in a bare word; true: it starts the word
// and is assigned ($x=, $x+=), so it is a word of its own.
func (r *psWord) variable() (assigned bool) {
	l, rs := r.l, r.l.rs
	r.leave()
	atStart := l.i == r.start
	v, ok := l.variable()
	if !ok {
		l.s.unknown("a variable")
		r.w.Dynamic = true
	}
	r.b.WriteString(v)
	return atStart && l.i+1 < len(rs) && (rs[l.i+1] == '=' || l.i+2 < len(rs) && strings.ContainsRune("+-*/%?", rs[l.i+1]) && rs[l.i+2] == '=')
}

func (l *psLexer) lex() {
	rs := l.rs
	for l.i = 0; l.i < len(rs); l.i++ {
		next := rune(0)
		if l.i+1 < len(rs) {
			next = rs[l.i+1]
		}
		if !l.token(rs[l.i], next) {
			return
		}
	}
}

// token reads the token starting with r at l.i (next is the rune after
// it), leaving l.i at its last rune; false: the rest cannot be read.
func (l *psLexer) token(r, next rune) bool {
	rs := l.rs
	switch {
	case r == '\n':
		l.emit(ptok{kind: pSep, text: "\n"})
		l.line++
	case unicode.IsSpace(r):
		l.spaced = true
	case r == '#':
		for l.i < len(rs) && rs[l.i] != '\n' {
			l.i++
		}
		l.i--
	case r == '<' && next == '#':
		return l.blockComment()
	case r == ';':
		l.emit(ptok{kind: pSep, text: ";"})
	case r == '|' && next == '|', r == '&' && next == '&':
		l.emit(ptok{kind: pSep, text: string([]rune{r, next})})
		l.i++
	case r == '|':
		l.emit(ptok{kind: pPipe, text: "|"})
	case r == '&':
		l.emit(ptok{kind: pAmp, text: "&"})
	case r == ',':
		l.emit(ptok{kind: pComma, text: ","})
	case r == '(' || r == '{':
		l.emit(ptok{kind: pOpen, text: string(r)})
	case (r == '$' || r == '@') && (next == '(' || next == '{'):
		l.emit(ptok{kind: pOpen, text: string([]rune{r, next})})
		l.i++
	case r == ')' || r == '}':
		l.emit(ptok{kind: pClose, text: string(r)})
	case r == '@' && (next == '\'' || next == '"'):
		return l.hereString(next)
	case r == '@':
		l.s.unknown("splatting")
		w := l.wordAt()
		w.Dynamic = true
		l.emit(ptok{kind: pWord, word: w})
	case r == '[':
		l.typeLiteral()
	case r == '>' || (r == '*' || r >= '1' && r <= '6') && next == '>':
		l.redirect(r)
	case r == '<':
		l.s.unknown("the reserved < operator")
		l.emit(ptok{kind: pRedir, text: "<", redir: &Redir{Op: "<", Read: true}})
	case r == '-' && next == '-' && l.i+2 < len(rs) && rs[l.i+2] == '%':
		l.stopParsing()
	case IsDash(r) && (unicode.IsLetter(next) || next == '_' || next == '?'):
		l.param(r)
	case r == '$' && l.statementStart():
		if w, ok := l.automatic(); ok {
			l.emit(ptok{kind: pWord, word: w})
			return true
		}
		l.emit(ptok{kind: pWord, word: l.wordAt()})
	default:
		l.emit(ptok{kind: pWord, word: l.wordAt()})
	}
	return true
}

// blockComment skips a <# … #> comment.
func (l *psLexer) blockComment() bool {
	rs := l.rs
	end := strings.Index(string(rs[l.i:]), "#>")
	if end < 0 {
		l.s.unknown("an unclosed block comment")
		return false
	}
	seg := string(rs[l.i:])[:end+2]
	l.line += strings.Count(seg, "\n")
	l.i += len([]rune(seg)) - 1
	return true
}

// hereString reads a here-string (@' … '@, @" … "@) as one run-time word.
func (l *psLexer) hereString(quote rune) bool {
	rs := l.rs
	l.s.unknown("a here-string")
	end := strings.Index(string(rs[l.i+2:]), string(quote)+"@")
	w := Word{Dynamic: true, Raw: "@" + string(quote) + "…"}
	if end < 0 {
		l.emit(ptok{kind: pWord, word: w})
		return false
	}
	seg := string(rs[l.i+2:])[:end+2]
	l.line += strings.Count(seg, "\n")
	l.i += 2 + len([]rune(seg)) - 1
	l.emit(ptok{kind: pWord, word: w})
	return true
}

// typeLiteral reads a type or attribute ([int], [IO.File]::ReadAllText)
// and what is attached to it, as one run-time word.
func (l *psLexer) typeLiteral() {
	rs := l.rs
	l.s.unknown("a type or attribute")
	depth := 0
	start := l.i
	for ; l.i < len(rs); l.i++ {
		if rs[l.i] == '[' {
			depth++
		} else if rs[l.i] == ']' {
			depth--
			if depth == 0 {
				break
			}
		}
	}
	if l.i+1 < len(rs) && !isPSWordEnd(rs[l.i+1]) {
		l.i++
		l.wordAt()
	}
	end := min(l.i+1, len(rs))
	l.emit(ptok{kind: pWord, word: Word{Dynamic: true, Raw: string(rs[start:end]), Text: string(rs[start:end])}})
}

// redirect reads an output redirection (>, >>, 2>, *>, 2>&1).
func (l *psLexer) redirect(r rune) {
	rs := l.rs
	op := string(r)
	if r != '>' {
		op += ">"
		l.i++
	}
	if l.i+1 < len(rs) && rs[l.i+1] == '>' {
		op += ">"
		l.i++
	}
	rd := &Redir{Op: op, Write: true}
	if l.i+2 < len(rs) && rs[l.i+1] == '&' && rs[l.i+2] >= '1' && rs[l.i+2] <= '6' {
		rd.Op += "&" + string(rs[l.i+2])
		rd.Write = false
		l.i += 2
	}
	l.emit(ptok{kind: pRedir, text: rd.Op, redir: rd})
}

// stopParsing reads the stop-parsing token --%: the rest of the line
// goes to the program as written, its words still the program's
// arguments.
func (l *psLexer) stopParsing() {
	l.s.unknown("the stop-parsing token --%")
	rest := string(l.rs[l.i:])
	if k := strings.IndexByte(rest, '\n'); k >= 0 {
		rest = rest[:k]
	}
	l.i += len([]rune(rest)) - 1
	for _, f := range strings.Fields(rest[3:]) {
		l.emit(ptok{kind: pWord, word: Word{Text: f, Raw: f, Glob: strings.ContainsAny(f, "*?")}})
	}
}

// param reads a parameter (-Path, –Path, -Name:value); dash is the dash
// it starts with.
func (l *psLexer) param(dash rune) {
	w := l.wordAt()
	if dash != '-' {
		// PowerShell reads an en dash, em dash or horizontal bar
		// as the parameter's dash
		w.Text = "-" + strings.TrimPrefix(w.Text, string(dash))
	}
	if name, v, ok := splitParam(w); ok {
		// -Name:value is the parameter and its argument, quoted or not
		// (-Path:'.env' is the path .env)
		l.emit(ptok{kind: pParam, word: Word{Text: name, Raw: name}})
		l.emit(ptok{kind: pWord, word: v})
		return
	}
	l.emit(ptok{kind: pParam, word: w})
}

// splitParam splits -Name:value, as PowerShell reads it: a dash and a
// name of letters, digits and _ written plainly, a colon, the argument
// (which may be quoted or hold variables).
func splitParam(w Word) (string, Word, bool) {
	j := strings.IndexByte(w.Raw, ':')
	if j < 0 {
		return "", Word{}, false
	}
	rs := []rune(w.Raw[:j])
	if len(rs) < 2 || !IsDash(rs[0]) {
		return "", Word{}, false
	}
	for _, r := range rs[1:] {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return "", Word{}, false
		}
	}
	name := "-" + string(rs[1:])
	if !strings.HasPrefix(w.Text, name+":") {
		return "", Word{}, false
	}
	v := w
	v.Text, v.Raw = w.Text[len(name)+1:], w.Raw[j+1:]
	return name, v, true
}

// psAutomatic are automatic variables that only describe PowerShell, its
// host and process: one alone on a line ($PSVersionTable, with
// properties: $PSVersionTable.PSVersion) prints it, like a command.
var psAutomatic = map[string]bool{"psversiontable": true, "pshome": true, "host": true, "pid": true,
	"psculture": true, "psuiculture": true, "iswindows": true, "islinux": true, "ismacos": true,
	"iscoreclr": true, "pwd": true}

// statementStart says the lexer is where a statement begins.
func (l *psLexer) statementStart() bool {
	return len(l.toks) == 0 || l.toks[len(l.toks)-1].kind == pSep
}

// automatic reads, at l.i, a psAutomatic variable with property names
// that ends its statement (or its pipeline's first element); it leaves
// l.i on its last rune.
func (l *psLexer) automatic() (Word, bool) {
	rs := l.rs
	isName := func(r rune) bool { return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') }
	j := l.i + 1
	for j < len(rs) && isName(rs[j]) {
		j++
	}
	if !psAutomatic[strings.ToLower(string(rs[l.i+1:j]))] {
		return Word{}, false
	}
	for j+1 < len(rs) && rs[j] == '.' && isName(rs[j+1]) {
		j++
		for j < len(rs) && isName(rs[j]) {
			j++
		}
	}
	k := j
	for k < len(rs) && (rs[k] == ' ' || rs[k] == '\t') {
		k++
	}
	if k < len(rs) && !strings.ContainsRune("\n;|", rs[k]) || k+1 < len(rs) && rs[k] == '|' && rs[k+1] == '|' {
		return Word{}, false
	}
	text := string(rs[l.i:j])
	l.i = j - 1
	return Word{Text: text, Raw: text}, true
}

// ParsePowerShell parses a PowerShell script.
func ParsePowerShell(src string, opts Options) *Script {
	return parsePS(src, opts, 0)
}

func parsePS(src string, opts Options, depth int) *Script {
	s := &Script{}
	for _, ln := range strings.Split(src, "\n") {
		if strings.TrimSpace(ln) != "" {
			s.Lines++
		}
	}
	if depth > maxDepth {
		s.unknown("commands nested too deeply")
		return s
	}
	text := strings.ReplaceAll(src, "\r\n", "\n")
	lx := &psLexer{rs: []rune(text), line: 1, s: s, opts: opts}
	if ascii(text) {
		lx.src = text
	}
	// about one token a separator
	lx.toks = make([]ptok, 0, 1+strings.Count(text, " ")+strings.Count(text, "\n")+strings.Count(text, ";")+strings.Count(text, "|"))
	lx.lex()
	p := &psParser{toks: lx.toks, s: s, opts: opts, depth: depth}
	p.block("", "")
	return s
}

type psParser struct {
	toks  []ptok
	i     int
	s     *Script
	opts  Options
	depth int
	// aliases are those the script itself defines (Set-Alias ls
	// Remove-Item): a later command of that name is the alias's command
	aliases map[string]string
}

// block parses statements until close (or the end).
func (p *psParser) block(via, close string) {
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		if t.kind == pClose {
			if t.text != close {
				p.s.unknown("an unmatched " + t.text)
			}
			p.i++
			return
		}
		if t.kind == pSep {
			p.i++
			continue
		}
		p.pipeline(via)
	}
	if close != "" {
		p.s.unknown("an unclosed " + close)
	}
}

func (p *psParser) pipeline(via string) {
	pipeIn := false
	for p.i < len(p.toks) {
		c := p.command(via)
		if c != nil {
			c.PipeIn = pipeIn
		}
		// a pipeline goes on after a | at the end of a line, and (in
		// PowerShell 7) at a | that begins the next line
		k := p.i
		for k < len(p.toks) && p.toks[k].kind == pSep && p.toks[k].text == "\n" {
			k++
		}
		if k < len(p.toks) && p.toks[k].kind == pPipe {
			p.i = k
		}
		if p.i < len(p.toks) && p.toks[p.i].kind == pPipe {
			p.i++
			for p.i < len(p.toks) && p.toks[p.i].kind == pSep && p.toks[p.i].text == "\n" {
				p.i++
			}
			if c != nil {
				c.PipeOut = true
			}
			pipeIn = true
			continue
		}
		return
	}
}

func closer(open string) string {
	if strings.HasSuffix(open, "{") {
		return "}"
	}
	return ")"
}

// command parses one command of a pipeline.
func (p *psParser) command(via string) *Command {
	c := &Command{Via: via, PowerShell: true}
	first := true
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		if t.kind == pSep || t.kind == pPipe || t.kind == pClose {
			break
		}
		if c.Line == 0 {
			c.Line = t.line
		}
		p.i++
		switch t.kind {
		case pWord, pParam:
			c.Words = append(c.Words, t.word)
		case pComma:
			if first {
				p.s.unknown("an array expression")
			}
		case pAmp:
			if first {
				p.s.unknown("the & call operator")
			} else {
				p.s.unknown("& (a background job)")
			}
		case pOpen:
			if !p.opening(t, c) {
				return nil
			}
		case pRedir:
			p.redirect(t, c)
		}
		first = false
	}
	if len(c.Words) == 0 && len(c.Redirs) == 0 {
		return nil
	}
	if len(c.Words) == 1 && c.Words[0].Computed && len(c.Redirs) == 0 {
		// (Get-Date).AddDays(-1) alone: the value is printed; its
		// commands are judged on their own
		return nil
	}
	if rhs := p.assignment(c); rhs != nil {
		return rhs
	}
	p.s.Commands = append(p.s.Commands, c)
	return p.finish(c)
}

// opening reads what an opening token t starts among c's words: a
// method call's arguments, a group, or a block read as one run-time
// word; false: commands are nested too deeply.
func (p *psParser) opening(t ptok, c *Command) bool {
	if p.callArgs(t, c) {
		return true
	}
	if w, ok := p.group(t); ok {
		c.Words = append(c.Words, w)
		return true
	}
	kind := "subexpression"
	if strings.HasSuffix(t.text, "{") {
		kind = "script block"
	}
	if t.text == "@{" {
		kind = "hash table"
	}
	p.s.unknown("a " + kind)
	p.depth++
	if p.depth > maxDepth {
		p.s.unknown("commands nested too deeply")
		p.i = len(p.toks)
		return false
	}
	p.block(kind, closer(t.text))
	p.depth--
	c.Words = append(c.Words, Word{Dynamic: true, Raw: t.text + "…" + closer(t.text), Text: t.text + "…" + closer(t.text)})
	return true
}

// redirect adds the redirection t (and its file) to c.
func (p *psParser) redirect(t ptok, c *Command) {
	rd := *t.redir
	if rd.Write && !strings.Contains(rd.Op, "&") || rd.Read {
		if p.i < len(p.toks) && p.toks[p.i].kind == pWord {
			rd.Target = p.toks[p.i].word
			p.i++
		} else {
			p.s.unknown("a redirection without a file")
		}
	}
	c.Redirs = append(c.Redirs, rd)
}

// assignment reads $x = Get-Thing …: what is assigned runs as a command,
// which it returns (nil: c is no such assignment).
func (p *psParser) assignment(c *Command) *Command {
	for i, w := range c.Words {
		if i == 0 || w.Quoted {
			continue
		}
		op, rest, _ := strings.Cut(w.Text, "=")
		if !strings.Contains(w.Text, "=") || len(op) > 2 || strings.Trim(op, "+-*/%?") != "" {
			return nil
		}
		p.s.unknown("an assignment")
		var value []Word
		if rest != "" {
			value = append(value, Word{Text: rest, Raw: rest, Glob: w.Glob})
		}
		value = append(value, c.Words[i+1:]...)
		c.Words = c.Words[:i]
		if len(value) > 0 && !value[0].Dynamic && !value[0].Quoted {
			rhs := &Command{Words: value, Redirs: c.Redirs, Via: "assignment", PowerShell: true, Line: c.Line, PipeOut: false}
			c.Redirs = nil
			c.Inner = append(c.Inner, rhs)
			p.s.Commands = append(p.s.Commands, c)
			p.finish(rhs)
			return rhs
		}
		return nil
	}
	return nil
}

// finish checks a command's name and parses the scripts it runs.
func (p *psParser) finish(c *Command) *Command {
	if c != p.s.Commands[len(p.s.Commands)-1] {
		p.s.Commands = append(p.s.Commands, c)
	}
	if len(c.Words) == 0 {
		return c
	}
	head := c.Words[0]
	if v, ok := p.aliases[strings.ToLower(head.Text)]; ok && !head.Quoted {
		p.s.unknown("an alias the script defines (" + head.Text + ")")
		c.Words[0] = Word{Text: v, Raw: head.Raw, Dynamic: head.Dynamic}
		head = c.Words[0]
	}
	if n := strings.ToLower(head.Text); n == "set-alias" || n == "new-alias" || n == "sal" || n == "nal" {
		p.alias(c.Words[1:])
	}
	switch {
	case head.Dynamic || head.Quoted:
		p.s.unknown("an expression, not a command")
	case head.Text == ".":
		p.s.unknown("dot-sourcing")
		if len(c.Words) > 1 && !c.Words[1].Dynamic {
			// . Remove-Item x runs Remove-Item: judge the command it names
			c.Words = c.Words[1:]
			return p.finish(c)
		}
	case psKeywords[strings.ToLower(head.Text)]:
		p.s.unknown("the " + strings.ToLower(head.Text) + " keyword")
	case isNumberish(head.Text):
		p.s.unknown("an expression, not a command")
	case strings.EqualFold(head.Text, "iex") || strings.EqualFold(head.Text, "Invoke-Expression"):
		p.s.unknown("Invoke-Expression")
		// a literal string it runs is parsed: what it runs is seen
		for i, w := range c.Words[1:] {
			if w.Quoted && !w.Dynamic && (i == 0 || strings.HasPrefix(strings.ToLower(c.Words[i].Text), "-c")) {
				p.adopt(c, parsePS(w.Text, p.opts, p.depth+1), "Invoke-Expression")
				break
			}
		}
	}
	p.runs(c, head)
	return c
}

// runs parses the command lines c runs: powershell -Command's, a
// scheduled task's, Start-Process's, cmd /c's.
func (p *psParser) runs(c *Command, head Word) {
	name := ProgramName(head.Text)
	args := make([]string, 0, len(c.Words)-1)
	for _, w := range c.Words[1:] {
		args = append(args, w.Text)
	}
	switch {
	case name == "powershell" || name == "pwsh":
		if script, ok := psCommandArg(c.Words[1:]); ok {
			p.adopt(c, parsePS(script, p.opts, p.depth+1), "powershell -Command")
		} else if hasWords(c.Words[1:]) {
			p.s.unknown("powershell running a file or reading its script from standard input")
		}
	case strings.EqualFold(name, "new-scheduledtaskaction"):
		// -Execute PROGRAM -Argument ARGS: what the task will run
		var exe, arg string
		for i := 1; i+1 < len(c.Words); i++ {
			switch n := strings.ToLower(c.Words[i].Text); {
			case len(n) > 1 && strings.HasPrefix("-execute", n):
				exe = c.Words[i+1].Text
			case len(n) > 1 && strings.HasPrefix("-argument", n):
				arg = c.Words[i+1].Text
			}
		}
		if exe != "" {
			p.adopt(c, ParseCmd(strings.TrimSpace(exe+" "+arg), p.opts), "later")
		}
	case isStartProcess(head.Text):
		if line, ok := startProcessLine(c.Words[1:]); ok {
			p.adopt(c, ParseCmd(line, p.opts), "start")
		}
	case name == "schtasks" || name == "wmic" || name == "sc" && head.Text != "sc" || name == "runas":
		if text, ok := LaterCommand(name, args); ok {
			p.adopt(c, ParseCmd(text, p.opts), "later")
		}
	case name == "cmd":
		text, ok, delayed := CmdScript(args)
		if delayed {
			p.s.unknown("delayed expansion (cmd /v)")
		}
		if ok {
			p.adopt(c, ParseCmd(text, p.opts), "cmd /c")
		}
	}
}

// alias records the alias Set-Alias or New-Alias defines ([-Name] NAME
// [-Value] VALUE).
func (p *psParser) alias(args []Word) {
	var name, value string
	pos := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Quoted && len(w.Text) > 1 && w.Text[0] == '-' {
			n := strings.ToLower(w.Text[1:])
			switch {
			case strings.HasPrefix("name", n) && i+1 < len(args):
				name = args[i+1].Text
				i++
			case strings.HasPrefix("value", n) && i+1 < len(args):
				value = args[i+1].Text
				i++
			case strings.HasPrefix("option", n) || strings.HasPrefix("scope", n) || strings.HasPrefix("description", n):
				i++
			}
			continue
		}
		switch pos {
		case 0:
			name = w.Text
		case 1:
			value = w.Text
		}
		pos++
	}
	if name == "" || value == "" {
		return
	}
	if p.aliases == nil {
		p.aliases = map[string]string{}
	}
	p.aliases[strings.ToLower(name)] = value
}

// isStartProcess says the name is Start-Process (or one of its aliases).
func isStartProcess(name string) bool {
	n := strings.ToLower(name)
	if i := strings.LastIndexByte(n, '\\'); i >= 0 && strings.HasPrefix(n, "microsoft.") {
		n = n[i+1:]
	}
	return n == "start-process" || n == "saps" || n == "start"
}

// startProcessValues are Start-Process's parameters that take a value
// other than the program and its arguments.
var startProcessValues = []string{"verb", "workingdirectory", "credential", "windowstyle", "redirectstandardinput",
	"redirectstandardoutput", "redirectstandarderror", "environment"}

// startProcessLine is the command line Start-Process runs: its program
// (-FilePath, or the first positional word) and arguments (-ArgumentList,
// or the second positional words), to be read as cmd.exe would read it
// (a word holding & or | is parsed as more commands: what it may be).
func startProcessLine(args []Word) (string, bool) {
	var file string
	var list []string
	positional := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Quoted && len(w.Text) > 1 && w.Text[0] == '-' {
			name := strings.ToLower(w.Text[1:])
			switch {
			case strings.HasPrefix("filepath", name) || name == "path" || name == "pspath":
				if i+1 < len(args) {
					file = args[i+1].Text
					i++
				}
			case strings.HasPrefix("argumentlist", name) || name == "args":
				for i+1 < len(args) && !(args[i+1].Text != "" && args[i+1].Text[0] == '-' && !args[i+1].Quoted) {
					list = append(list, args[i+1].Text)
					i++
				}
			default:
				for _, v := range startProcessValues {
					if strings.HasPrefix(v, name) {
						i++
						break
					}
				}
			}
			continue
		}
		switch positional {
		case 0:
			file = w.Text
		default:
			list = append(list, w.Text)
		}
		positional++
	}
	if file == "" {
		return "", false
	}
	return strings.TrimSpace(file + " " + strings.Join(list, " ")), true
}

// adopt adds the commands of an inner script run by c.
func (p *psParser) adopt(c *Command, inner *Script, via string) {
	for _, u := range inner.Unknown {
		p.s.unknown(u)
	}
	for _, ic := range inner.Commands {
		if ic.Via == "" {
			ic.Via = via
			c.Inner = append(c.Inner, ic)
		}
		ic.Line = c.Line
		p.s.Commands = append(p.s.Commands, ic)
	}
}

func hasWords(ws []Word) bool { return len(ws) > 0 }

func isNumberish(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(unicode.IsDigit(r) || strings.ContainsRune(".-+eExXabcdefABCDEFkKmMgGtTbBpPlLuU", r)) {
			return false
		}
	}
	return unicode.IsDigit([]rune(s)[0]) || s[0] == '.' && len(s) > 1 && unicode.IsDigit(rune(s[1]))
}

// decodeUTF16Base64 decodes -EncodedCommand's text.
func decodeUTF16Base64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u)), true
}
