//go:build !windows

package fsfacts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/policy"
)

// Resolve implements policy.Facts: it walks p one name at a time as the
// kernel does, following each symbolic link where it meets it (so a ".."
// after a link leaves the link's target, not the link's directory).
func (Disk) Resolve(p string) (string, policy.PathState) {
	if !filepath.IsAbs(p) {
		return "", policy.PathUnknown
	}
	rest := strings.Split(p, "/")
	cur := "/"
	links := 0
	// file: cur is not a directory; any name after it (even "." or "..")
	// fails with ENOTDIR, as the kernel refuses it
	file := false
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		if file {
			return filepath.Join(append([]string{cur, c}, rest...)...), policy.PathMissing
		}
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || isNotDir(err) {
			return filepath.Join(append([]string{next}, rest...)...), policy.PathMissing
		}
		if err != nil {
			return "", policy.PathUnknown
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if links++; links > 40 {
				return "", policy.PathUnknown
			}
			t, err := os.Readlink(next)
			if err != nil {
				return "", policy.PathUnknown
			}
			if filepath.IsAbs(t) {
				cur = "/"
			}
			rest = append(strings.Split(t, "/"), rest...)
			continue
		}
		cur, file = next, !fi.IsDir()
	}
	return cur, policy.PathExists
}

// diskPath turns a path in the policy's spelling into one the system
// opens: the same path here.
func diskPath(p string) string { return p }
