//go:build linux

package sandbox

import (
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// auditArch is the seccomp architecture of this build, 0 when nb has no
// socket filter for it.
func auditArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// socketFilter is a seccomp program that lets a command create only the
// sockets it may use: netlink ones (the system's own network
// information), and IPv4 and IPv6 ones when network is true. Unix-domain
// sockets are refused (EACCES): Landlock before ABI 9 cannot confine them
// and bubblewrap's private /tmp and /run do not hide those that lie
// elsewhere (the docker socket, a tmux server, the session bus and
// ssh-agent are ways out, whatever their path). IPv4 and IPv6 ones are
// refused when network is false (ENETUNREACH, "Network is unreachable":
// Landlock does not restrict UDP before ABI 10), and every other family
// (vsock to a virtual machine's host, packet, bluetooth …) always
// (EAFNOSUPPORT). socketpair stays allowed. System calls of another
// architecture are refused outright.
func socketFilter(arch uint32, network bool) []unix.SockFilter {
	const (
		ldW     = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq     = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge     = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret     = unix.BPF_RET | unix.BPF_K
		deny    = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
		offline = unix.SECCOMP_RET_ERRNO | uint32(unix.ENETUNREACH)
		other   = unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT)
	)
	// Layout: 0 ld arch; 1 jeq arch; 2 ld nr; 3 jge x32; 4 jeq socket;
	// 5 ld args[0]; 6 jeq netlink; 7 jeq inet; 8 jeq inet6; 9 jeq unix;
	// 10 ret other; 11 allow; 12 deny; 13 offline.
	const allow, refuse, unreachable = 11, 12, 13
	inet := unreachable
	if network {
		inet = allow
	}
	at := func(i, target int) uint8 { return uint8(target - i - 1) }
	return []unix.SockFilter{
		{Code: ldW, K: 4},
		{Code: jeq, K: arch, Jt: 0, Jf: at(1, refuse)},
		{Code: ldW, K: 0},
		{Code: jge, K: 0x40000000, Jt: at(3, refuse), Jf: 0},
		{Code: jeq, K: uint32(unix.SYS_SOCKET), Jt: 0, Jf: at(4, allow)},
		{Code: ldW, K: 16},
		{Code: jeq, K: unix.AF_NETLINK, Jt: at(6, allow), Jf: 0},
		{Code: jeq, K: unix.AF_INET, Jt: at(7, inet), Jf: 0},
		{Code: jeq, K: unix.AF_INET6, Jt: at(8, inet), Jf: 0},
		{Code: jeq, K: unix.AF_UNIX, Jt: at(9, refuse), Jf: 0},
		{Code: ret, K: other},
		{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		{Code: ret, K: deny},
		{Code: ret, K: offline},
	}
}

// seccompFile returns a pipe from which bubblewrap reads the socket
// filter (its --seccomp option), or nil and why there is none for this
// architecture.
func seccompFile(network bool) (*os.File, error) {
	arch := auditArch()
	if arch == 0 {
		return nil, errNoFilter
	}
	prog := socketFilter(arch, network)
	b := make([]byte, 0, 8*len(prog))
	for _, f := range prog {
		b = binary.NativeEndian.AppendUint16(b, f.Code)
		b = append(b, f.Jt, f.Jf)
		b = binary.NativeEndian.AppendUint32(b, f.K)
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

// errNoFilter says the socket filter does not exist for this build.
var errNoFilter = errors.New("no socket filter for " + runtime.GOARCH + ": unix sockets stay reachable")

// applySocketFilter installs socketFilter on every thread of the process.
func applySocketFilter(network bool) error {
	arch := auditArch()
	if arch == 0 {
		return errNoFilter
	}
	prog := socketFilter(arch, network)
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
