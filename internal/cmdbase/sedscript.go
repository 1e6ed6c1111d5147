package cmdbase

import (
	"slices"
	"strings"
)

// This file reads sed scripts the way GNU sed compiles them, to learn
// which of sed's commands that run programs, write files or read files
// (e, w, W, r, R, s///e, s///w) a script holds. A differential test
// (sedscript_test.go) holds it against the real sed: a script this parser
// calls harmless must be accepted by `sed --sandbox`, which refuses
// exactly those commands.
//
// GNU sed (4.3 on), BSD sed and POSIX let a bracket expression hide the
// delimiter of a regular expression (s/[/]/x/); older GNU seds do not.
// Both readings are made and the union of what they find counts. Anything the parser does
// not follow is reported as not understood, never as harmless.

// sedEffects is what a sed script may do beyond printing and editing its
// input.
type sedEffects struct {
	exec, write, read bool
	// stdWrite: a w command writes /dev/stdout or /dev/stderr, which GNU
	// sed opens as its own standard streams: no file is written (sed
	// --sandbox still refuses it, as it refuses every w).
	stdWrite bool
	// bad is set when the script could not be followed; then nothing is
	// known about it.
	bad bool
	// files are the files its w commands name.
	files []string
}

func (e sedEffects) harmless() bool { return !e.bad && !e.exec && !e.write && !e.read }

func (e sedEffects) or(o sedEffects) sedEffects {
	return sedEffects{exec: e.exec || o.exec, write: e.write || o.write, read: e.read || o.read, bad: e.bad || o.bad,
		stdWrite: e.stdWrite || o.stdWrite, files: append(slices.Clip(e.files), o.files...)}
}

// sedScan reads a whole script (the -e expressions of one sed command
// joined with newlines, as sed joins them) in both readings.
func sedScan(script string) sedEffects {
	return sedParse(script, false).or(sedParse(script, true))
}

const sedEOF = -1

type sedParser struct {
	s string
	i int
	// brackets: a bracket expression in a regular expression hides the
	// delimiter (POSIX, BSD sed, GNU sed 4.3 on); older seds do not look
	// at brackets.
	brackets bool
	eff      sedEffects
}

func (p *sedParser) peek() int {
	if p.i >= len(p.s) {
		return sedEOF
	}
	return int(p.s[p.i])
}

func (p *sedParser) next() int {
	c := p.peek()
	p.i++
	return c
}

func sedSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func sedBlank(c int) bool { return c == ' ' || c == '\t' }

func (p *sedParser) skipBlanks() {
	for sedBlank(p.peek()) {
		p.i++
	}
}

// sedParse follows one reading of script; any construct it does not know
// ends the walk with bad set.
func sedParse(script string, brackets bool) sedEffects {
	p := &sedParser{s: script, brackets: brackets}
	if !p.program() {
		p.eff.bad = true
	}
	return p.eff
}

func (p *sedParser) program() bool {
	blocks := 0
	for {
		c := p.peek()
		if c == sedEOF {
			return blocks == 0
		}
		if sedSpace(c) || c == ';' {
			p.i++
			continue
		}
		if c == '#' {
			p.toEOL()
			continue
		}
		hasAddr, ok := p.addresses()
		if !ok || !p.command(hasAddr, &blocks) {
			return false
		}
	}
}

// addresses reads a command's addresses (one, a range, a negation):
// whether there is one, and whether they read.
func (p *sedParser) addresses() (hasAddr, ok bool) {
	hasAddr, ok = p.address(false)
	if !ok {
		return false, false
	}
	if hasAddr {
		p.skipBlanks()
		if p.peek() == ',' {
			p.i++
			p.skipBlanks()
			if a2, ok := p.address(true); !ok || !a2 {
				return false, false
			}
		}
	}
	p.skipBlanks()
	if p.peek() == '!' {
		p.i++
		p.skipBlanks()
		if p.peek() == '!' {
			return false, false
		}
	}
	return hasAddr, true
}

// command reads one command and its arguments; blocks counts the open
// braces.
func (p *sedParser) command(hasAddr bool, blocks *int) bool {
	switch cmd := p.next(); cmd {
	case '{':
		*blocks++
	case '}':
		if *blocks == 0 {
			return false
		}
		*blocks--
		return p.endCmd()
	case 'e':
		p.eff.exec = true
		p.toEOL()
	case 'a', 'i', 'c':
		return p.text()
	case ':':
		return !hasAddr && p.label() != ""
	case 'b', 't', 'T', 'v':
		p.label()
	case 'l', 'L', 'q', 'Q':
		p.skipBlanks()
		for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
			p.i++
		}
		return p.endCmd()
	case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
		return p.endCmd()
	case 'r', 'R':
		p.eff.read = true
		p.toEOL()
	case 'w', 'W':
		p.writeFile()
	case 's':
		return p.subst()
	case 'y':
		d := p.next()
		return sedDelim(d) && p.slash(d, false) && p.slash(d, false) && p.endCmd()
	default:
		return false
	}
	return true
}

