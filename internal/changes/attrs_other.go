//go:build !linux

package changes

import "os"

// keepAttrs carries extended attributes over on Linux only.
func keepAttrs(*os.Root, string, *os.File) {}
