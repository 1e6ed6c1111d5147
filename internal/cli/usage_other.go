//go:build !windows

package cli

// configDir is where the help says the configuration lives.
const configDir = "~/.config/nb/"