// writeFile reads the file name of a w command (the rest of the line,
// leading blanks skipped): the standard streams are no file.
func (p *sedParser) writeFile() {
	for sedBlank(p.peek()) {
		p.i++
	}
	from := p.i
	p.toEOL()
	switch p.s[from:p.i] {
	case "/dev/stdout", "/dev/stderr":
		p.eff.stdWrite = true
	default:
		p.eff.write = true
		p.eff.files = append(p.eff.files, p.s[from:p.i])
	}
}

// toEOL skips the rest of the line (a file name, a command, a comment).
func (p *sedParser) toEOL() {
	for c := p.peek(); c != sedEOF && c != '\n'; c = p.peek() {
		p.i++
	}
}

// endCmd accepts what may follow a command: blanks, then the end, a
// newline, ';', '}' or a comment.
func (p *sedParser) endCmd() bool {
	p.skipBlanks()
	switch p.peek() {
	case sedEOF, '\n', ';':
		if p.peek() != sedEOF {
			p.i++
		}
		return true
	case '}', '#':
		return true
	}
	return false
}

// label reads a label as GNU sed does: after blanks, up to whitespace or
// ';' (a '}' ends it too). POSIX and BSD sed read to the end of the line,
// which only hides commands GNU sed would run, never shows more.
func (p *sedParser) label() string {
	p.skipBlanks()
	start := p.i
	for c := p.peek(); c != sedEOF && !sedSpace(c) && c != ';' && c != '}'; c = p.peek() {
		p.i++
	}
	return p.s[start:p.i]
}

// text skips the text of a, i and c: to the end of the line, a
// backslash taking the next character with it. After "a\\" the next
// character is the text's first, taken as it is. Text continued on the
// next line ("a\\" or a backslash before a newline) is read differently
// by sed dialects (busybox, old GNU, BSD one-liners) and is not followed.
func (p *sedParser) text() bool {
	p.skipBlanks()
	switch p.peek() {
	case sedEOF:
		return false
	case '\\':
		p.i++
		switch p.next() {
		case sedEOF:
			return true
		case '\n':
			return false
		}
	}
	for {
		switch p.next() {
		case sedEOF, '\n':
			return true
		case '\\':
			switch p.next() {
			case sedEOF:
				return true
			case '\n':
				return false
			}
		}
	}
}

// sedDelim accepts the delimiters of s and y both readings agree on.
func sedDelim(d int) bool {
	return d > ' ' && d < 0x7f && d != '\\'
}

// address reads one address; ok is false on a malformed one.
func (p *sedParser) address(second bool) (present, ok bool) {
	c := p.peek()
	switch {
	case c == '/':
		p.i++
		if !p.slash('/', true) {
			return true, false
		}
		p.regexFlags()
	case c == '\\':
		p.i++
		d := p.next()
		if !sedDelim(d) || !p.slash(d, true) {
			return true, false
		}
		p.regexFlags()
	case c >= '0' && c <= '9':
		p.digits()
		p.skipBlanks()
		if p.peek() == '~' {
			p.i++
			p.skipBlanks()
			if !p.digits() {
				return true, false
			}
		}
	case second && (c == '+' || c == '~'):
		p.i++
		p.skipBlanks()
		if !p.digits() {
			return true, false
		}
	case c == '$':
		p.i++
	default:
		return false, true
	}
	return true, true
}

func (p *sedParser) digits() bool {
	start := p.i
	for c := p.peek(); c >= '0' && c <= '9'; c = p.peek() {
		p.i++
	}
	return p.i > start
}

func (p *sedParser) regexFlags() {
	for {
		p.skipBlanks()
		if c := p.peek(); c == 'I' || c == 'M' {
			p.i++
			continue
		}
		return
	}
}

// slash skips a regular expression or replacement up to its closing
// delimiter d (already past the opening one).
func (p *sedParser) slash(d int, regex bool) bool {
	for {
		c := p.next()
		switch {
		case c == sedEOF || c == '\n':
			return false
		case c == d:
			return true
		case c == '\\':
			if p.next() == sedEOF {
				return false
			}
		case c == '[' && regex && p.brackets:
			if !p.bracket() {
				return false
			}
		}
	}
}

// bracket skips a POSIX bracket expression (past its '[').
func (p *sedParser) bracket() bool {
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for {
		c := p.next()
		switch {
		case c == sedEOF || c == '\n':
			return false
		case c == ']':
			return true
		case c == '[' && (p.peek() == ':' || p.peek() == '.' || p.peek() == '='):
			end := string(rune(p.next())) + "]"
			k := strings.Index(p.s[p.i:], end)
			if k < 0 {
				return false
			}
			p.i += k + 2
		}
	}
}

// subst reads s/RE/REPLACEMENT/FLAGS.
func (p *sedParser) subst() bool {
	d := p.next()
	if !sedDelim(d) || !p.slash(d, true) || !p.slash(d, false) {
		return false
	}
	for {
		c := p.next()
		switch {
		case c == sedEOF || c == '\n' || c == ';':
			return true
		case c == '}' || c == '#':
			p.i--
			return true
		case c == 'e':
			p.eff.exec = true
		case c == 'w':
			p.writeFile()
			return true
		case sedBlank(c) || c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
}
