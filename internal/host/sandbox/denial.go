package sandbox

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A command the sandbox stopped says so on its standard error, in its own
// words; nb tells the model and the user in one line what the sandbox
// refused, and only when that explains the failure. The method:
//
//  1. Only a run that failed (non-zero exit) is looked at, and only the
//     lines of its standard error that carry one of the system's messages
//     for a refusal (denialMarks) are kept, at most maxDenialLines.
//  2. A network failure (unreachable network, a name that cannot be
//     resolved) counts when the layout has the network off.
//  3. Each other line is reduced to the path it names: a quoted name, or
//     the last field before the message ("cat: /x/y: Permission denied").
//     Relative names are taken from the command's directory.
//  4. The path is checked against the layout and, outside the sandbox,
//     against the disk: a name the layout hides or masks that exists
//     outside counts as a hidden read; "Read-only file system" counts as a
//     refused write unless the path lies on a file system mounted
//     read-only outside too; under Landlock and Seatbelt, whose refused
//     writes read "Permission denied" or "Operation not permitted", a path the layout does not let be written but
//     the user may write outside (access(2) for the file, or for its
//     directory when it does not exist) counts as a refused write.
//
// A plain failure (exit 3, a missing file, a permission the user lacks
// outside too) names nothing the sandbox caused, and is not reported. A
// command that fails quietly after a refused read or write (grep exiting
// 1) is not reported either: the sandbox cannot see what it was refused.

// maxDenialLines bounds the lines kept from one run; maxDenialLine bounds
// each.
const (
	maxDenialLines = 16
	maxDenialLine  = 1024
)

// denialMarks are the messages (lower-case) of the failures the sandbox
// can cause.
var denialMarks = []string{
	"read-only file system", "permission denied", "operation not permitted", "no such file or directory",
	"network is unreachable", "could not resolve host", "temporary failure in name resolution",
	"unable to resolve host",
}

// denialWriter passes output through and keeps the lines carrying a
// denial mark (across write boundaries).
type denialWriter struct {
	w     io.Writer
	mu    sync.Mutex
	line  []byte
	lines []string
	// head is the start of the output: the sandbox's own failure to
	// start is its first line.
	head []byte
}

func (d *denialWriter) Write(p []byte) (int, error) {
	d.mu.Lock()
	if room := 256 - len(d.head); room > 0 {
		d.head = append(d.head, p[:min(len(p), room)]...)
	}
	if len(d.lines) < maxDenialLines {
		rest := p
		for len(rest) > 0 {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				d.add(rest)
				break
			}
			d.add(rest[:i])
			d.flush()
			rest = rest[i+1:]
		}
	}
	d.mu.Unlock()
	if d.w == nil {
		return len(p), nil
	}
	return d.w.Write(p)
}

func (d *denialWriter) add(b []byte) {
	if room := maxDenialLine - len(d.line); room > 0 {
		d.line = append(d.line, b[:min(len(b), room)]...)
	}
}

func (d *denialWriter) flush() {
	if len(d.line) > 0 && len(d.lines) < maxDenialLines && hasMark(string(d.line)) != "" {
		d.lines = append(d.lines, string(d.line))
	}
	d.line = d.line[:0]
}

// seen returns the lines kept, the last one even without its newline.
func (d *denialWriter) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.flush()
	return d.lines
}

// hasMark returns the denial mark line carries, or "".
func hasMark(line string) string {
	lower := strings.ToLower(line)
	for _, m := range denialMarks {
		if strings.Contains(lower, m) {
			return m
		}
	}
	return ""
}

// refusal is what one line says the sandbox refused.
type refusal struct {
	what string // "write", "read", "network"
	path string
}

func (r refusal) String() string {
	switch r.what {
	case "network":
		return "the network (off in the sandbox)"
	case "read":
		return "reading " + r.path + " (hidden in the sandbox)"
	}
	if r.path == "" {
		return "a write (read-only in the sandbox)"
	}
	return "writing " + r.path + " (read-only in the sandbox)"
}

