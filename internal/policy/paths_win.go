package policy

import (
	"runtime"
	"strings"
)

// windowsPaths says paths follow Windows rules (drive letters, either
// separator, case ignored). It is set on Windows; tests inject it to check
// the Windows semantics on any system.
var windowsPaths = runtime.GOOS == "windows"

// slashPath writes a path the way the analysis compares paths. On Windows
// backslashes become slashes, a drive letter becomes a leading directory
// as Git Bash writes it (C:\Users\me → /c/users/me), and everything is
// lower-cased because the filesystem ignores case (.SSH is .ssh); elsewhere
// p is returned unchanged.
func slashPath(p string) string {
	if !windowsPaths {
		return p
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) && (len(p) == 2 || p[2] == '/') {
		p = "/" + p[:1] + p[2:]
	}
	return strings.ToLower(p)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// ruleSource prepares a rule's text for the bash parser. On Windows a
// backslash in a rule is a path separator (deny "cat C:\Users\me\x"), not
// an escape: outside single quotes it is doubled so the parser keeps it.
func ruleSource(src string) string {
	if !windowsPaths || !strings.Contains(src, `\`) {
		return src
	}
	var b strings.Builder
	single, double := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'' && !double:
			single = !single
		case c == '"' && !single:
			double = !double
		case c == '\\' && !single:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
