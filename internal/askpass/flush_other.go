//go:build unix && !linux

package askpass

// flushInput relies on discard's read loop where TCFLSH is not there.
func flushInput(int) {}
