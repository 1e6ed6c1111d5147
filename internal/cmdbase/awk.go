package cmdbase

import (
	"slices"
	"strings"
)

// awkUnsafeNames are awk identifiers that run commands, read other files,
// reach the environment or change which files are read.
var awkUnsafeNames = map[string]bool{
	"system": true, "getline": true, "close": true, "ENVIRON": true, "PROCINFO": true, "SYMTAB": true,
	"FUNCTAB": true, "ARGV": true, "ARGC": true,
}

// awkProgramWhy reads an awk program as awk's lexer does (strings, regular
// expression literals, comments) and returns why it may do more than
// compute and print to standard output, or "": a command or file through
// system(), getline or a pipe, output redirected by > or >> inside print
// or printf, the environment, ARGV, or gawk's @ directives. Where awk
// dialects may read the text differently, it says so.
func awkProgramWhy(p string) string {
	l := &awkLex{p: p}
	for l.i < len(p) {
		if why := l.next(); why != "" {
			return why
		}
	}
	return ""
}

// awkLex is awk's lexer as far as awkProgramWhy needs it.
type awkLex struct {
	p string
	i int
	// operand: the previous token ends an operand, so / divides
	operand bool
	inPrint bool
	depth   int // parentheses and brackets since print started
	// cond marks open parentheses of if, while and for: after their ")"
	// a statement starts, where / begins a regular expression
	cond    []bool
	keyword string // the identifier just read, when it was one
	// outputs, when set, collects the files print writes instead of
	// stopping there
	outputs *awkOut
}

func isAwkLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// next reads one token at l.i and returns why the program may do more
// than compute and print, or "".
func (l *awkLex) next() string {
	p, n, i := l.p, len(l.p), l.i
	c := p[i]
	if c != ' ' && c != '\t' && c != '(' && c != '/' && !isAwkLetter(c) {
		l.keyword = ""
	}
	switch {
	case c == ' ' || c == '\t':
		l.i++
	case c == '\\' && i+1 < n && (p[i+1] == '\n' || p[i+1] == '\r'):
		l.i += 2
	case c == '\\':
		return "awk program has a backslash outside a string"
	case c == '#':
		for l.i < n && p[l.i] != '\n' {
			l.i++
		}
	case c == '\n' || c == ';' || c == '{' || c == '}':
		if l.depth == 0 || c != '\n' {
			l.inPrint, l.depth = false, 0
		}
		l.operand = false
		l.i++
	case c == '"':
		return l.str()
	case c == '/' && l.operand && i+1 < n && p[i+1] == '=':
		// gawk's grammar lets "/=" after an operand start a regular
		// expression ("x" /=/ …) where a lexer sees division-assignment
		return "awk /= after an operand reads as division-assignment or a regular expression"
	case c == '/' && l.keyword == "length":
		return "awk length followed by / reads differently in awk dialects"
	case c == '/' && !l.operand:
		return l.regexp()
	case isAwkLetter(c):
		return l.word()
	case c >= '0' && c <= '9' || c == '.':
		l.number()
	case c == '$':
		l.i++
		l.operand = false
	case c == '(' || c == '[':
		l.depth++
		l.cond = append(l.cond, c == '(' && (l.keyword == "if" || l.keyword == "while" || l.keyword == "for"))
		l.operand = false
		l.i++
	case c == ')' || c == ']':
		l.depth--
		l.operand = true
		if len(l.cond) > 0 {
			l.operand = !l.cond[len(l.cond)-1]
			l.cond = l.cond[:len(l.cond)-1]
		}
		l.i++
	default:
		return l.operator(c)
	}
	return ""
}

// operator reads the rest: @, pipes, >, ++ and --, other characters.
func (l *awkLex) operator(c byte) string {
	p, n, i := l.p, len(l.p), l.i
	switch {
	case c == '@':
		return "awk program uses gawk's @ (include, load, indirect calls)"
	case c == '|':
		if i+1 < n && p[i+1] == '|' {
			l.i += 2
			l.operand = false
			return ""
		}
		return "awk program pipes to or from a command"
	case c == '>':
		if l.inPrint && l.depth <= 0 {
			if end := stdStream(p, i); end > 0 {
				l.i = end // print > "/dev/stderr": the standard streams
				return ""
			}
			if l.outputs == nil {
				return "awk program redirects output to a file"
			}
			name, end, ok := redirectTarget(p, i)
			if ok {
				l.outputs.files = append(l.outputs.files, name)
			} else {
				l.outputs.named = true
			}
			l.i, l.operand = end, ok
			return ""
		}
		l.i++
		if l.i < n && p[l.i] == '=' {
			l.i++
		}
		l.operand = false
	case c == '+' || c == '-':
		// x++ and x-- end an operand
		if i+1 < n && p[i+1] == c {
			l.i += 2
			return ""
		}
		l.operand = false
		l.i++
	case c < 0x20 || c >= 0x7f:
		return "awk program with a control or non-ASCII character outside a string"
	default:
		l.operand = false
		l.i++
	}
	return ""
}

