package askpass

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// supported says the bridge works on this system (peer credentials and
// /proc).
const supported = true

// listen opens the bridge's socket in the abstract namespace: no file to
// leave behind, and who connects is checked by peer.
func listen() (net.Listener, error) {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return net.Listen("unix", "@nb-sudo-"+hex.EncodeToString(b[:]))
}

// peer checks who connected: a process of this user running this nb's
// executable, whose parent is sudo running as root for this user (sudo
// starting its askpass program). It returns that sudo's process id.
func peer(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if cerr != nil {
		return 0, cerr
	}
	return checkPeer(int(cred.Pid), int(cred.Uid))
}

// checkPeer checks process pid of user uid as peer describes, and that
// what it writes reaches sudo alone: its standard output is a pipe no
// other process of this user holds (sudo, reading the other end, runs as
// root). A helper that sudo runs as its command, with its output into a
// pipe of the command's own (| cat) or a file, is refused.
func checkPeer(pid, uid int) (int, error) {
	if uid != os.Getuid() {
		return 0, fmt.Errorf("the request came from another user (uid %d)", uid)
	}
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return 0, err
	}
	exe, err := os.Stat(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil || !os.SameFile(self, exe) {
		return 0, errors.New("the request did not come from nb's own helper")
	}
	ppid, err := parentOf(pid)
	if err != nil {
		return 0, err
	}
	name, ruid, euid, err := idsOf(ppid)
	if err != nil || name != "sudo" || euid != 0 || ruid != uid {
		return 0, errors.New("the helper was not started by sudo")
	}
	out, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/1", pid))
	if err != nil || !strings.HasPrefix(out, "pipe:") {
		return 0, errors.New("the helper's output does not go to sudo")
	}
	if holder := pipeHolder(out, pid, ppid); holder != 0 {
		return 0, fmt.Errorf("the helper's output goes to process %d, not to sudo", holder)
	}
	return ppid, nil
}

// pipeHolder is a process other than the helper and its parent holding
// pipe (as /proc shows it: "pipe:[inode]") among those this user may
// look into, or 0.
func pipeHolder(pipe string, helper, parent int) int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/fd")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err != nil || pid == helper || pid == parent {
			continue
		}
		fds, err := os.ReadDir(d)
		if err != nil {
			continue // another user's process
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join(d, fd.Name())); err == nil && l == pipe {
				return pid
			}
		}
	}
	return 0
}

// parentOf reads the parent process id from /proc/PID/stat (after the
// command name, which may hold spaces and parentheses).
func parentOf(pid int) (int, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("unreadable process status")
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 2 {
		return 0, errors.New("unreadable process status")
	}
	return strconv.Atoi(f[1])
}

// idsOf reads a process's name and real and effective user ids from
// /proc/PID/status, which every user may read.
func idsOf(pid int) (name string, ruid, euid int, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "", 0, 0, err
	}
	defer f.Close()
	ruid, euid = -1, -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		switch k {
		case "Name":
			name = strings.TrimSpace(v)
		case "Uid":
			if ids := strings.Fields(v); len(ids) >= 2 {
				ruid, _ = strconv.Atoi(ids[0])
				euid, _ = strconv.Atoi(ids[1])
			}
		}
	}
	return name, ruid, euid, sc.Err()
}

// noExec reports whether dir's file system is mounted noexec.
func noExec(dir string) bool {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return false
	}
	return st.Flags&unix.ST_NOEXEC != 0
}

// dieWithParent makes the kernel end the helper when its parent, sudo,
// ends: a sudo killed while its question waits for the user must not
// leave the helper waiting, holding the question open at nb's prompt.
func dieWithParent() error {
	parent := os.Getppid()
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return err
	}
	if os.Getppid() != parent {
		return errors.New("sudo ended")
	}
	return nil
}

// untraceable stops other processes of this user from reading this one's
// memory or attaching a debugger (the helper, before it gets a password).
func untraceable() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// sweep removes the private directories below parent that this user's nb
// processes left when they were killed (their process is gone).
func sweep(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(parent, dirPrefix+"*-*"))
	for _, d := range dirs {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(d), dirPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 {
			continue
		}
		var st unix.Stat_t
		if unix.Lstat(d, &st) != nil || int(st.Uid) != os.Getuid() || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue
		}
		if unix.Kill(pid, 0) == unix.ESRCH {
			os.RemoveAll(d)
		}
	}
}
