package ptysession

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// cleanText turns raw terminal output of a line-oriented program into plain
// text: escape sequences removed, CRLF as LF, carriage-return overwrites and
// backspaces applied the way a terminal would show them.
func cleanText(raw []byte) string {
	s := ansi.Strip(string(bytes.ToValidUTF8(raw, []byte("\uFFFD"))))
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = renderLine(l)
	}
	return strings.Join(lines, "\n")
}

// renderLine applies \r (back to column 0, later text overwrites) and \b
// (one column left) within one line, and drops other control characters
// except tabs.
func renderLine(l string) string {
	if !strings.ContainsAny(l, "\r\b\x07\x00\x0e\x0f\x7f") {
		return l
	}
	var out []rune
	col := 0
	for _, r := range l {
		switch {
		case r == '\r':
			col = 0
		case r == '\b':
			if col > 0 {
				col--
			}
		case r == '\t':
			fallthrough
		case r >= 0x20 && r != 0x7f:
			if col < len(out) {
				out[col] = r
			} else {
				out = append(out, r)
			}
			col++
		}
	}
	return string(out)
}

// lastLine returns the text after the last newline of clean text.
func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// promptPatterns match the last line of output when a program waits for
// input. They are checked against the line with trailing spaces kept, so a
// prompt such as "$ " is told apart from a line ending in "$".
var promptPatterns = []*regexp.Regexp{
	// Shell prompts: bash/sh "$ ", root "# ", zsh "% ", continuation "> ".
	regexp.MustCompile(`[$#%>] $`),
	// cmd.exe "C:\Users\me>" (no space after it); PowerShell "PS C:\> "
	// is a "> " prompt above.
	regexp.MustCompile(`^[A-Za-z]:\\[^<>|"*?\n]*>$`),
	// REPLs: python ">>> " and "... ", ipython "In [3]: ", pdb "(Pdb) ",
	// irb "irb(main):001:0> " and "irb> ", node/sqlite/mysql/psql "name> "
	// or "name=# ".
	regexp.MustCompile(`^(>>>|\.\.\.) ?$`),
	regexp.MustCompile(`^In \[\d+\]: $`),
	regexp.MustCompile(`\((Pdb|gdb|lldb)\) $`),
	regexp.MustCompile(`irb[^\s]*> ?$`),
	questionPattern,
	secretPattern,
}

// Questions: [y/N], [Y/n], (yes/no), (yes/no/[fingerprint])?
var questionPattern = regexp.MustCompile(`(?i)(\[y/n\]|\[yes/no\]|\(y/n\)|\(yes/no(/\[[a-z]+\])?\))\s*[?:]?\s*$`)

// Secrets: "Password:", "[sudo] password for x: ", "Enter passphrase for key: ".
var secretPattern = regexp.MustCompile(`(?i)(password|passphrase|passcode|pin)[^\n]*:\s*$`)

// Question is what a program waits for at the end of its output.
type Question int

const (
	// NoQuestion: no recognised question or password prompt.
	NoQuestion Question = iota
	// YesNo: a confirmation such as "[y/N]" or "(yes/no)".
	YesNo
	// Secret: a password, passphrase or PIN prompt.
	Secret
)

// questionOf classifies the last line of clean output.
func questionOf(line string) Question {
	switch {
	case strings.TrimSpace(line) == "":
		return NoQuestion
	case secretPattern.MatchString(line):
		return Secret
	case questionPattern.MatchString(line):
		return YesNo
	}
	return NoQuestion
}

// maxPending bounds the text remembered as typed without Enter.
const maxPending = 4 << 10

