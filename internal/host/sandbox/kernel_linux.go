//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// kernelRelease is the running kernel's release (uname -r).
func kernelRelease() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Release[:])
}
