//go:build unix && !linux

package approval

// flushQueue relies on discardInput's read loop on systems without TCFLSH.
func flushQueue(fd int) {}
