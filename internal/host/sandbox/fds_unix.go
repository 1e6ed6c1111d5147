//go:build unix

package sandbox

import (
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// keepInheritedFiles makes every descriptor above stderr close when nb
// executes a program. nb opens its own files close-on-exec, but those it
// inherited from whatever started it do not close: each command would get
// them too, and a descriptor is not a path any sandbox rule covers (a
// socket to an agent or a daemon, a file under a hidden directory, a
// pipe to the user's terminal multiplexer). Programs nb means to pass a
// descriptor to get it explicitly (exec.Cmd.ExtraFiles). Done once, before
// the first sandbox is built.
var keepInheritedFiles = sync.OnceFunc(func() {
	ents, _ := os.ReadDir("/dev/fd")
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
})

// writeNow writes to the pipe w what it takes at once, without waiting
// for a reader, and returns how much that was.
func writeNow(w *os.File, b []byte) int {
	c, err := w.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = c.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, err := unix.Write(int(fd), b[n:])
			if err != nil || m <= 0 {
				break
			}
			n += m
		}
		return true // never wait: the rest is written later
	})
	return n
}
