//go:build unix

package mcpclient

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the server in its own process group so that Close can end
// the helpers it spawned (npx starts node, uvx starts python) too.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup ends whatever is left of the server's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
