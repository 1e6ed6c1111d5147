//go:build !windows

package policy

// slashPath returns p unchanged: paths are already slash-separated and
// case matters.
func slashPath(p string) string { return p }