// explain says in one phrase what the sandbox refused to a command run in
// dir under layout l that printed lines, or "" when nothing it printed is
// the sandbox's doing. quietWrites says refused writes read "Permission
// denied" or "Operation not permitted" (Landlock, Seatbelt), not
// "Read-only file system".
func explain(l Layout, lines []string, dir string, quietWrites bool) string {
	var found []string
	seen := map[string]bool{}
	for _, line := range lines {
		r, ok := explainLine(l, line, dir, quietWrites)
		if !ok || seen[r.String()] {
			continue
		}
		seen[r.String()] = true
		found = append(found, r.String())
		if len(found) == 3 {
			break
		}
	}
	return strings.Join(found, ", ")
}

func explainLine(l Layout, line, dir string, quietWrites bool) (refusal, bool) {
	mark := hasMark(line)
	switch mark {
	case "":
		return refusal{}, false
	case "network is unreachable", "could not resolve host", "temporary failure in name resolution", "unable to resolve host":
		return refusal{what: "network"}, !l.Network
	}
	p := namedPath(line, mark, dir)
	if p != "" && l.unreadableAt(p) {
		if _, err := os.Lstat(p); err == nil {
			return refusal{what: "read", path: p}, true
		}
	}
	switch {
	case mark == "read-only file system":
		if p != "" && readOnlyOutside(p) {
			return refusal{}, false
		}
		return refusal{what: "write", path: p}, true
	case quietWrites && p != "" && (mark == "permission denied" || mark == "operation not permitted"):
		if !l.writableAt(p) && writableOutside(p) {
			return refusal{what: "write", path: p}, true
		}
	}
	return refusal{}, false
}

// namedPath is the path a message line names, absolute, or "".
func namedPath(line, mark, dir string) string {
	i := strings.Index(strings.ToLower(line), mark)
	head := line[:i]
	name := quoted(head)
	if name == "" {
		name = quoted(line[i:]) // Python: Permission denied: 'x'
	}
	if name == "" {
		// "prog: NAME: message" or "op NAME: message"; a lone first
		// field is the program that printed the line ("ssh: Permission
		// denied (publickey)"), not a name.
		fields := strings.Split(strings.TrimRight(head, " :"), ": ")
		last := fields[len(fields)-1]
		j := strings.LastIndexByte(last, ' ')
		if len(fields) == 1 && j < 0 {
			return ""
		}
		name = last[j+1:]
	}
	if name == "" || strings.ContainsAny(name, "\x00\n") {
		return ""
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	return filepath.Clean(name)
}

// quoted returns the last quoted span of s ('x', ‘x’, "x", `x'), or "".
func quoted(s string) string {
	for _, q := range [][2]string{{"'", "'"}, {"‘", "’"}, {"\"", "\""}, {"`", "'"}, {"“", "”"}} {
		j := strings.LastIndex(s, q[1])
		if j <= 0 {
			continue
		}
		i := strings.LastIndex(s[:j], q[0])
		if i >= 0 && i+len(q[0]) < j {
			return s[i+len(q[0]) : j]
		}
	}
	return ""
}

// unreadableAt reports whether the layout keeps p from being read.
func (l Layout) unreadableAt(p string) bool {
	if underAny(p, l.Masked) {
		return true
	}
	return underAny(p, l.Hidden) && !underAny(p, l.Visible)
}

// writableAt reports whether the layout lets p be written.
func (l Layout) writableAt(p string) bool {
	if l.unreadableAt(p) || underAny(p, l.ReadOnly) {
		return false
	}
	return underAny(p, l.Writable) || underAny(p, l.Scratch)
}

// started reports whether the output begins as the sandbox's own
// failure to start does (prefix, "bwrap: " or "nb: sandbox: ").
func (d *denialWriter) started(prefix string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return bytes.HasPrefix(d.head, []byte(prefix))
}
