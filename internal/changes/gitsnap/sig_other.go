//go:build !linux

package gitsnap

import (
	"io/fs"

	"github.com/nb-cli/nb/internal/changes"
)

// sig is what a file's stat says of it: when it changed, nothing else
// did.
type sig struct {
	size, mtime int64
	mode        fs.FileMode
}

func sigOf(fi fs.FileInfo) sig {
	return sig{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode() & changes.ModeBits}
}
