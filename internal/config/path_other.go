//go:build !windows

package config

// platformConfigDir is "": the XDG layout applies.
func platformConfigDir(func(string) string) string { return "" }
