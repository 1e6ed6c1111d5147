package fsfacts

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// errOddName stops a walk at a name that would not stay itself.
var errOddName = errors.New("a name that splits")

// PlainNames implements policy.Facts: it walks dir as find does
// (links not followed) and stops at the first name that holds a blank, a
// quote, a backslash, * ? [ or a control character, or begins with "-",
// or when the tree is larger than MaxEntries.
func (d Disk) PlainNames(dir string) bool {
	limit := d.MaxEntries
	if limit == 0 {
		limit = 20000
	}
	n := 0
	err := filepath.WalkDir(diskPath(dir), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > limit {
			return errBudget
		}
		if n > 1 && !plainName(e.Name()) {
			return errOddName
		}
		return nil
	})
	return err == nil
}

// plainName reports a name that bash's word splitting and globbing and
// xargs's blank and quote handling leave as it is, and that no program
// takes for an option.
func plainName(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f || strings.IndexByte(`'"\*?[`, c) >= 0 {
			return false
		}
	}
	return true
}
