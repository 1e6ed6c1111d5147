// Package sysinfo describes the machine commands run on, for the system
// prompt: OS and version, shell, architecture, user, home, filesystem case
// sensitivity and which of a configured list of tools are installed.
package sysinfo

// Info is a description of one machine.
type Info struct {
	OS            string   `json:"os"`    // "Linux (Debian GNU/Linux 12)"
	Shell         string   `json:"shell"` // "bash"
	ShellPath     string   `json:"-"`     // "/bin/bash"
	Arch          string   `json:"arch"`  // "x86_64"
	User          string   `json:"user"`
	Home          string   `json:"home"`
	CaseSensitive bool     `json:"caseSensitiveFilesystem"`
	Present       []string `json:"toolsPresent"`
	Missing       []string `json:"toolsMissing"`
}
