//go:build unix

package host

import (
	"os/exec"
	"runtime"
	"syscall"
)

// procTree is everything one command started: on Unix the process group
// of a new session whose leader is the shell.
type procTree struct{ pgid int }

// startTree starts cmd as the leader of a new session (no controlling
// terminal) that dies with nb where the system allows.
func startTree(cmd *exec.Cmd) (*procTree, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	setDeathSignal(cmd.SysProcAttr, syscall.SIGKILL)
	// PR_SET_PDEATHSIG fires when the thread that started the child exits;
	// keep this goroutine on one thread while starting.
	runtime.LockOSThread()
	err := cmd.Start()
	runtime.UnlockOSThread()
	if err != nil {
		return nil, err
	}
	return &procTree{pgid: cmd.Process.Pid}, nil
}

// terminate asks every process of the tree to end (SIGTERM).
func (t *procTree) terminate() { syscall.Kill(-t.pgid, syscall.SIGTERM) }

// kill ends every process of the tree (SIGKILL).
func (t *procTree) kill() { syscall.Kill(-t.pgid, syscall.SIGKILL) }

// alive reports whether the tree has a live (non-zombie) member.
func (t *procTree) alive() bool { return groupAlive(t.pgid) }

// release frees what the tree holds once nothing of it runs.
func (t *procTree) release() {}

// groupAlive reports whether process group pgid has a live (non-zombie)
// member.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	return groupHasLiveMember(pgid)
}

// nativeDir returns a directory a shell reported, as this system names it.
func nativeDir(dir string) string { return dir }
