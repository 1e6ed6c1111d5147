//go:build !unix

package changes

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no owner and group to keep.
func keepOwner(*os.File, fs.FileInfo) {}
