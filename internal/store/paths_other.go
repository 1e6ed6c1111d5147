//go:build !windows

package store

// platformStateDir is "": the XDG layout applies.
func platformStateDir(func(string) string) string { return "" }