// pendingAfter returns the text typed on the current line after input:
// Enter starts a new line, Ctrl+C, Ctrl+D, Ctrl+U, Ctrl+\ and Ctrl+Z drop it,
// backspace removes one character.
func pendingAfter(pending, input string) string {
	r := []rune(pending)
	for _, c := range input {
		switch c {
		case '\n', '\r', 0x03, 0x04, 0x15, 0x1c, 0x1a:
			r = r[:0]
		case 0x7f, '\b':
			if len(r) > 0 {
				r = r[:len(r)-1]
			}
		default:
			r = append(r, c)
		}
	}
	if len(r) > maxPending {
		r = r[len(r)-maxPending:]
	}
	return string(r)
}

// isPrompt reports whether the last line of clean output looks like a
// program waiting for input.
func isPrompt(line string) bool {
	if strings.TrimSpace(line) == "" {
		return false
	}
	for _, re := range promptPatterns {
		if re.MatchString(line) {
			return true
		}
	}
	return false
}

// beyondEcho reports whether clean output holds more than the terminal's
// echo of the input typed: each input line echoed in turn, then nothing but
// white space. A program that prints before reading its input (a shell
// prompt before the line it reads) counts as more.
func beyondEcho(out, input string) bool {
	input = strings.ReplaceAll(strings.ReplaceAll(input, "\r\n", "\n"), "\r", "\n")
	rest := out
	for _, line := range strings.SplitAfter(input, "\n") {
		text := strings.TrimSuffix(line, "\n")
		if !strings.HasPrefix(rest, text) {
			break
		}
		rest = rest[len(text):]
		if text != line {
			if !strings.HasPrefix(rest, "\n") {
				break
			}
			rest = rest[1:]
		}
	}
	return strings.TrimSpace(rest) != ""
}

// altExit finds the end of the last "leave alternate screen" sequence in raw
// output, or -1.
func altExit(raw []byte) int {
	best := -1
	for _, seq := range [][]byte{[]byte("\x1b[?1049l"), []byte("\x1b[?1047l"), []byte("\x1b[?47l")} {
		if i := bytes.LastIndex(raw, seq); i >= 0 && i+len(seq) > best {
			best = i + len(seq)
		}
	}
	return best
}

// altEnter reports whether raw output switches to the alternate screen.
func altEnter(raw []byte) bool {
	return bytes.Contains(raw, []byte("\x1b[?1049h")) || bytes.Contains(raw, []byte("\x1b[?1047h")) || bytes.Contains(raw, []byte("\x1b[?47h"))
}

// addressing matches cursor positioning and screen clearing: the marks of a
// program that draws a screen rather than writing lines.
var addressing = regexp.MustCompile(`\x1b\[[0-9;]*[Hf]|\x1b\[[23]J`)

// lastAddressing returns the end of the last cursor-positioning or
// screen-clearing sequence in raw output, or -1.
func lastAddressing(raw []byte) int {
	locs := addressing.FindAllIndex(raw, -1)
	if len(locs) == 0 {
		return -1
	}
	return locs[len(locs)-1][1]
}

// Limits on text returned to the model in one read.
const (
	maxTextBytes = 16 << 10
	maxTextLines = 300
	headLines    = 40
	tailLines    = 160
)

// limitText keeps the head and the tail of a long text with a marker
// between them, so one read stays a reasonable size.
func limitText(s string) string {
	lines := strings.Split(s, "\n")
	if len(s) <= maxTextBytes && len(lines) <= maxTextLines {
		return s
	}
	if len(lines) > headLines+tailLines {
		omitted := len(lines) - headLines - tailLines
		head := strings.Join(lines[:headLines], "\n")
		tail := strings.Join(lines[len(lines)-tailLines:], "\n")
		s = head + fmt.Sprintf("\n[... %d lines omitted ...]\n", omitted) + tail
	}
	if len(s) > maxTextBytes {
		half := maxTextBytes / 2
		cut := len(s) - 2*half
		s = strings.ToValidUTF8(s[:half], "") + fmt.Sprintf("\n[... %d bytes omitted ...]\n", cut) + strings.ToValidUTF8(s[len(s)-half:], "")
	}
	return s
}
