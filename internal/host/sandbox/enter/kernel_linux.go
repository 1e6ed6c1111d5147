//go:build linux

package enter

import "golang.org/x/sys/unix"

// KernelRelease is the running kernel's release (uname -r).
func KernelRelease() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Release[:])
}