// str reads a string literal.
func (l *awkLex) str() string {
	p, n := l.p, len(l.p)
	l.i++
	for l.i < n && p[l.i] != '"' {
		if p[l.i] == '\\' {
			l.i++
		} else if p[l.i] == '\n' {
			return "awk string with a newline"
		}
		l.i++
	}
	if l.i >= n {
		return "awk string not terminated"
	}
	l.i++
	l.operand = true
	return ""
}

// regexp reads a regular expression literal.
func (l *awkLex) regexp() string {
	p, n := l.p, len(l.p)
	l.i++
	bracket := false
	for l.i < n && (p[l.i] != '/' || bracket) {
		switch p[l.i] {
		case '\\':
			l.i++
		case '[':
			bracket = true
		case ']':
			bracket = false
		case '/':
			// awk dialects disagree whether / inside [...] ends
			// the expression
			return "awk regular expression with / inside brackets"
		case '\n':
			return "awk regular expression with a newline"
		}
		l.i++
	}
	if l.i >= n {
		return "awk regular expression not terminated"
	}
	l.i++
	l.operand = true
	return ""
}

// word reads an identifier or keyword.
func (l *awkLex) word() string {
	p, n := l.p, len(l.p)
	j := l.i
	for j < n && (isAwkLetter(p[j]) || p[j] >= '0' && p[j] <= '9') {
		j++
	}
	w := p[l.i:j]
	l.i = j
	l.keyword = w
	if awkUnsafeNames[w] {
		return "awk program uses " + w
	}
	switch w {
	case "print", "printf":
		l.inPrint, l.depth, l.operand = true, 0, false
	case "in", "return", "case", "do", "else", "if", "while", "for":
		l.operand = false
	default:
		l.operand = true
	}
	return ""
}

// number reads a numeric literal.
func (l *awkLex) number() {
	p, n := l.p, len(l.p)
	for l.i < n && (p[l.i] >= '0' && p[l.i] <= '9' || p[l.i] == '.' || p[l.i] == 'e' || p[l.i] == 'E' || p[l.i] == 'x' || p[l.i] >= 'a' && p[l.i] <= 'f' || p[l.i] >= 'A' && p[l.i] <= 'F') {
		l.i++
	}
	l.operand = true
}

// stdStream is where an output redirection at p[i] ends when it names a
// standard stream, which every awk writes as its own ("/dev/stdout",
// "/dev/stderr", "/dev/fd/1", "/dev/fd/2") and the statement ends after
// it; 0 otherwise.
func stdStream(p string, i int) int {
	name, end, ok := redirectTarget(p, i)
	if ok && slices.Contains([]string{"/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2"}, name) {
		return end
	}
	return 0
}

// redirectTarget reads the output redirection (> or >>) at p[i]: the file
// it names when that is a string literal without escapes after which the
// statement ends, and where it ends; ok is false when an expression names
// the file (a variable, a concatenation).
func redirectTarget(p string, i int) (name string, end int, ok bool) {
	i++
	if i < len(p) && p[i] == '>' {
		i++
	}
	for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
		i++
	}
	if i >= len(p) || p[i] != '"' {
		return "", i, false
	}
	close := strings.IndexByte(p[i+1:], '"')
	if close < 0 {
		return "", i, false
	}
	name = p[i+1 : i+1+close]
	if strings.ContainsAny(name, "\\\n") {
		return "", i, false
	}
	j := i + close + 2
	for j < len(p) && (p[j] == ' ' || p[j] == '\t') {
		j++
	}
	if j == len(p) || p[j] == ';' || p[j] == '}' || p[j] == '\n' {
		return name, j, true
	}
	return "", i, false
}

// awkOutputs reads program p as awkProgramWhy does and returns the files
// its print and printf statements write (> and >>), the standard streams
// aside, and whether an expression names some of them.
func awkOutputs(p string) (files []string, named bool) {
	l := &awkLex{p: p, outputs: &awkOut{}}
	for l.i < len(p) {
		at := l.i
		if why := l.next(); why != "" && l.i == at {
			l.i++ // read on past what the check stops at
		}
	}
	return l.outputs.files, l.outputs.named
}

// awkOut collects a program's output files (awkOutputs).
type awkOut struct {
	files []string
	named bool
}
