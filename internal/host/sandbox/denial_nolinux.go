//go:build !linux

package sandbox

// readOnlyOutside cannot tell here: a read-only file system message
// counts as the sandbox's.
func readOnlyOutside(string) bool { return false }
