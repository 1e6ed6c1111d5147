package host

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// TTYState reports the terminal's modes and whether its foreground process
// is blocked reading it (from /proc/PID/syscall: a read on a descriptor
// that is a terminal). ok is false when it cannot be told.
func (t *localTerminal) TTYState() (st TTYState, ok bool) {
	rc, err := t.f.SyscallConn()
	if err != nil {
		return st, false
	}
	var tio *unix.Termios
	pgrp := -1
	var terr, perr error
	if err := rc.Control(func(fd uintptr) {
		// On the master, the terminal driver answers with the slave's
		// modes: the ones the program set.
		tio, terr = unix.IoctlGetTermios(int(fd), unix.TCGETS)
		pgrp, perr = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	}); err != nil || terr != nil {
		return st, false
	}
	st.Echo = tio.Lflag&unix.ECHO != 0
	st.Canonical = tio.Lflag&unix.ICANON != 0
	if perr == nil && pgrp > 0 {
		st.Reading = readingTTY(pgrp)
	}
	return st, true
}

// readingTTY reports whether process pid is blocked in read(2) on a
// terminal. /proc/PID/syscall shows the system call a blocked process is
// in: its number, then its arguments in hex (the first is the descriptor).
func readingTTY(pid int) bool {
	p := "/proc/" + strconv.Itoa(pid)
	data, err := os.ReadFile(p + "/syscall")
	if err != nil {
		return false
	}
	f := strings.Fields(string(data))
	if len(f) < 2 || f[0] != strconv.Itoa(unix.SYS_READ) {
		return false
	}
	fd, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 31)
	if err != nil {
		return false
	}
	target, err := os.Readlink(p + "/fd/" + strconv.FormatUint(fd, 10))
	if err != nil {
		return false
	}
	return strings.HasPrefix(target, "/dev/pts/") || strings.HasPrefix(target, "/dev/tty")
}
