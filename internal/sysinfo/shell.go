package sysinfo

import (
	"path/filepath"
	"strings"
)

// ShellKind is the language a shell speaks. The zero value is POSIX: remote
// and container shells are POSIX shells.
type ShellKind int

const (
	// ShellPOSIX is sh, dash, zsh, ksh and the like.
	ShellPOSIX ShellKind = iota
	// ShellBash is bash (also Git Bash and MSYS2 bash on Windows).
	ShellBash
	// ShellCmd is cmd.exe.
	ShellCmd
	// ShellPowerShell is PowerShell 7 (pwsh) or Windows PowerShell.
	ShellPowerShell
)

// KindOf tells the language of the shell at path from its file name,
// ignoring case and an .exe suffix.
func KindOf(path string) ShellKind {
	switch n := ShellName(path); {
	case strings.HasPrefix(n, "bash"):
		return ShellBash
	case n == "cmd":
		return ShellCmd
	case n == "pwsh" || n == "powershell":
		return ShellPowerShell
	}
	return ShellPOSIX
}

// Bashlike reports whether commands for k are written in the language nb's
// command analysis parses (bash and POSIX shells).
func (k ShellKind) Bashlike() bool { return k == ShellPOSIX || k == ShellBash }

// String names the language.
func (k ShellKind) String() string {
	switch k {
	case ShellBash:
		return "bash"
	case ShellCmd:
		return "cmd.exe"
	case ShellPowerShell:
		return "PowerShell"
	}
	return "sh"
}

// ShellName is the shell's file name without directory and .exe suffix,
// lower-cased on Windows spellings ("pwsh", "cmd", "bash").
func ShellName(path string) string {
	// both separators: a Windows path is named the same on every system
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		path = path[i+1:]
	}
	if ext := filepath.Ext(path); strings.EqualFold(ext, ".exe") {
		return strings.ToLower(strings.TrimSuffix(path, ext))
	}
	return path
}
