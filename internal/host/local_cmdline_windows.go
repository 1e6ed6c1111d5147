package host

import (
	"os/exec"
	"syscall"
)

// setCmdLine makes cmd start with exactly line as its command line.
func setCmdLine(cmd *exec.Cmd, line string) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CmdLine = line
	return nil
}
