package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/nb-cli/nb/internal/host/sandbox/enter"
)

// mountPlan is what a layout mounts over the read-only system, in order.
type mountPlan struct {
	Mounts []enter.Mount
	// Sealed are tmpfs covers made read-only once what stays visible
	// below them is bound in.
	Sealed []string
	// Created are mount points made on the host because a protected path
	// does not exist yet (as in bwrapPlan).
	Created []string
}

// bwrapPlan is the bubblewrap invocation for a layout.
type bwrapPlan struct {
	Args []string
	// Created are mount points bubblewrap will create on the host because
	// a protected path does not exist yet; they are removed when the host
	// closes, if still empty.
	Created []string
}

// bwrapFiles are the host's files bubblewrap covers paths with.
type bwrapFiles struct {
	// emptyDir and emptyFile (read-only) cover protected paths that do
	// not exist yet; deniedFile (mode 0) covers unreadable files.
	emptyDir, emptyFile, deniedFile string
	// seccomp is the descriptor holding the socket filter, 0 for none.
	seccomp int
}

// bwrapArgs builds the bubblewrap arguments (without the program and the
// trailing "--") for layout l. newSession detaches the command from nb's
// terminal. ours reports mount points created by earlier runs.
//
// Unreadable directories are covered by an empty tmpfs of mode 0 (0111
// when something below them stays visible, which bubblewrap binds into
// it) made read-only, unreadable files by an empty file of mode 0: a read
// fails with "Permission denied" (the capabilities that would bypass the
// mode are dropped) and a write with "Read-only file system".
func bwrapArgs(l Layout, f bwrapFiles, newSession bool, ours func(string) bool) bwrapPlan {
	args := []string{"--unshare-all"}
	if l.Network {
		args = append(args, "--share-net")
	}
	args = append(args, "--die-with-parent")
	if newSession {
		args = append(args, "--new-session")
	}
	args = append(args, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc")
	// The kernel's settings: root's, even without a capability (a sysctl
	// checks the writer's user id). kernel.core_pattern or kernel.modprobe
	// would run a program outside the sandbox. bubblewrap's own cover of
	// /proc/sys is skipped in a user namespace.
	for _, p := range enter.KernelSettings {
		if _, ok := exists(p); ok {
			args = append(args, "--ro-bind", p, p)
		}
	}

	p := planMounts(l, f, ours)
	for _, m := range p.Mounts {
		switch {
		case m.Op == "--tmpfs" && m.Perms != "":
			args = append(args, "--perms", m.Perms, m.Op, m.Dest)
		case m.Op == "--tmpfs":
			args = append(args, m.Op, m.Dest)
		default:
			args = append(args, m.Op, m.Src, m.Dest)
		}
	}
	for _, h := range p.Sealed {
		args = append(args, "--remount-ro", h)
	}
	// Run by root, bubblewrap would leave the command root's
	// capabilities, enough to unmount the protections above and to read
	// files of any mode.
	args = append(args, "--cap-drop", "ALL")
	if f.seccomp > 0 {
		args = append(args, "--seccomp", strconv.Itoa(f.seccomp))
	}
	args = append(args, "--setenv", "TMPDIR", "/tmp", "--unsetenv", "SSH_AUTH_SOCK", "--unsetenv", "DBUS_SESSION_BUS_ADDRESS")
	return bwrapPlan{Args: args, Created: p.Created}
}

// planMounts is the list of mounts that builds layout l's view over the
// read-only system: a private /tmp and /run, the writable trees, what
// stays visible, covers over what is hidden and over what is protected
// but absent, and masks last. ours reports mount points created by
// earlier runs.
func planMounts(l Layout, f bwrapFiles, ours func(string) bool) mountPlan {
	var ms []enter.Mount
	var created []string
	ms = append(ms, enter.Mount{Op: "--tmpfs", Dest: "/tmp"})
	// /run holds the sockets of the docker engine, the system and session
	// buses and agents: reachable, they are ways out of the sandbox.
	ms = append(ms, enter.Mount{Op: "--tmpfs", Dest: "/run"})
	if l.Network {
		if _, ok := exists("/run/systemd/resolve"); ok {
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: "/run/systemd/resolve", Dest: "/run/systemd/resolve"})
		}
	}
	for _, w := range l.Writable {
		if _, ok := exists(w); ok {
			ms = append(ms, enter.Mount{Op: "--bind", Src: w, Dest: w})
		}
	}
	for _, w := range l.Scratch {
		ms = append(ms, enter.Mount{Op: "--bind", Src: w, Dest: w})
	}
	for _, k := range l.Keep {
		if _, ok := exists(k); ok {
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: k, Dest: k})
		}
	}
	var sealed []string // tmpfs covers made read-only once filled
	cover := func(h string, masked bool) {
		fi, ok := exists(h)
		switch {
		case ok && fi.IsDir():
			perms := "0000"
			if !masked && underAny2(l.Visible, h) {
				perms = "0111" // traversable to what stays visible, not listable
			}
			ms = append(ms, enter.Mount{Op: "--tmpfs", Dest: h, Perms: perms})
			sealed = append(sealed, h)
		case ok:
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: f.deniedFile, Dest: h})
		case l.insideWritable(h) && parentExists(h):
			// Could be created from inside: cover it.
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: f.emptyDir, Dest: h})
			created = append(created, h)
		}
	}
	for _, h := range l.Hidden {
		cover(h, false)
	}
	for _, v := range l.Visible {
		if _, ok := exists(v); ok {
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: v, Dest: v})
		}
	}
	for _, w := range l.Writable {
		if _, ok := exists(w); !ok {
			continue
		}
		git := filepath.Join(w, ".git")
		fi, ok := exists(git)
		if ok && ours != nil && ours(git) && emptyDirectory(git) {
			ok = false // an earlier run's mount point, not a repository
		}
		switch {
		case !ok:
			// No repository yet: one must not be planted with hooks.
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: f.emptyDir, Dest: git})
			created = append(created, git)
		case !fi.IsDir():
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: git, Dest: git})
		default:
			// All of the repository: what it holds runs outside later
			// (hooks, config, commondir, info/attributes, alternates,
			// modules/*/config). A mount point cannot be renamed away.
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: git, Dest: git})
		}
	}
	for _, p := range l.ReadOnly {
		isDir, absent := l.Absent[p]
		dup := false
		for _, m := range ms {
			dup = dup || m.Dest == p
		}
		_, ok := exists(p)
		switch {
		case dup:
		case ok && ours != nil && ours(p) && emptyEntry(p) && absent:
			// an earlier run's cover, still empty: cover it again
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: coverSource(f, isDir), Dest: p})
		case ok:
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: p, Dest: p})
		case absent:
			// Could be created from inside: cover it.
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: coverSource(f, isDir), Dest: p})
			created = append(created, p)
		}
	}
	// Shallower mounts first, so deeper ones stack on top of them; at
	// the same depth the order above holds.
	sort.SliceStable(ms, func(i, j int) bool { return depth(ms[i].Dest) < depth(ms[j].Dest) })
	// Masks come last: nothing bound above reopens them.
	var masks []enter.Mount
	for _, m := range l.Masked {
		n := len(ms)
		cover(m, true)
		masks = append(masks, ms[n:]...)
		ms = ms[:n]
	}
	sort.SliceStable(masks, func(i, j int) bool { return depth(masks[i].Dest) < depth(masks[j].Dest) })
	ms = append(ms, masks...)
	// The kernel's key lists name the keys of the session nb shares
	// (their descriptions; the filter refuses keyctl itself).
	for _, k := range kernelKeyLists {
		if _, ok := exists(k); ok {
			ms = append(ms, enter.Mount{Op: "--ro-bind", Src: f.deniedFile, Dest: k})
		}
	}
	return mountPlan{Mounts: ms, Sealed: sealed, Created: created}
}

// kernelKeyLists are the files of /proc listing the keys the session's
// keyrings hold.
var kernelKeyLists = []string{"/proc/keys", "/proc/key-users"}

// coverSource is what covers an absent path: an empty directory or file.
func coverSource(f bwrapFiles, dir bool) string {
	if dir {
		return f.emptyDir
	}
	return f.emptyFile
}

// underAny2 reports whether one of ps lies strictly below dir.
func underAny2(ps []string, dir string) bool {
	for _, p := range ps {
		if p != dir && within(p, dir) {
			return true
		}
	}
	return false
}

func parentExists(p string) bool {
	_, ok := exists(filepath.Dir(p))
	return ok
}

func emptyDirectory(p string) bool {
	ents, err := os.ReadDir(p)
	return err == nil && len(ents) == 0
}
