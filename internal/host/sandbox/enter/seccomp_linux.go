//go:build linux

package enter

import (
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// auditArch is the seccomp architecture of this build, 0 when nb has no
// filter for it.
func auditArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// The offsets of struct seccomp_data: the system call's number, its
// architecture, and the low 32 bits of its arguments (both architectures
// nb filters are little-endian).
const (
	seccompNr   = 0
	seccompArch = 4
)

func seccompArg(i int) uint32 { return uint32(16 + 8*i) }

// denied are the system calls a sandboxed command may not make, whatever
// its arguments, and the error it gets instead: ENOSYS where a program is
// expected to go on without the feature, EPERM where it asks for a power
// the sandbox withholds.
//   - io_uring creates sockets and opens files through its own queue,
//     which the socket rules below never see: a unix socket (a docker
//     daemon, an agent under home) would be reachable through it.
//   - The kernel's keyrings hold secrets of the session nb was started in
//     (keyctl, add_key, request_key): the sandbox shares that session.
//   - bpf, perf_event_open and userfaultfd are kernel attack surface no
//     command nb allows by itself needs.
//   - ptrace and process_vm_readv/writev read and change other processes.
//   - unshare, setns and clone3 (whose flags a filter cannot read) create
//     or enter namespaces: a new user namespace gives back every
//     capability inside it, from which the mounts that hide secrets can be
//     attacked; clone is checked below for the same flag.
//   - The mount family: the sandbox's mounts are its protections.
var denied = []struct {
	nr    uintptr
	errno unix.Errno
}{
	{unix.SYS_IO_URING_SETUP, unix.ENOSYS}, {unix.SYS_IO_URING_ENTER, unix.ENOSYS}, {unix.SYS_IO_URING_REGISTER, unix.ENOSYS},
	{unix.SYS_KEYCTL, unix.ENOSYS}, {unix.SYS_ADD_KEY, unix.ENOSYS}, {unix.SYS_REQUEST_KEY, unix.ENOSYS},
	{unix.SYS_BPF, unix.ENOSYS}, {unix.SYS_PERF_EVENT_OPEN, unix.ENOSYS}, {unix.SYS_USERFAULTFD, unix.ENOSYS},
	{unix.SYS_PTRACE, unix.EPERM}, {unix.SYS_PROCESS_VM_READV, unix.EPERM}, {unix.SYS_PROCESS_VM_WRITEV, unix.EPERM},
	{unix.SYS_UNSHARE, unix.EPERM}, {unix.SYS_SETNS, unix.EPERM}, {unix.SYS_CLONE3, unix.ENOSYS},
	{unix.SYS_MOUNT, unix.EPERM}, {unix.SYS_UMOUNT2, unix.EPERM}, {unix.SYS_PIVOT_ROOT, unix.EPERM},
	{unix.SYS_OPEN_TREE, unix.EPERM}, {unix.SYS_MOVE_MOUNT, unix.EPERM}, {unix.SYS_FSOPEN, unix.EPERM},
	{unix.SYS_FSCONFIG, unix.EPERM}, {unix.SYS_FSMOUNT, unix.EPERM}, {unix.SYS_FSPICK, unix.EPERM},
	{unix.SYS_MOUNT_SETATTR, unix.EPERM}, {unix.SYS_OPEN_BY_HANDLE_AT, unix.EPERM},
}

// metadataCalls change a file's mode, owner, times or extended attributes.
// (legacyMetadataCalls are the older ones some architectures keep).
var metadataCalls = append([]uintptr{
	unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2,
	unix.SYS_FCHOWN, unix.SYS_FCHOWNAT, unix.SYS_UTIMENSAT,
	unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
	unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
}, legacyMetadataCalls...)

// deniedIoctls are terminal requests that type into a terminal or drive
// the console: TIOCSTI pushes input into the terminal (the one a session
// shares with nb's user), TIOCLINUX pastes the console's selection.
var deniedIoctls = []uint32{unix.TIOCSTI, unix.TIOCLINUX}

// bpfAsm assembles a classic BPF program whose jumps name labels.
type bpfAsm struct {
	ins    []unix.SockFilter
	labels map[string]int
	jumps  []bpfJump
}

type bpfJump struct {
	at     int
	jt, jf string // "" falls through
}

func (a *bpfAsm) op(code uint16, k uint32) { a.ins = append(a.ins, unix.SockFilter{Code: code, K: k}) }

func (a *bpfAsm) jump(code uint16, k uint32, jt, jf string) {
	a.jumps = append(a.jumps, bpfJump{len(a.ins), jt, jf})
	a.op(code, k)
}

func (a *bpfAsm) label(name string) { a.labels[name] = len(a.ins) }

func (a *bpfAsm) ret(name string, k uint32) {
	a.label(name)
	a.op(unix.BPF_RET|unix.BPF_K, k)
}

// assemble resolves the labels (forward only, as classic BPF jumps).
func (a *bpfAsm) assemble() []unix.SockFilter {
	rel := func(at int, l string) uint8 {
		if l == "" {
			return 0
		}
		t, ok := a.labels[l]
		if !ok || t <= at || t-at-1 > 255 {
			panic("seccomp: bad jump to " + l)
		}
		return uint8(t - at - 1)
	}
	for _, j := range a.jumps {
		a.ins[j.at].Jt, a.ins[j.at].Jf = rel(j.at, j.jt), rel(j.at, j.jf)
	}
	return a.ins
}

// commandFilter is the seccomp program of every sandboxed command: the
// system calls of denied refused; sockets only of the families it may
// use: netlink ones (the system's own network information), and IPv4 and
// IPv6 ones when network is true. Unix-domain sockets are refused
// (EACCES): Landlock before ABI 9 cannot confine them and bubblewrap's
// private /tmp and /run do not hide those that lie elsewhere (the docker
// socket, a tmux server, the session bus and ssh-agent are ways out,
// whatever their path). IPv4 and IPv6 ones are refused when network is
// false (ENETUNREACH, "Network is unreachable": Landlock does not
// restrict UDP before ABI 10), and every other family (vsock to a virtual
// machine's host, packet, bluetooth …) always (EAFNOSUPPORT). socketpair
// stays allowed. A clone asking for a new user namespace and the ioctls
// of deniedIoctls are refused (EPERM). System calls of another
// architecture are refused outright.
//
// frozen also refuses (EROFS) what changes a file's metadata, which
// Landlock does not govern: its mode, owner, times and extended
// attributes, for a profile in which nothing is writable.
func commandFilter(arch uint32, network, frozen bool) []unix.SockFilter {
	const (
		ldW  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	)
	errnoLabel := func(e unix.Errno) string { return "errno" + e.Error() }
	a := &bpfAsm{labels: map[string]int{}}
	a.op(ldW, seccompArch)
	a.jump(jeq, arch, "", "refuse")
	a.op(ldW, seccompNr)
	a.jump(jge, 0x40000000, "refuse", "") // x32 system calls
	a.jump(jeq, uint32(unix.SYS_SOCKET), "socket", "")
	a.jump(jeq, uint32(unix.SYS_IOCTL), "ioctl", "")
	a.jump(jeq, uint32(unix.SYS_CLONE), "clone", "")
	for _, d := range denied {
		a.jump(jeq, uint32(d.nr), errnoLabel(d.errno), "")
	}
	if frozen {
		for _, nr := range metadataCalls {
			a.jump(jeq, uint32(nr), errnoLabel(unix.EROFS), "")
		}
	}
	a.ret("allow", unix.SECCOMP_RET_ALLOW)

	a.label("socket")
	inet := "unreachable"
	if network {
		inet = "allow2"
	}
	a.op(ldW, seccompArg(0))
	a.jump(jeq, unix.AF_NETLINK, "allow2", "")
	a.jump(jeq, unix.AF_INET, inet, "")
	a.jump(jeq, unix.AF_INET6, inet, "")
	a.jump(jeq, unix.AF_UNIX, "refuse", "")
	a.ret("other", unix.SECCOMP_RET_ERRNO|uint32(unix.EAFNOSUPPORT))

	a.label("ioctl")
	a.op(ldW, seccompArg(1)) // the request: an unsigned int to the kernel
	for _, r := range deniedIoctls {
		a.jump(jeq, r, errnoLabel(unix.EPERM), "")
	}
	a.ret("allow2", unix.SECCOMP_RET_ALLOW)

	a.label("clone")
	a.op(ldW, seccompArg(0)) // flags
	a.jump(jset, unix.CLONE_NEWUSER, errnoLabel(unix.EPERM), "allow3")
	a.ret("allow3", unix.SECCOMP_RET_ALLOW)

	a.ret("refuse", unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	a.ret("unreachable", unix.SECCOMP_RET_ERRNO|uint32(unix.ENETUNREACH))
	a.ret(errnoLabel(unix.ENOSYS), unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	a.ret(errnoLabel(unix.EPERM), unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	if frozen {
		a.ret(errnoLabel(unix.EROFS), unix.SECCOMP_RET_ERRNO|uint32(unix.EROFS))
	}
	return a.assemble()
}

// filterBytes are the two compiled filters (network off, on), built once.
var filterBytes = sync.OnceValue(func() [2][]byte {
	var out [2][]byte
	arch := auditArch()
	if arch == 0 {
		return out
	}
	for i, network := range []bool{false, true} {
		prog := commandFilter(arch, network, false)
		b := make([]byte, 0, 8*len(prog))
		for _, f := range prog {
			b = binary.NativeEndian.AppendUint16(b, f.Code)
			b = append(b, f.Jt, f.Jf)
			b = binary.NativeEndian.AppendUint32(b, f.K)
		}
		out[i] = b
	}
	return out
})

// SeccompFile returns a pipe from which bubblewrap reads the command's
// filter (its --seccomp option), or nil and why there is none for this
// architecture.
func SeccompFile(network bool) (*os.File, error) {
	bs := filterBytes()
	b := bs[0]
	if network {
		b = bs[1]
	}
	if b == nil {
		return nil, ErrNoFilter
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// A few hundred bytes: the pipe holds them without a reader.
	_, err = w.Write(b)
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// ErrNoFilter says the filter does not exist for this build.
var ErrNoFilter = errors.New("no seccomp filter for " + runtime.GOARCH + ": unix sockets, io_uring and the session's keyrings stay reachable")

// applySocketFilter installs commandFilter on every thread of the process.
func applySocketFilter(network, frozen bool) error {
	arch := auditArch()
	if arch == 0 {
		return ErrNoFilter
	}
	prog := commandFilter(arch, network, frozen)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return errno
	}
	return nil
}
