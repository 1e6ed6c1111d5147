//go:build !unix

package container

import "os/exec"

func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func signalOf(ee *exec.ExitError) int { return 0 }
