package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeArg makes the test binary, copied where a sandbox can run it
// (probeBinary), the attacker's program: it tries, inside the sandbox,
// what no shell command can express (io_uring, keyrings, namespaces,
// ioctls on a terminal) and prints what happened.
const probeArg = "__nbt-probe"

// probeMain runs the probe when args ask for it.
func probeMain(args []string) (bool, int) {
	if len(args) < 2 || args[0] != probeArg {
		return false, 0
	}
	switch args[1] {
	case "uring-connect": // PATH: a unix socket through io_uring
		if len(args) < 3 {
			return true, 2
		}
		out, err := uringConnect(args[2])
		if err != nil {
			fmt.Println("uring:", err)
			return true, 1
		}
		fmt.Println("uring read:", out)
	case "syscalls": // DIR: an empty directory to try to mount on
		if len(args) < 3 {
			return true, 2
		}
		for _, line := range probeSyscalls(args[2]) {
			fmt.Println(line)
		}
	default:
		return true, 2
	}
	return true, 0
}

// probeSyscalls tries each kernel feature the sandbox withholds and says
// how each call ended: "name ok" or "name ERRNO". What it mounts on dir
// (an empty directory of the test) it unmounts at once.
func probeSyscalls(dir string) []string {
	res := func(name string, err error) string {
		if err == nil {
			return name + " ok"
		}
		var e syscall.Errno
		if ok := asErrno(err, &e); ok {
			return name + " " + unix.ErrnoName(e)
		}
		return name + " " + err.Error()
	}
	var out []string
	var params [120]byte
	_, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 4, uintptr(unsafe.Pointer(&params[0])), 0)
	out = append(out, res("io_uring_setup", errnoErr(e)))
	_, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, false)
	out = append(out, res("keyctl", err))
	_, err = unix.AddKey("user", "nbt", []byte("x"), unix.KEY_SPEC_PROCESS_KEYRING)
	out = append(out, res("add_key", err))
	out = append(out, res("unshare-user", unix.Unshare(unix.CLONE_NEWUSER)))
	cmd := exec.Command("/bin/true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
	out = append(out, res("clone-newuser", cmd.Run()))
	_, _, e = unix.Syscall6(unix.SYS_BPF, 0, 0, 0, 0, 0, 0)
	out = append(out, res("bpf", errnoErr(e)))
	_, _, e = unix.Syscall6(unix.SYS_PERF_EVENT_OPEN, 0, 0, 0, 0, 0, 0)
	out = append(out, res("perf_event_open", errnoErr(e)))
	_, _, e = unix.Syscall(unix.SYS_USERFAULTFD, 0, 0, 0)
	out = append(out, res("userfaultfd", errnoErr(e)))
	_, _, e = unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_PEEKDATA, uintptr(os.Getppid()), 0, 0, 0, 0)
	out = append(out, res("ptrace", errnoErr(e)))
	err = unix.Mount("none", dir, "tmpfs", 0, "")
	if err == nil {
		_ = unix.Unmount(dir, unix.MNT_DETACH)
	}
	out = append(out, res("mount", err))
	out = append(out, res("tiocsti", tiocsti()))
	return out
}

func errnoErr(e syscall.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func asErrno(err error, e *syscall.Errno) bool {
	for err != nil {
		if x, ok := err.(syscall.Errno); ok {
			*e = x
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// tiocsti opens a terminal of its own, makes it the controlling terminal
// of a new session, and pushes a character into its input.
func tiocsti() error {
	signal.Ignore(syscall.SIGHUP) // the terminal closes when it returns
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		return err
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		return err
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer tty.Close()
	if _, err := unix.Setsid(); err != nil && err != unix.EPERM {
		return err
	}
	_ = unix.IoctlSetInt(int(tty.Fd()), unix.TIOCSCTTY, 0)
	c := byte('x')
	_, _, e := unix.Syscall(unix.SYS_IOCTL, tty.Fd(), unix.TIOCSTI, uintptr(unsafe.Pointer(&c)))
	return errnoErr(e)
}

// uringConnect creates a unix socket through io_uring's own queue
// (IORING_OP_SOCKET), connects it to path and returns what the server
// answers to an HTTP request.
func uringConnect(path string) (string, error) {
	type sqOffsets struct {
		Head, Tail, RingMask, RingEntries, Flags, Dropped, Array, Resv1 uint32
		Resv2                                                           uint64
	}
	type cqOffsets struct {
		Head, Tail, RingMask, RingEntries, Overflow, Cqes, Flags, Resv1 uint32
		Resv2                                                           uint64
	}
	type params struct {
		SqEntries, CqEntries, Flags, SqThreadCPU, SqThreadIdle, Features, WqFd uint32
		Resv                                                                   [3]uint32
		Sq                                                                     sqOffsets
		Cq                                                                     cqOffsets
	}
	var p params
	fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 4, uintptr(unsafe.Pointer(&p)), 0)
	if e != 0 {
		return "", fmt.Errorf("io_uring_setup: %w", e)
	}
	ring := int(fd)
	mmap := func(off int64, size int) ([]byte, error) {
		return unix.Mmap(ring, off, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE)
	}
	sq, err := mmap(0, int(p.Sq.Array+p.SqEntries*4))
	if err != nil {
		return "", err
	}
	cq, err := mmap(0x8000000, int(p.Cq.Cqes+p.CqEntries*16))
	if err != nil {
		return "", err
	}
	sqes, err := mmap(0x10000000, int(p.SqEntries*64))
	if err != nil {
		return "", err
	}
	u32 := func(b []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&b[off])) }
	tail := *u32(sq, p.Sq.Tail)
	idx := tail & *u32(sq, p.Sq.RingMask)
	sqe := sqes[idx*64 : idx*64+64]
	clear(sqe)
	sqe[0] = 45                                            // IORING_OP_SOCKET
	*(*int32)(unsafe.Pointer(&sqe[4])) = unix.AF_UNIX      // fd: the domain
	*(*uint64)(unsafe.Pointer(&sqe[8])) = unix.SOCK_STREAM // off: the type
	*u32(sq, p.Sq.Array+idx*4) = idx
	*u32(sq, p.Sq.Tail) = tail + 1
	if _, _, e := unix.Syscall6(unix.SYS_IO_URING_ENTER, uintptr(ring), 1, 1, 1, 0, 0); e != 0 {
		return "", fmt.Errorf("io_uring_enter: %w", e)
	}
	head := *u32(cq, p.Cq.Head)
	cqe := (head & *u32(cq, p.Cq.RingMask)) * 16
	sock := *(*int32)(unsafe.Pointer(&cq[p.Cq.Cqes+cqe+8]))
	if sock < 0 {
		return "", fmt.Errorf("socket through io_uring: %w", syscall.Errno(-sock))
	}
	if err := unix.Connect(int(sock), &unix.SockaddrUnix{Name: path}); err != nil {
		return "", err
	}
	f := os.NewFile(uintptr(sock), "sock")
	defer f.Close()
	if _, err := io.WriteString(f, "GET / HTTP/1.0\r\n\r\n"); err != nil {
		return "", err
	}
	b, _ := io.ReadAll(f)
	return strings.TrimSpace(string(b)), nil
}

// probeBinary copies the test binary into dir (bubblewrap's private /tmp
// hides where go test builds it) and returns its path.
func probeBinary(t testing.TB, dir string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	p := filepath.Join(dir, "nbt-probe")
	dst, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}
