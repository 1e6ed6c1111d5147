//go:build unix

package host

import (
	"errors"
	"os/exec"
)

// setCmdLine sets the raw command line, which exists only on Windows.
func setCmdLine(*exec.Cmd, string) error {
	return errors.New("cmd.exe runs only on Windows")
}
