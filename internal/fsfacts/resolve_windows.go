package fsfacts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/policy"
)

// Resolve implements policy.Facts with the system's own resolution. The
// policy spells Windows paths with slashes, a leading "/" before the
// drive letter and in lower case (/c/users/me); Resolve reads and
// answers in that spelling.
func (Disk) Resolve(p string) (string, policy.PathState) {
	native := nativePath(p)
	t, err := filepath.EvalSymlinks(native)
	switch {
	case err == nil:
		return policyPath(t), policy.PathExists
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Lstat(filepath.Dir(native)); err == nil {
			if d, err := filepath.EvalSymlinks(filepath.Dir(native)); err == nil {
				return policyPath(filepath.Join(d, filepath.Base(native))), policy.PathMissing
			}
		}
		return policyPath(native), policy.PathMissing
	}
	return "", policy.PathUnknown
}

// nativePath turns the policy's /c/users/me into c:\users\me.
func nativePath(p string) string {
	if len(p) >= 2 && p[0] == '/' && isLetter(p[1]) && (len(p) == 2 || p[2] == '/') {
		p = p[1:2] + ":" + p[2:]
		if len(p) == 2 {
			p += "/"
		}
	}
	return filepath.FromSlash(p)
}

// policyPath turns C:\Users\Me into the policy's /c/users/me.
func policyPath(p string) string {
	p = filepath.ToSlash(p)
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = "/" + p[:1] + p[2:]
	}
	return strings.ToLower(p)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// diskPath turns a path in the policy's spelling into one the system
// opens.
func diskPath(p string) string { return nativePath(p) }
