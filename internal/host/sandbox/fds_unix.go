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
