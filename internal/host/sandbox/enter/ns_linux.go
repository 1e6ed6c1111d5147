//go:build linux

package enter

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The namespace mechanism: nb, re-executed as the helper in new user,
// mount, process, network, IPC, UTS and cgroup namespaces, builds the
// layout's view itself and starts the command, which bubblewrap would
// otherwise do in a process of its own. It mounts the same plan
// (planMounts) in the same order, with a system call per mount where
// bubblewrap re-reads the mount table for each, and it is the process
// namespace's first process, so the command's processes end with it.

// capNetAdmin is CAP_NET_ADMIN, kept by the namespace helper to bring up
// the loopback interface of its own network namespace.
const capNetAdmin = 12

// ViewProcAttr starts the namespace helper: ProcAttr's namespaces,
// and new network (unless network), IPC, UTS and cgroup ones.
func ViewProcAttr(network bool) func(*syscall.SysProcAttr) {
	return func(a *syscall.SysProcAttr) {
		ProcAttr(a)
		a.Cloneflags |= syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS | syscall.CLONE_NEWCGROUP
		if !network {
			a.Cloneflags |= syscall.CLONE_NEWNET
			a.AmbientCaps = append(a.AmbientCaps, capNetAdmin)
		}
	}
}

// UserNamespaces says why nb cannot create user namespaces here, as the
// kernel's settings tell without starting anything, or nil.
func UserNamespaces() error {
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(b)) == "0" {
		return errors.New("user namespaces are disabled (user.max_user_namespaces is 0)")
	}
	if b, err := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); err == nil && strings.TrimSpace(string(b)) == "0" && os.Getuid() != 0 {
		return errors.New("unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone is 0)")
	}
	return nil
}

// enterNamespaces builds s.NS's view, then, on this thread, gives up every
// capability, installs the command's system call filter and starts argv
// from it, so that the command inherits all three, and supervises it.
// It returns only on failure, before the command started.
func enterNamespaces(s Spec, argv []string) error {
	lockThread()
	if err := buildView(s.NS, s.Overlays); err != nil {
		return err
	}
	// The working directory was entered before the view was built: enter
	// it again, through the view's mounts (a writable bind, a cover).
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if err := os.Chdir(wd); err != nil {
		return fmt.Errorf("the command's directory in the sandbox: %w", err)
	}
	if !s.Network {
		if err := loopbackUp(); err != nil {
			return fmt.Errorf("loopback: %w", err)
		}
	}
	// The command runs as the same user: without this it could read and
	// write the helper's memory through /proc/1/mem.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("not dumpable: %w", err)
	}
	if err := applySocketFilter(s.Network, false); err != nil && !errors.Is(err, ErrNoFilter) {
		return fmt.Errorf("seccomp: %w", err)
	}
	if err := dropCaps(); err != nil {
		return err
	}
	return runSupervised(exec.Command(argv[0], argv[1:]...))
}

