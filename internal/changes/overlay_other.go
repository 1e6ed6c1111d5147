//go:build !linux

package changes

import "io/fs"

// Overlays are Linux only: elsewhere nothing is a whiteout or opaque.
func whiteout(string, fs.FileInfo) bool { return false }

func opaque(string) bool { return false }

func hiddenChange(string) error { return nil }
