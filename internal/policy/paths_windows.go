package policy

import "strings"

// slashPath writes a Windows path the way the analysis compares paths:
// backslashes become slashes, a drive letter becomes a leading directory
// as Git Bash writes it (C:\Users\me → /c/users/me), and everything is
// lower-cased because the filesystem ignores case (.SSH is .ssh).
func slashPath(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) && (len(p) == 2 || p[2] == '/') {
		p = "/" + p[:1] + p[2:]
	}
	return strings.ToLower(p)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