// buildView makes every mount of this (new) mount namespace private,
// read-only, without set-user-ID files and devices, gives it its own /dev
// and /proc (the kernel's settings read-only), then performs the plan
// and seals its covers. Sources are opened before anything is mounted,
// since a cover may hide them.
func buildView(ns *NSSpec, overlays []OverlayMount) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	// the plan's sources below an overlay are the overlay's
	if err := mountOverlays(overlays); err != nil {
		return err
	}
	src := map[string]int{}
	defer func() {
		for _, fd := range src {
			unix.Close(fd)
		}
	}()
	open := func(p string) error {
		if _, ok := src[p]; ok {
			return nil
		}
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		switch {
		case errors.Is(err, unix.ENOENT):
			return nil // gone since the layout: nothing to bind
		case err != nil:
			return &os.PathError{Op: "open", Path: p, Err: err}
		}
		src[p] = fd
		return nil
	}
	for _, m := range ns.Mounts {
		if m.Src != "" {
			if err := open(m.Src); err != nil {
				return err
			}
		}
	}
	for _, d := range devNodes {
		if err := open("/dev/" + d); err != nil {
			return err
		}
	}
	for _, k := range KernelSettings {
		if err := open(k); err != nil {
			return err
		}
	}
	all := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &all); err != nil {
		return fmt.Errorf("read-only system: %w", err)
	}
	if err := ownDev(src); err != nil {
		return fmt.Errorf("own /dev: %w", err)
	}
	if err := mountProc(); err != nil {
		return fmt.Errorf("own /proc: %w", err)
	}
	for _, k := range KernelSettings {
		if err := bindAt(src, k, k, true); err != nil {
			return err
		}
	}
	perms := map[string]string{}
	for _, m := range ns.Mounts {
		var err error
		switch m.Op {
		case "--tmpfs":
			perms[m.Dest] = m.Perms
			if err = os.MkdirAll(m.Dest, 0o755); err == nil {
				err = unix.Mount("tmpfs", m.Dest, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755")
			}
		case "--bind", "--ro-bind":
			err = bindAt(src, m.Src, m.Dest, m.Op == "--ro-bind")
		default:
			err = errors.New("unknown operation")
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", m.Op, m.Dest, err)
		}
	}
	for _, p := range ns.Sealed {
		if mode, err := strconv.ParseUint(perms[p], 8, 32); err == nil {
			if err := os.Chmod(p, os.FileMode(mode)); err != nil {
				return fmt.Errorf("seal %s: %w", p, err)
			}
		}
		ro := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(-1, p, 0, &ro); err != nil {
			return fmt.Errorf("seal %s: %w", p, err)
		}
	}
	return nil
}

// bindAt binds the source opened for from onto to, creating the mount
// point when it is missing (as bubblewrap does: an empty directory or
// file), read-only or writable. A source gone since the layout, or a
// mount point that cannot be made where nothing can be written, leaves
// nothing to protect: it is skipped.
func bindAt(src map[string]int, from, to string, readOnly bool) error {
	fd, ok := src[from]
	if !ok {
		return nil
	}
	fdPath := "/proc/self/fd/" + strconv.Itoa(fd)
	if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
		if err := mountPoint(fdPath, to); err != nil {
			if errors.Is(err, unix.EROFS) || errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
	}
	if err := unix.Mount(fdPath, to, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if readOnly {
		attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
	} else {
		attr.Attr_clr = unix.MOUNT_ATTR_RDONLY
	}
	err := unix.MountSetattr(-1, to, unix.AT_RECURSIVE, &attr)
	if err != nil && !readOnly && errors.Is(err, unix.EPERM) {
		// read-only where nb's user got it: it stays so
		attr.Attr_clr = 0
		err = unix.MountSetattr(-1, to, unix.AT_RECURSIVE, &attr)
	}
	return err
}

// mountPoint makes an empty directory or file at to, as the source behind
// fdPath is one.
func mountPoint(fdPath, to string) error {
	fi, err := os.Stat(fdPath)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if fi.IsDir() {
		return os.Mkdir(to, 0o755)
	}
	f, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// devNodes are the device files of the command's /dev, bound from the
// host's: the ones programs expect, no disk, no console, no memory.
var devNodes = []string{"null", "zero", "full", "random", "urandom", "tty"}

// ownDev mounts an empty tmpfs on /dev holding devNodes, a new instance
// of the terminals' file system (ptmx in it), an empty shm directory and
// the usual links to /proc.
func ownDev(src map[string]int) error {
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755"); err != nil {
		return err
	}
	for _, d := range devNodes {
		p := "/dev/" + d
		if err := bindAt(src, p, p, false); err != nil {
			return err
		}
		// devices work only on their own bind (the rest of the system
		// refuses them)
		dev := unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_NODEV}
		if err := unix.MountSetattr(-1, p, 0, &dev); err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	if err := os.Mkdir("/dev/pts", 0o755); err != nil {
		return err
	}
	if err := unix.Mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620"); err != nil {
		return fmt.Errorf("devpts: %w", err)
	}
	if err := os.Mkdir("/dev/shm", 0o777); err != nil {
		return err
	}
	if err := os.Chmod("/dev/shm", 0o1777); err != nil {
		return err
	}
	for name, target := range map[string]string{
		"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2", "core": "/proc/kcore",
	} {
		if err := os.Symlink(target, "/dev/"+name); err != nil {
			return err
		}
	}
	return nil
}

// loopbackUp brings up the loopback interface of the helper's new
// network namespace: programs talk to themselves over 127.0.0.1.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
