//go:build !linux

package sandbox

// probeMain has no probe to run here: the sandboxes it attacks are
// Linux's.
func probeMain([]string) (bool, int) { return false, 0 }
