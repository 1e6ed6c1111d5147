//go:build !linux

package guard

// Main is the guard's entry point; where processes cannot be found by
// marker it has nothing to do.
func Main([]string) int { return 0 }
