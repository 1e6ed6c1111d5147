//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package lineedit

// queued is how many bytes wait unread in the terminal's input queue: not
// told here (then a line feed typed ahead is taken as Ctrl+J).
func queued(fd int) int { return 0 }
