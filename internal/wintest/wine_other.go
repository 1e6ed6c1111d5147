//go:build !windows

package wintest

// Wine reports whether this Windows is Wine; never elsewhere.
func Wine() bool { return false }
