//go:build !windows

package sysinfo

import (
	"os"
	"path/filepath"
	"strings"
)

// DefaultShell is the shell "auto" picks: bash when it is in path, else
// /bin/sh.
func DefaultShell(path string) string {
	if p := LookPath("bash", path); p != "" {
		return p
	}
	return "/bin/sh"
}

// findExec returns dir/name when it is an executable regular file.
func findExec(dir, name string) string {
	p := filepath.Join(dir, name)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return p
}

// hasDir reports whether name names a path rather than a command.
func hasDir(name string) bool { return strings.ContainsRune(name, '/') }

// windowsName is only meaningful on Windows.
func windowsName() string { return "Windows" }
