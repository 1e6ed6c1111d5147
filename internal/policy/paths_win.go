package policy

import (
	"runtime"
	"strings"
)

// windowsPaths says paths follow Windows rules (drive letters, either
// separator, case ignored). It is set on Windows; tests inject it to check
// the Windows semantics on any system.
var windowsPaths = runtime.GOOS == "windows"

// slashPath writes a path the way the analysis compares paths: on
// Windows its canonical form (winCanon); elsewhere p unchanged.
func slashPath(p string) string {
	if !windowsPaths {
		return p
	}
	return winCanon(p)
}

// winCanon writes a Windows path the way the analysis compares paths and
// names each file as Windows opens it: backslashes become slashes, a drive
// letter a leading directory as Git Bash writes it (C:\Users\me →
// /c/users/me), everything is lower-cased because the filesystem ignores
// case (.SSH is .ssh), a name's stream suffix is dropped (.env::$DATA and
// .env:x are .env's data, .ssh::$INDEX_ALLOCATION is the directory), and
// so are a name's trailing dots and spaces (".env. " opens .env).
func winCanon(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) && (len(p) == 2 || p[2] == '/') {
		p = "/" + p[:1] + p[2:]
	}
	p = strings.ToLower(p)
	if !strings.ContainsRune(p, ':') && !strings.Contains(p, "./") && !strings.Contains(p, " /") &&
		!strings.HasSuffix(p, ".") && !strings.HasSuffix(p, " ") {
		return p // no stream, no name ending in a dot or a space
	}
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if seg == "." || seg == ".." {
			continue
		}
		from := 0
		if i == 0 && len(seg) >= 2 && seg[1] == ':' && isLetter(seg[0]) {
			from = 2 // c:x, relative to drive c's directory
		}
		if j := strings.IndexByte(seg[from:], ':'); j >= 0 {
			seg = seg[:from+j]
		}
		if t := strings.TrimRight(seg[from:], ". "); t != seg[from:] {
			if t == "" && from == 0 {
				t = "." // a name of dots and spaces only is the directory itself
			}
			seg = seg[:from] + t
		}
		segs[i] = seg
	}
	return strings.Join(segs, "/")
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
