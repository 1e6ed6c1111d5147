package winshell

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rkind is the kind of a rune inside a cmd.exe word.
type rkind uint8

const (
	kPlain  rkind = iota // unquoted, unescaped
	kQuote               // a double quote character (removed from Text)
	kQuoted              // inside quotes or escaped by a caret
)

// ctok is a cmd.exe token: a word or an operator. The runes of the
// tokens of one line share one array: r and kind are never appended to
// or changed in place.
type ctok struct {
	op    string // "" for a word
	r     []rune
	kind  []rkind
	dyn   bool
	raw   string
	plain bool   // the word is its raw text (no quote, no caret)
	redir *Redir // for redirection operators: the target is filled later
}

// text is the word without its quote characters.
func (t *ctok) text() string {
	if t.plain {
		return t.raw
	}
	n, quotes := 0, 0
	for i, r := range t.r {
		if t.kind[i] == kQuote {
			quotes++
			continue
		}
		n += utf8.RuneLen(r)
	}
	if quotes == 0 {
		return string(t.r)
	}
	var b strings.Builder
	b.Grow(n)
	for i, r := range t.r {
		if t.kind[i] != kQuote {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// line is the word as the next cmd.exe would read it: carets removed,
// quotes kept.
func (t *ctok) line() string { return string(t.r) }

func (t *ctok) word() Word {
	w := Word{Text: t.text(), Raw: t.raw, Dynamic: t.dyn}
	for i, r := range t.r {
		switch t.kind[i] {
		case kPlain:
			if r == '*' || r == '?' {
				w.Glob = true
			}
		case kQuote:
			w.Quoted = true
		}
	}
	return w
}

// hasSep says whether the word holds an unquoted character of seps (or
// is empty).
func (t *ctok) hasSep(seps string) bool {
	for i, r := range t.r {
		if t.kind[i] == kPlain && strings.ContainsRune(seps, r) {
			return true
		}
	}
	return len(t.r) == 0
}

// appendSplit appends the parts of the word cut at unquoted characters
// of seps (cmd.exe's built-ins treat , ; = like spaces) to out.
func (t *ctok) appendSplit(out []*ctok, seps string) []*ctok {
	if !t.hasSep(seps) {
		return append(out, t)
	}
	first, start := len(out), 0
	for i := 0; i <= len(t.r); i++ {
		if i < len(t.r) && (t.kind[i] != kPlain || !strings.ContainsRune(seps, t.r[i])) {
			continue
		}
		if i > start {
			out = append(out, &ctok{r: t.r[start:i:i], kind: t.kind[start:i:i], dyn: t.dyn, raw: string(t.r[start:i])})
		}
		start = i + 1
	}
	if len(out) == first+1 {
		out[first].raw = t.raw
	}
	return out
}

// expandPercent replaces the %VAR% references cmd.exe expands before it
// parses a line. Known variables get their value; the others are kept as
// written and marked dynamic (their value may hold anything, even & or a
// quote), and reported.
func expandPercent(line string, opts Options, s *Script) ([]rune, []bool) {
	rs := []rune(line)
	if !strings.Contains(line, "%") {
		return rs, make([]bool, len(rs))
	}
	out := make([]rune, 0, len(rs))
	dyn := make([]bool, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		if rs[i] != '%' {
			out = append(out, rs[i])
			dyn = append(dyn, false)
			continue
		}
		// %1, %~dp0, %* (arguments) are unknown in any case
		if i+1 < len(rs) && (unicode.IsDigit(rs[i+1]) || rs[i+1] == '~' || rs[i+1] == '*') {
			s.unknown("a %" + string(rs[i+1]) + " argument reference")
			out = append(out, rs[i], rs[i+1])
			dyn = append(dyn, true, true)
			i++
			continue
		}
		j := i + 1
		for j < len(rs) && rs[j] != '%' && !unicode.IsSpace(rs[j]) {
			j++
		}
		if j >= len(rs) || rs[j] != '%' || j == i+1 {
			// a lone % is literal on a command line
			out = append(out, rs[i])
			dyn = append(dyn, false)
			continue
		}
		name := string(rs[i+1 : j])
		if v, ok := knownVar(name, opts); ok {
			for _, r := range v {
				out = append(out, r)
				dyn = append(dyn, false)
			}
		} else if v, ok := usualValue(name, opts); ok {
			// its usual value, still known only at run time: what it
			// runs is parsed, never allowed
			s.unknown("%" + name + "% is expanded at run time")
			for _, r := range v {
				out = append(out, r)
				dyn = append(dyn, true)
			}
		} else {
			s.unknown("%" + name + "% is expanded at run time")
			for _, r := range rs[i : j+1] {
				out = append(out, r)
				dyn = append(dyn, true)
			}
		}
		i = j
	}
	return out, dyn
}

// markDelayed marks the !VAR! references of a line dynamic: cmd.exe
// expands them when delayed expansion is on, which the registry
// (Command Processor\DelayedExpansion) can turn on for every cmd.exe.
func markDelayed(rs []rune, dyn []bool, s *Script) {
	for i := 0; i < len(rs); i++ {
		if rs[i] != '!' {
			continue
		}
		j := i + 1
		for j < len(rs) && rs[j] != '!' && !unicode.IsSpace(rs[j]) && !strings.ContainsRune(`&|<>"^`, rs[j]) {
			j++
		}
		if j >= len(rs) || rs[j] != '!' || j == i+1 {
			continue
		}
		s.unknown("!" + string(rs[i+1:j]) + "! is expanded at run time when delayed expansion is on")
		for k := i; k <= j; k++ {
			dyn[k] = true
		}
		i = j
	}
}

// systemVars are variables Windows sets, with their usual values.
var systemVars = map[string]string{"COMSPEC": `C:\Windows\System32\cmd.exe`, "SYSTEMROOT": `C:\Windows`,
	"WINDIR": `C:\Windows`, "SYSTEMDRIVE": "C:", "PROGRAMDATA": `C:\ProgramData`, "PROGRAMFILES": `C:\Program Files`,
	"ALLUSERSPROFILE": `C:\ProgramData`, "PUBLIC": `C:\Users\Public`}

// usualValue is the value Windows gives a variable (system ones, and the
// profile's folders when the profile is known): what the command usually
// names, for warnings and deny rules; it stays known only at run time.
func usualValue(name string, opts Options) (string, bool) {
	n := strings.ToUpper(name)
	if v, ok := systemVars[n]; ok {
		return v, true
	}
	if opts.Home == "" {
		return "", false
	}
	switch n {
	case "APPDATA":
		return opts.Home + `\AppData\Roaming`, true
	case "LOCALAPPDATA":
		return opts.Home + `\AppData\Local`, true
	case "TEMP", "TMP":
		return opts.Home + `\AppData\Local\Temp`, true
	}
	return "", false
}

func knownVar(name string, opts Options) (string, bool) {
	switch strings.ToUpper(name) {
	case "USERPROFILE":
		return opts.Home, opts.Home != ""
	case "CD":
		return opts.Cwd, opts.Cwd != ""
	case "HOMEDRIVE":
		if len(opts.Home) >= 2 && opts.Home[1] == ':' {
			return opts.Home[:2], true
		}
	case "HOMEPATH":
		if len(opts.Home) >= 2 && opts.Home[1] == ':' {
			return opts.Home[2:], true
		}
	}
	return "", false
}

// opTok are the operator tokens, shared: nothing changes them.
var opTok = func() map[string]*ctok {
	m := map[string]*ctok{}
	for _, op := range []string{"&", "&&", "|", "||", "(", ")"} {
		m[op] = &ctok{op: op, raw: op}
	}
	return m
}()

// cmdTokens splits one line into words and operators; src is the line
// when rs are its runes, one byte each (an ASCII line without %VAR%),
// and the words' raw texts are then parts of it. Words are taken from
// *slab, which is refilled when empty.
func cmdTokens(rs []rune, dyn []bool, src string, slab *[]ctok, s *Script) []*ctok {
	n := 1 // about one token a separator
	for _, r := range rs {
		if r == ' ' || r == '&' || r == '|' || r == '<' || r == '>' {
			n++
		}
	}
	t := &ctokenizer{rs: rs, src: src, slab: slab, toks: make([]*ctok, 0, n),
		runes: make([]rune, 0, len(rs)), kinds: make([]rkind, 0, len(rs)), rawFrom: -1}
	inQ := false
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if inQ {
			t.raw(i)
			if r == '"' {
				inQ = false
				t.add(r, kQuote, dyn[i])
			} else {
				t.add(r, kQuoted, dyn[i])
			}
			continue
		}
		switch {
		case r == '"':
			t.raw(i)
			inQ = true
			t.add(r, kQuote, dyn[i])
		case r == '^':
			if i+1 >= len(rs) {
				s.unknown("a caret continuing the line")
				continue
			}
			t.raw(i)
			t.raw(i + 1)
			t.add(rs[i+1], kQuoted, dyn[i+1])
			i++
		case r == ' ' || r == '\t' || r == '\v' || r == '\f' || r == 0xa0:
			t.end()
		case r == '&' || r == '|':
			t.end()
			op := "&"
			if r == '|' {
				op = "|"
			}
			if i+1 < len(rs) && rs[i+1] == r {
				op += op
				i++
			}
			t.toks = append(t.toks, opTok[op])
		case r == '(' && t.cur == nil, r == ')' && t.depth > 0:
			// ( opens a block only where a word starts; ) closes one only
			// inside a block: elsewhere both are part of a word
			t.end()
			op := "("
			if r == '(' {
				t.depth++
			} else {
				op = ")"
				t.depth--
			}
			t.toks = append(t.toks, opTok[op])
		case r == '<' || r == '>':
			i = t.redirect(i)
		default:
			t.raw(i)
			t.add(r, kPlain, dyn[i])
		}
	}
	if inQ {
		// cmd.exe accepts an unclosed quote; so does the parser, but the
		// words are not what a reader would expect.
		s.unknown("an unclosed double quote")
	}
	t.end()
	return t.toks
}

// ctokenizer is cmdTokens' state: the tokens so far and the word being
// read (cur).
type ctokenizer struct {
	rs   []rune
	src  string
	slab *[]ctok
	toks []*ctok
	cur  *ctok
	// quotes: cur holds a quote character
	quotes bool
	// the words' runes and kinds, one after the other; cur's start at
	// start, and its text as written is rs[rawFrom:rawTo]
	runes                 []rune
	kinds                 []rkind
	start, rawFrom, rawTo int
	depth                 int // open blocks
}

// raw takes rs[i] (and the runes before it in the word) as written.
func (t *ctokenizer) raw(i int) {
	if t.rawFrom < 0 {
		t.rawFrom = i
	}
	t.rawTo = i + 1
}

// add appends a rune of kind k (d: it came from a run-time expansion) to
// the word being read, starting one if there is none.
func (t *ctokenizer) add(r rune, k rkind, d bool) {
	if t.cur == nil {
		if len(*t.slab) == 0 {
			*t.slab = make([]ctok, 32)
		}
		t.cur = &(*t.slab)[0]
		*t.slab = (*t.slab)[1:]
		t.start, t.quotes = len(t.runes), false
	}
	if k == kQuote {
		t.quotes = true
	}
	t.runes = append(t.runes, r)
	t.kinds = append(t.kinds, k)
	if d {
		t.cur.dyn = true
	}
}

// end ends the word being read.
func (t *ctokenizer) end() {
	if cur := t.cur; cur != nil {
		n := len(t.runes)
		cur.r, cur.kind = t.runes[t.start:n:n], t.kinds[t.start:n:n]
		if t.src != "" {
			cur.raw = t.src[t.rawFrom:t.rawTo]
			cur.plain = !t.quotes && t.rawTo-t.rawFrom == n-t.start
		} else {
			cur.raw = string(t.rs[t.rawFrom:t.rawTo])
		}
		t.toks = append(t.toks, cur)
	}
	t.cur, t.rawFrom = nil, -1
}

// redirect reads the redirection at rs[i] (2>, >>, <, 2>&1), a single
// digit word before it being its descriptor; it returns the index of
// its last rune.
func (t *ctokenizer) redirect(i int) int {
	rs, r := t.rs, t.rs[i]
	fd := ""
	if t.cur != nil && len(t.runes)-t.start == 1 && t.kinds[t.start] == kPlain && t.runes[t.start] >= '0' && t.runes[t.start] <= '9' {
		fd = string(t.runes[t.start])
		t.cur, t.rawFrom = nil, -1
		t.runes, t.kinds = t.runes[:t.start], t.kinds[:t.start]
	}
	t.end()
	op := fd + string(r)
	if r == '>' && i+1 < len(rs) && rs[i+1] == '>' {
		op += ">"
		i++
	}
	rd := &Redir{Op: op, Write: r == '>', Read: r == '<'}
	if i+2 < len(rs) && rs[i+1] == '&' && rs[i+2] >= '0' && rs[i+2] <= '9' {
		rd.Op += "&" + string(rs[i+2])
		rd.Write, rd.Read = false, false
		t.toks = append(t.toks, &ctok{op: "dup", raw: rd.Op, redir: rd})
		return i + 2
	}
	t.toks = append(t.toks, &ctok{op: "redir", raw: op, redir: rd})
	return i
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// cmdBuiltins are cmd.exe's internal commands (lower case).
var cmdBuiltins = map[string]bool{
	"assoc": true, "break": true, "call": true, "cd": true, "chdir": true, "cls": true, "color": true,
	"copy": true, "date": true, "del": true, "dir": true, "echo": true, "endlocal": true, "erase": true,
	"exit": true, "for": true, "ftype": true, "goto": true, "if": true, "md": true, "mkdir": true,
	"mklink": true, "move": true, "path": true, "pause": true, "popd": true, "prompt": true, "pushd": true,
	"rd": true, "rem": true, "ren": true, "rename": true, "rmdir": true, "set": true, "setlocal": true,
	"shift": true, "start": true, "time": true, "title": true, "type": true, "ver": true, "verify": true,
	"vol": true, "dpath": true,
}

// rawArgs are the built-ins that read their arguments as written: "="
// and "," are no separators for them (set A=B, assoc .txt=txtfile).
var rawArgs = map[string]bool{"echo": true, "set": true, "if": true, "rem": true, "title": true, "prompt": true, "for": true,
	"assoc": true, "ftype": true}

// IsCmdBuiltin reports whether name (any case) is an internal command of
// cmd.exe.
func IsCmdBuiltin(name string) bool { return cmdBuiltins[strings.ToLower(name)] }

// ParseCmd parses a cmd.exe command line (several lines are parsed one
// by one).
func ParseCmd(src string, opts Options) *Script {
	s := &Script{}
	p := &cmdParser{s: s, opts: opts}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for n := 0; n < len(lines); n++ {
		line := lines[n]
		if strings.TrimSpace(line) == "" {
			continue
		}
		first := n
		// a caret at the end of a line joins the next one to it
		for caretEnd(line) && n+1 < len(lines) {
			s.unknown("a caret continuing the line")
			n++
			line = line[:len(line)-1] + lines[n]
		}
		s.Lines++
		s.Commands = p.line(s.Commands, line, first+1, "", 0)
	}
	return s
}

// caretEnd says a line ends with a caret that escapes the line's end (an
// odd number of carets, outside quotes).
func caretEnd(line string) bool {
	if !strings.HasSuffix(line, "^") || strings.Count(line, `"`)%2 == 1 {
		return false
	}
	n := len(line) - len(strings.TrimRight(line, "^"))
	return n%2 == 1
}

type cmdParser struct {
	s    *Script
	opts Options
	slab []ctok // words not yet used (cmdTokens)
	// loopVars are the variables of the for loops of the line being
	// parsed: a word naming one later on the line is a value known only
	// at run time.
	loopVars []string
}

// line appends the commands of one line to out; via and depth describe
// how it is reached.
func (p *cmdParser) line(out []*Command, line string, n int, via string, depth int) []*Command {
	if depth > maxDepth {
		p.s.unknown("commands nested too deeply")
		return out
	}
	if depth == 0 {
		p.loopVars = nil
	}
	trim := strings.TrimLeft(line, " \t@;,=")
	if strings.HasPrefix(trim, ":") {
		p.s.unknown("a label or :: comment")
		return out
	}
	rs, dyn := expandPercent(line, p.opts, p.s)
	markDelayed(rs, dyn, p.s)
	src := ""
	if ascii(line) && !strings.Contains(line, "%") {
		src = line // one byte a rune, as written
	}
	toks := cmdTokens(rs, dyn, src, &p.slab, p.s)
	cur := make([]*ctok, 0, len(toks)) // command() keeps none of them
	var redirs []Redir
	pipeIn := false
	groupVia := via
	flush := func(pipeOut bool) {
		if len(cur) > 0 || len(redirs) > 0 {
			from := len(out)
			out = p.command(out, cur, redirs, groupVia, n, depth)
			if len(out) > from {
				out[from].PipeIn = pipeIn
				out[from].PipeOut = pipeOut
			}
		}
		cur, redirs = cur[:0], nil
		pipeIn = pipeOut
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.op {
		case "":
			cur = append(cur, t)
		case "redir":
			if i+1 < len(toks) && toks[i+1].op == "" {
				t.redir.Target = toks[i+1].word()
				i++
			} else {
				p.s.unknown("a redirection without a file")
			}
			redirs = append(redirs, *t.redir)
		case "dup":
			redirs = append(redirs, *t.redir)
		case "|":
			flush(true)
		case "&", "&&", "||":
			flush(false)
		case "(":
			if len(cur) > 0 && !strings.EqualFold(cur[0].text(), "if") {
				// "echo a(b" is a literal parenthesis; keep it in the word
				// (for's set and body are read by the for command itself)
				cur = append(cur, &ctok{r: []rune{'('}, kind: []rkind{kPlain}, raw: "("})
				continue
			}
			p.s.unknown("a parenthesised block")
			flush(false)
			groupVia = "group"
		case ")":
			if groupVia != "group" && len(cur) > 0 {
				cur = append(cur, &ctok{r: []rune{')'}, kind: []rkind{kPlain}, raw: ")"})
				continue
			}
			flush(false)
			groupVia = via
		}
	}
	flush(false)
	return out
}

// command appends the Commands of the tokens of one simple command to
// out: the command itself and the ones it runs (cmd /c, if, for, call,
// start).
func (p *cmdParser) command(out []*Command, toks []*ctok, redirs []Redir, via string, n, depth int) []*Command {
	toks = dropLeading(toks)
	if len(toks) == 0 {
		return append(out, &Command{Redirs: redirs, Via: via, Line: n})
	}
	toks = splitName(toks)
	name := strings.ToLower(toks[0].text())
	if cmdBuiltins[name] && !rawArgs[name] {
		toks = splitBuiltinArgs(toks)
	}
	words := make([]Word, 0, len(toks))
	for i, t := range toks {
		if i > 0 && cmdBuiltins[name] {
			words = appendSwitches(words, t)
			continue
		}
		words = append(words, t.word())
	}
	c := &Command{Words: words, Redirs: redirs, Via: via, Line: n}
	p.loopValues(c)
	out = append(out, c)
	r := &runs{p: p, out: out, c: c, n: n, depth: depth}
	switch ProgramName(name) {
	case "cmd":
		r.cmdC(toks)
	case "schtasks", "wmic", "sc", "runas":
		args := make([]string, 0, len(words)-1)
		for _, w := range words[1:] {
			args = append(args, w.Text)
		}
		if text, ok := LaterCommand(ProgramName(name), args); ok {
			r.inner(text, "later")
		}
	case "powershell", "pwsh":
		r.powershell(words)
	case "if":
		r.ifBody(toks)
	case "for":
		return p.forLoop(out, c, toks, n, depth)
	case "else", "do":
		// what follows a block: if (…) else CMD, for … (…) do CMD
		p.s.unknown(name + " after a parenthesised block")
		r.innerWords(toks[1:], map[string]string{"else": "if", "do": "for"}[name])
	case "call":
		p.s.unknown("call")
		r.innerWords(toks[1:], "call")
	case "start":
		r.start(toks)
	}
	return r.out
}

// dropLeading drops a leading @ (echo off for this command) and , ; =
// before the name.
func dropLeading(toks []*ctok) []*ctok {
	for len(toks) > 0 {
		t := toks[0]
		k := 0
		for k < len(t.r) && t.kind[k] == kPlain && strings.ContainsRune("@,;=", t.r[k]) {
			k++
		}
		if k == 0 {
			break
		}
		if k == len(t.r) {
			toks = toks[1:]
			continue
		}
		toks[0] = &ctok{r: t.r[k:], kind: t.kind[k:], dyn: t.dyn, raw: strings.TrimLeft(t.raw, "@,;=")}
		break
	}
	return toks
}

// splitBuiltinArgs splits a builtin's arguments at , ; and =, which
// separate words for cmd.exe's own commands.
func splitBuiltinArgs(toks []*ctok) []*ctok {
	cut := false
	for _, t := range toks[1:] {
		cut = cut || t.hasSep(",;=")
	}
	if !cut {
		return toks
	}
	split := make([]*ctok, 1, len(toks))
	split[0] = toks[0]
	for _, t := range toks[1:] {
		split = t.appendSplit(split, ",;=")
	}
	return split
}

// runs collects the commands a command c (on line n) runs: cmd /c's
// script, an if's body, start's program…
type runs struct {
	p        *cmdParser
	out      []*Command
	c        *Command
	n, depth int
}

// inner parses text as a line c runs, by way of v.
func (r *runs) inner(text, v string) {
	from := len(r.out)
	r.out = r.p.line(r.out, text, r.n, v, r.depth+1)
	r.c.Inner = append(r.c.Inner, r.out[from:]...)
}

// innerWords parses the tokens ts as a line c runs.
func (r *runs) innerWords(ts []*ctok, v string) {
	var parts []string
	for _, t := range ts {
		parts = append(parts, t.line())
	}
	r.inner(strings.Join(parts, " "), v)
}

// cmdC reads cmd /c's (or /k's) script.
func (r *runs) cmdC(toks []*ctok) {
	args := make([]string, 0, len(toks)-1)
	for _, t := range toks[1:] {
		args = append(args, t.line())
	}
	text, ok, delayed := CmdScript(args)
	if delayed {
		r.p.s.unknown("delayed expansion (cmd /v)")
	}
	if !ok {
		return
	}
	if strings.HasPrefix(text, `"`) {
		text = text[1:]
		if j := strings.LastIndex(text, `"`); j >= 0 {
			text = text[:j] + text[j+1:]
		}
	}
	r.inner(text, "cmd /c")
}

// powershell reads powershell -Command's script.
func (r *runs) powershell(words []Word) {
	script, ok := psCommandArg(words[1:])
	if !ok {
		return
	}
	ps := ParsePowerShell(script, r.p.opts)
	for _, u := range ps.Unknown {
		r.p.s.unknown(u)
	}
	for _, ic := range ps.Commands {
		if ic.Via == "" {
			ic.Via = "powershell -Command"
			r.c.Inner = append(r.c.Inner, ic)
		}
		ic.Line = r.n
		r.out = append(r.out, ic)
	}
}

// ifBody reads the command an if runs (and an else's).
func (r *runs) ifBody(toks []*ctok) {
	i := ifCondEnd(toks)
	if i >= len(toks) {
		return
	}
	body := toks[i:]
	for j, t := range body {
		if strings.EqualFold(t.text(), "else") {
			r.p.s.unknown("if … else")
			r.innerWords(body[j+1:], "if")
			body = body[:j]
			break
		}
	}
	r.innerWords(body, "if")
}

// ifCondEnd is the index of the first token after an if's condition.
func ifCondEnd(toks []*ctok) int {
	i := 1
	for i < len(toks) {
		w := strings.ToLower(toks[i].text())
		if w != "/i" && w != "not" {
			break
		}
		i++
	}
	if i >= len(toks) {
		return i
	}
	w := strings.ToLower(toks[i].text())
	switch {
	case w == "exist" || w == "defined" || w == "errorlevel" || w == "cmdextversion":
		return i + 2
	case i+1 < len(toks) && isCmpOp(toks[i+1].text()):
		return i + 3
	}
	// A==B, A== B, A ==B, A == B
	for j := i; j < len(toks); j++ {
		t := toks[j].text()
		if strings.Contains(t, "==") {
			if strings.HasSuffix(t, "==") {
				return j + 2
			}
			return j + 1
		}
	}
	return i
}

// start reads the program start runs: the first quoted word, before or
// among the switches, is the window title.
func (r *runs) start(toks []*ctok) {
	i, title := 1, false
	for i < len(toks) {
		if !title && len(toks[i].r) > 0 && toks[i].kind[0] == kQuote {
			title = true
			i++
			continue
		}
		if !strings.HasPrefix(toks[i].text(), "/") {
			break
		}
		sw := strings.ToLower(toks[i].text())
		i++
		if sw == "/d" || sw == "/node" || sw == "/affinity" {
			i++
		}
	}
	if i < len(toks) {
		r.innerWords(toks[i:], "start")
	}
}

// LaterCommand finds the command line a program is given to run later or
// elsewhere: a scheduled task's (schtasks /tr), a new process's (wmic …
// call create), a service's (sc create|config … binPath= …), another
// user's (runas … PROGRAM).
func LaterCommand(program string, args []string) (string, bool) {
	for i, a := range args {
		la := strings.ToLower(a)
		switch program {
		case "schtasks":
			if la == "/tr" && i+1 < len(args) {
				return args[i+1], true
			}
		case "wmic":
			if la == "create" && i > 0 && strings.EqualFold(args[i-1], "call") && i+1 < len(args) {
				return strings.Join(args[i+1:], " "), true
			}
		case "sc":
			if la == "binpath=" && i+1 < len(args) {
				return args[i+1], true
			}
			if v, ok := strings.CutPrefix(la, "binpath="); ok && v != "" {
				return a[len("binpath="):], true
			}
		case "runas":
			if !strings.HasPrefix(a, "/") {
				return a, true
			}
		}
	}
	return "", false
}

// CmdScript finds the command line cmd.exe runs from its arguments: what
// follows /c, /k or /r, which cmd.exe also reads glued to the switch or
// to other switches (/crd, /d/c, /q/c"…"). delayed says /v turns on
// delayed expansion.
func CmdScript(args []string) (script string, ok, delayed bool) {
	for i, a := range args {
		if !strings.HasPrefix(a, "/") {
			continue
		}
		for k := 0; k < len(a); k++ {
			if a[k] != '/' || k+1 >= len(a) {
				continue
			}
			switch a[k+1] | 0x20 {
			case 'c', 'k', 'r':
				rest := a[k+2:]
				if len(args) > i+1 {
					rest = strings.TrimLeft(rest+" "+strings.Join(args[i+1:], " "), " ")
				}
				return rest, true, delayed
			case 'v':
				if !strings.HasPrefix(strings.ToLower(a[k:]), "/v:off") {
					delayed = true
				}
			}
		}
	}
	return "", false, delayed
}

func isCmpOp(s string) bool {
	switch strings.ToLower(s) {
	case "equ", "neq", "lss", "leq", "gtr", "geq":
		return true
	}
	return false
}

// splitName cuts a built-in's name from what is glued to it: rd/s/q,
// cd.., cd\, echo. (cmd.exe ends a command name at these characters).
func splitName(toks []*ctok) []*ctok {
	t := toks[0]
	for k := 1; k < len(t.r); k++ {
		if t.kind[k] == kPlain && strings.ContainsRune(",;=", t.r[k]) {
			// delimiters end every command name
			head := &ctok{r: t.r[:k], kind: t.kind[:k], dyn: t.dyn, raw: string(t.r[:k])}
			if k+1 == len(t.r) {
				return append([]*ctok{head}, toks[1:]...)
			}
			rest := &ctok{r: t.r[k+1:], kind: t.kind[k+1:], dyn: t.dyn, raw: string(t.r[k+1:])}
			return append([]*ctok{head, rest}, toks[1:]...)
		}
		if t.kind[k] != kPlain || !strings.ContainsRune(`/\.:+[]`, t.r[k]) {
			continue
		}
		name := strings.ToLower(string(t.r[:k]))
		if !cmdBuiltins[name] && t.r[k] != '/' {
			continue
		}
		if t.r[k] == '/' && strings.ContainsAny(name, `\:.`) && !cmdBuiltins[name] {
			// C:\tools\x.exe/? … keep paths whole unless a switch follows a plain name
			if !cmdBuiltins[ProgramName(name)] {
				continue
			}
		}
		head := &ctok{r: t.r[:k], kind: t.kind[:k], dyn: t.dyn, raw: string(t.r[:k])}
		rest := &ctok{r: t.r[k:], kind: t.kind[k:], dyn: t.dyn, raw: string(t.r[k:])}
		if t.r[k] == '.' && len(rest.r) == 1 {
			return append([]*ctok{head}, toks[1:]...) // echo. prints an empty line
		}
		return append([]*ctok{head, rest}, toks[1:]...)
	}
	return toks
}

// appendSwitches appends the word to words, /s/q cut into /s and /q.
func appendSwitches(words []Word, t *ctok) []Word {
	if len(t.r) < 4 || t.r[0] != '/' || t.kind[0] != kPlain {
		return append(words, t.word())
	}
	// every part is a switch of one or two letters, or has a value
	// (/o:-d); else the word is kept whole
	start := 0
	for k := 1; k <= len(t.r); k++ {
		if k == len(t.r) || t.r[k] == '/' && t.kind[k] == kPlain {
			part := t.r[start:k]
			if len(part) < 2 || len(part) > 3 && !slices.Contains(part, ':') {
				return append(words, t.word())
			}
			start = k
		}
	}
	start = 0
	for k := 1; k <= len(t.r); k++ {
		if k == len(t.r) || t.r[k] == '/' && t.kind[k] == kPlain {
			part := &ctok{r: t.r[start:k:k], kind: t.kind[start:k:k], dyn: t.dyn, raw: string(t.r[start:k])}
			words = append(words, part.word())
			start = k
		}
	}
	return words
}

// psValueParams are the parameters of powershell.exe and pwsh that take
// a value, each with the values it accepts (nil: any word). Either program
// accepts any unambiguous prefix of a parameter's name.
var psValueParams = []struct {
	name   string
	values []string
}{
	{"executionpolicy", []string{"bypass", "unrestricted", "remotesigned", "allsigned", "restricted", "default", "undefined"}},
	{"windowstyle", []string{"normal", "hidden", "minimized", "maximized", "0", "1", "2", "3"}},
	{"inputformat", []string{"text", "xml"}},
	{"outputformat", []string{"text", "xml"}},
	{"version", nil},
	{"psconsolefile", nil},
	{"configurationname", nil},
	{"configurationfile", nil},
	{"settingsfile", nil},
	{"workingdirectory", nil},
	{"custompipename", nil},
}

// psValueAliases are the short names that are no prefix of their
// parameter.
var psValueAliases = map[string]string{"ep": "executionpolicy", "ex": "executionpolicy", "wd": "workingdirectory",
	"of": "outputformat", "if": "inputformat", "w": "windowstyle", "v": "version"}

// psTakesValue says whether the word after parameter name (lower case,
// without its dash) is its value: the parameter takes one and, when its
// values are known, the word is one of them. A word that is no valid
// value is where the command may start.
func psTakesValue(name, next string) bool {
	if full, ok := psValueAliases[name]; ok {
		name = full
	}
	for _, p := range psValueParams {
		if !strings.HasPrefix(p.name, name) {
			continue
		}
		if p.values == nil {
			if p.name == "version" {
				return strings.Trim(next, "0123456789.") == ""
			}
			return true
		}
		for _, v := range p.values {
			if strings.EqualFold(v, next) {
				return true
			}
		}
		return false
	}
	return false
}

// psCommandArg finds the script a powershell command line runs:
// -Command/-c TEXT… (the rest of the line), -EncodedCommand BASE64, or a
// bare script text. ok is false when it runs a file or nothing
// recognisable. Parameters may be abbreviated and written with any dash.
func psCommandArg(args []Word) (string, bool) {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i].Text)
		for _, d := range []string{"–", "—", "―"} {
			if strings.HasPrefix(a, d) {
				a = "-" + a[len(d):]
			}
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") {
			// the first non-parameter is the command text
			return joinText(args[i:]), true
		}
		name := strings.TrimLeft(a, "-/")
		if k := strings.IndexByte(name, ':'); k > 0 {
			name = name[:k]
		}
		switch {
		case name == "":
			return "", false
		case strings.HasPrefix("command", name) || name == "cwa" || len(name) >= 8 && strings.HasPrefix("commandwithargs", name):
			if i+1 < len(args) && args[i+1].Text == "-" {
				return "", false // the script is read from standard input
			}
			return joinText(args[i+1:]), true
		case name == "e" || name == "ec" || len(name) >= 2 && strings.HasPrefix("encodedcommand", name):
			if i+1 < len(args) && onlySwitches(args[i+2:]) {
				if s, ok := decodeUTF16Base64(args[i+1].Text); ok {
					return s, true
				}
			}
			return "", false // or another script given besides it
		case strings.HasPrefix("file", name):
			return "", false
		case i+1 < len(args) && psTakesValue(name, args[i+1].Text):
			i++
		}
	}
	return "", false
}

// onlySwitches says the words after -EncodedCommand's script are the
// program's own switches and their values, no second script (-Command,
// -File, a bare text), which the decoded one alone would not show.
func onlySwitches(args []Word) bool {
	for i := 0; i < len(args); i++ {
		a := strings.ToLower(args[i].Text)
		for _, d := range []string{"–", "—", "―"} {
			if strings.HasPrefix(a, d) {
				a = "-" + a[len(d):]
			}
		}
		name := strings.TrimLeft(a, "-/")
		if k := strings.IndexByte(name, ':'); k > 0 {
			name = name[:k]
		}
		switch {
		case name == "" || name == a || strings.HasPrefix("command", name) || strings.HasPrefix("commandwithargs", name) ||
			name == "cwa" || strings.HasPrefix("file", name) || name == "e" || name == "ec" || strings.HasPrefix("encodedcommand", name) ||
			strings.HasPrefix("encodedarguments", name):
			return false
		case i+1 < len(args) && psTakesValue(name, args[i+1].Text):
			i++
		}
	}
	return true
}

func joinText(ws []Word) string {
	var parts []string
	for _, w := range ws {
		parts = append(parts, w.Text)
	}
	return strings.Join(parts, " ")
}
