package cmdbase

import "strings"

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
	n := len(p)
	// operand: the previous token ends an operand, so / divides
	operand := false
	inPrint := false
	depth := 0 // parentheses and brackets since print started
	// cond marks open parentheses of if, while and for: after their ")"
	// a statement starts, where / begins a regular expression
	var cond []bool
	keyword := "" // the identifier just read, when it was one
	for i := 0; i < n; {
		c := p[i]
		if c != ' ' && c != '\t' && c != '(' && c != '/' && !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			keyword = ""
		}
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '\\' && i+1 < n && (p[i+1] == '\n' || p[i+1] == '\r'):
			i += 2
			continue
		case c == '\\':
			return "awk program has a backslash outside a string"
		case c == '#':
			for i < n && p[i] != '\n' {
				i++
			}
			continue
		case c == '\n' || c == ';' || c == '{' || c == '}':
			if depth == 0 || c != '\n' {
				inPrint, depth = false, 0
			}
			operand = false
			i++
			continue
		case c == '"':
			i++
			for i < n && p[i] != '"' {
				if p[i] == '\\' {
					i++
				} else if p[i] == '\n' {
					return "awk string with a newline"
				}
				i++
			}
			if i >= n {
				return "awk string not terminated"
			}
			i++
			operand = true
			continue
		case c == '/' && operand && i+1 < n && p[i+1] == '=':
			// gawk's grammar lets "/=" after an operand start a regular
			// expression ("x" /=/ …) where a lexer sees division-assignment
			return "awk /= after an operand reads as division-assignment or a regular expression"
		case c == '/' && keyword == "length":
			return "awk length followed by / reads differently in awk dialects"
		case c == '/' && !operand:
			i++
			bracket := false
			for i < n && (p[i] != '/' || bracket) {
				switch p[i] {
				case '\\':
					i++
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
				i++
			}
			if i >= n {
				return "awk regular expression not terminated"
			}
			i++
			operand = true
			continue
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < n && (p[j] == '_' || p[j] >= 'a' && p[j] <= 'z' || p[j] >= 'A' && p[j] <= 'Z' || p[j] >= '0' && p[j] <= '9') {
				j++
			}
			w := p[i:j]
			i = j
			keyword = w
			if awkUnsafeNames[w] {
				return "awk program uses " + w
			}
			switch w {
			case "print", "printf":
				inPrint, depth, operand = true, 0, false
			case "in", "return", "case", "do", "else", "if", "while", "for":
				operand = false
			default:
				operand = true
			}
			continue
		case c >= '0' && c <= '9' || c == '.':
			for i < n && (p[i] >= '0' && p[i] <= '9' || p[i] == '.' || p[i] == 'e' || p[i] == 'E' || p[i] == 'x' || p[i] >= 'a' && p[i] <= 'f' || p[i] >= 'A' && p[i] <= 'F') {
				i++
			}
			operand = true
			continue
		case c == '$':
			i++
			operand = false
			continue
		case c == '(' || c == '[':
			depth++
			cond = append(cond, c == '(' && (keyword == "if" || keyword == "while" || keyword == "for"))
			operand = false
			i++
		case c == ')' || c == ']':
			depth--
			operand = true
			if len(cond) > 0 {
				operand = !cond[len(cond)-1]
				cond = cond[:len(cond)-1]
			}
			i++
		case c == '@':
			return "awk program uses gawk's @ (include, load, indirect calls)"
		case c == '|':
			if i+1 < n && p[i+1] == '|' {
				i += 2
				operand = false
				continue
			}
			return "awk program pipes to or from a command"
		case c == '>':
			if inPrint && depth <= 0 {
				if end := stdStream(p, i); end > 0 {
					i = end // print > "/dev/stderr": the standard streams
					continue
				}
				return "awk program redirects output to a file"
			}
			i++
			if i < n && p[i] == '=' {
				i++
			}
			operand = false
			continue
		case c == '+' || c == '-':
			// x++ and x-- end an operand
			if i+1 < n && p[i+1] == c {
				i += 2
				continue
			}
			operand = false
			i++
			continue
		case c < 0x20 || c >= 0x7f:
			return "awk program with a control or non-ASCII character outside a string"
		default:
			operand = false
			i++
			continue
		}
	}
	return ""
}

// stdStream is where an output redirection at p[i] ends when it names a
// standard stream, which every awk writes as its own ("/dev/stdout",
// "/dev/stderr", "/dev/fd/1", "/dev/fd/2") and the statement ends after
// it; 0 otherwise.
func stdStream(p string, i int) int {
	i++
	if i < len(p) && p[i] == '>' {
		i++
	}
	for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
		i++
	}
	for _, name := range []string{`"/dev/stdout"`, `"/dev/stderr"`, `"/dev/fd/1"`, `"/dev/fd/2"`} {
		if !strings.HasPrefix(p[i:], name) {
			continue
		}
		j := i + len(name)
		for j < len(p) && (p[j] == ' ' || p[j] == '\t') {
			j++
		}
		if j == len(p) || p[j] == ';' || p[j] == '}' || p[j] == '\n' {
			return j
		}
	}
	return 0
}
