//go:build linux

package enter

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// capSysAdmin is CAP_SYS_ADMIN, kept by the helper (and only by it) to
// mount in its own namespaces.
const capSysAdmin = 21

// ProcAttr starts the Landlock helper in a new user namespace (the
// user's own uid and gid mapped to themselves), a new mount namespace and
// a new process namespace (the helper's supervisor is its first process:
// when it ends, so does every process of the sandbox),
// keeping CAP_SYS_ADMIN across its exec so that it can bind the protected
// paths read-only. The helper drops it before executing the command.
func ProcAttr(a *syscall.SysProcAttr) {
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = []uintptr{capSysAdmin}
}

// protectMounts makes the mounts of this (new) mount namespace private and
// binds every existing path of ro read-only onto itself: writes fail, and
// a mount point can be neither renamed nor removed. Each path is opened
// without following a final symlink and checked to still be where it was
// named (an intermediate directory swapped for a link is refused), and
// the mount goes through the open file, not the name.
func protectMounts(ro []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	ps := append([]string{}, ro...)
	// Shallower first, so deeper binds stack on top.
	sort.SliceStable(ps, func(i, j int) bool { return depth(ps[i]) < depth(ps[j]) })
	for _, p := range ps {
		if err := bindReadOnly(p); err != nil {
			return err
		}
	}
	return nil
}

func bindReadOnly(p string) error {
	fd, err := openExact(p)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	fdPath := "/proc/self/fd/" + strconv.Itoa(fd)
	err = unix.Mount(fdPath, fdPath, "", unix.MS_BIND|unix.MS_REC, "")
	unix.Close(fd)
	if err != nil {
		return fmt.Errorf("bind %s: %w", p, err)
	}
	// The old descriptor names the covered file: open the new mount.
	if fd, err = openExact(p); err != nil {
		return err
	}
	defer unix.Close(fd)
	fdPath = "/proc/self/fd/" + strconv.Itoa(fd)
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return fmt.Errorf("statfs %s: %w", p, err)
	}
	// Flags the mount already has are locked in a user namespace:
	// dropping them would be refused.
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for f, ms := range map[int64]uintptr{
		unix.ST_NOSUID: unix.MS_NOSUID, unix.ST_NODEV: unix.MS_NODEV, unix.ST_NOEXEC: unix.MS_NOEXEC,
		unix.ST_NOATIME: unix.MS_NOATIME, unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME,
	} {
		if st.Flags&f != 0 {
			flags |= ms
		}
	}
	if err := unix.Mount("", fdPath, "", flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", p, err)
	}
	return nil
}

// openExact opens p as a path (O_PATH, no final symlink followed) and
// checks that the kernel names it p.
func openExact(p string) (int, error) {
	fd, err := unix.Open(p, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: p, Err: err}
	}
	got, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil || got != p {
		unix.Close(fd)
		return -1, fmt.Errorf("protect %s: it moved (now %q)", p, got)
	}
	return fd, nil
}

// dropCaps leaves the command no capability: the helper's CAP_SYS_ADMIN
// in its namespaces (or a root user's) would let it undo the read-only
// mounts. The bounding set is emptied where allowed (root), the ambient,
// inheritable, permitted and effective sets of the calling thread, which
// must be the one executing the command, are cleared.
func dropCaps() error {
	for c := 0; c < 64; c++ {
		_ = unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0) // needs CAP_SETPCAP: root only
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	var data [2]unix.CapUserData
	if err := unix.Capset(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &data[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	return nil
}

// lockThread keeps the helper on one thread from dropping its
// capabilities to executing the command.
func lockThread() { runtime.LockOSThread() }

// privateTmp mounts an empty tmpfs on /tmp and binds keep, the paths of
// the host's /tmp that stay visible, back into it.
func privateTmp(keep []string) error { return privateDir("/tmp", keep) }

// privateDir mounts an empty tmpfs on dir and binds keep, the paths below
// dir that stay visible, back into it, each through a descriptor opened
// (and checked to name it) before the tmpfs covers it. A dir that does
// not exist is left alone.
func privateDir(dir string, keep []string) error {
	if _, err := os.Lstat(dir); err != nil {
		return nil
	}
	ps := slices.Clone(keep)
	sort.SliceStable(ps, func(i, j int) bool { return depth(ps[i]) < depth(ps[j]) })
	type held struct {
		path string
		fd   int
	}
	var hs []held
	defer func() {
		for _, h := range hs {
			unix.Close(h.fd)
		}
	}()
	for _, p := range ps {
		if p == dir || !within(p, dir) {
			continue
		}
		nested := false
		for _, h := range hs {
			nested = nested || within(p, h.path)
		}
		if nested {
			continue
		}
		fd, err := openExact(p)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return err
		}
		hs = append(hs, held{p, fd})
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	for _, h := range hs {
		if err := os.MkdirAll(h.path, 0o755); err != nil {
			return err
		}
		fdPath := "/proc/self/fd/" + strconv.Itoa(h.fd)
		if err := unix.Mount(fdPath, h.path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", h.path, err)
		}
	}
	return nil
}

// isolateSystem gives the command what bubblewrap gives it: an empty /run
// (the system's sockets and credentials; the resolver's directory stays
// when the network is on) and /dev/shm (another program's shared memory),
// and no device file outside /dev: every mount refuses them (nodev), as a
// device node planted elsewhere (a disk's, in a chroot's /dev) would read
// the disk below every protection.
func isolateSystem(network bool) error {
	var keep []string
	if network {
		keep = append(keep, "/run/systemd/resolve")
	}
	if err := privateDir("/run", keep); err != nil {
		return fmt.Errorf("private /run: %w", err)
	}
	if err := privateDir("/dev/shm", nil); err != nil {
		return fmt.Errorf("private /dev/shm: %w", err)
	}
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NODEV}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &attr); err != nil {
		return fmt.Errorf("no device files outside /dev: %w", err)
	}
	// /dev itself keeps its devices (Landlock grants only devFiles there).
	for _, d := range []string{"/dev", "/dev/pts"} {
		clr := unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_NODEV}
		_ = unix.MountSetattr(-1, d, 0, &clr)
	}
	return nil
}

// mountProc mounts, on /proc, the proc file system of the helper's own
// process namespace: no process of the host is listed there.
func mountProc() error {
	return unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return dir == "/" || p == dir || strings.HasPrefix(p, dir+"/")
}

// depth counts path components.
func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}
