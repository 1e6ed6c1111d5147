//go:build !linux

package changes

import "io/fs"

// marks are an upper entry's overlay attributes: overlays are Linux
// only, elsewhere nothing is a whiteout or opaque.
type marks struct{}

func marksOf(string) marks { return marks{} }

func (marks) isWhiteout(fs.FileInfo) bool { return false }

func (marks) isOpaque() bool { return false }

func (marks) hidden() error { return nil }
