package host

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"github.com/nb-cli/nb/internal/host/guard"
)

// setDeathSignal makes the kernel send sig to the child when nb dies.
func setDeathSignal(a *syscall.SysProcAttr, sig syscall.Signal) { a.Pdeathsig = sig }

// growPipe enlarges a pipe to 1 MiB (best effort): fewer wake-ups when a
// command prints a lot.
func growPipe(f *os.File) {
	const fSetPipeSz = 1031
	syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fSetPipeSz, 1<<20)
}

// groupHasLiveMember looks through /proc for a process of group pgid that
// is not a zombie.
func groupHasLiveMember(pgid int) bool {
	all, ok := pids()
	if !ok {
		return true
	}
	want := []byte(strconv.Itoa(pgid))
	for _, pid := range all {
		if f, ok := statFields(pid); ok && len(f) >= 3 && bytes.Equal(f[2], want) && !zombie(f[0]) {
			return true
		}
	}
	return false
}

// killMarked kills every process whose environment holds mark ("K=V").
func killMarked(mark string) { guard.KillEnv(mark + "\x00") }

// killMarkedPrefix kills every process with a variable starting with prefix.
func killMarkedPrefix(prefix string) { guard.KillEnv(prefix) }
