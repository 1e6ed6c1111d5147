package sandbox

import (
	"os"
	"path/filepath"
	"sort"
)

// mount is one bubblewrap filesystem operation.
type mount struct {
	op   string // --bind, --ro-bind, --tmpfs
	src  string // for binds
	dest string
}

// bwrapPlan is the bubblewrap invocation for a layout.
type bwrapPlan struct {
	Args []string
	// Created are mount points bubblewrap will create on the host because
	// a protected path does not exist yet; they are removed when the host
	// closes, if still empty.
	Created []string
}

// bwrapArgs builds the bubblewrap arguments (without the program and the
// trailing "--") for layout l. emptyDir and emptyFile are an empty
// directory and an empty file used to cover protected paths that do not
// exist yet. newSession detaches the command from nb's terminal. ours
// reports mount points created by earlier runs.
func bwrapArgs(l Layout, emptyDir, emptyFile string, newSession bool, ours func(string) bool) bwrapPlan {
	args := []string{"--unshare-all"}
	if l.Network {
		args = append(args, "--share-net")
	}
	args = append(args, "--die-with-parent")
	if newSession {
		args = append(args, "--new-session")
	}
	args = append(args, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc")

	var ms []mount
	var created []string
	ms = append(ms, mount{op: "--tmpfs", dest: "/tmp"})
	// /run holds the sockets of the docker engine, the system and session
	// buses and agents: reachable, they are ways out of the sandbox.
	ms = append(ms, mount{op: "--tmpfs", dest: "/run"})
	if l.Network {
		if _, ok := exists("/run/systemd/resolve"); ok {
			ms = append(ms, mount{op: "--ro-bind", src: "/run/systemd/resolve", dest: "/run/systemd/resolve"})
		}
	}
	for _, w := range l.Writable {
		if _, ok := exists(w); ok {
			ms = append(ms, mount{op: "--bind", src: w, dest: w})
		}
	}
	for _, w := range l.Scratch {
		ms = append(ms, mount{op: "--bind", src: w, dest: w})
	}
	for _, h := range l.Hidden {
		fi, ok := exists(h)
		switch {
		case ok && fi.IsDir():
			ms = append(ms, mount{op: "--tmpfs", dest: h})
		case ok:
			ms = append(ms, mount{op: "--ro-bind", src: "/dev/null", dest: h})
		case l.insideWritable(h) && parentExists(h):
			// Could be created from inside: cover it.
			ms = append(ms, mount{op: "--ro-bind", src: emptyDir, dest: h})
			created = append(created, h)
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
			ms = append(ms, mount{op: "--ro-bind", src: emptyDir, dest: git})
			created = append(created, git)
		case !fi.IsDir():
			ms = append(ms, mount{op: "--ro-bind", src: git, dest: git})
		default:
			// All of the repository: what it holds runs outside later
			// (hooks, config, commondir, info/attributes, alternates,
			// modules/*/config). A mount point cannot be renamed away.
			ms = append(ms, mount{op: "--ro-bind", src: git, dest: git})
		}
	}
	for _, p := range l.ReadOnly {
		dup := false
		for _, m := range ms {
			dup = dup || m.dest == p
		}
		if _, ok := exists(p); ok && !dup {
			ms = append(ms, mount{op: "--ro-bind", src: p, dest: p})
		}
	}
	// Shallower mounts first, so deeper ones stack on top of them.
	sort.SliceStable(ms, func(i, j int) bool { return depth(ms[i].dest) < depth(ms[j].dest) })
	for _, m := range ms {
		if m.op == "--tmpfs" {
			args = append(args, m.op, m.dest)
			continue
		}
		args = append(args, m.op, m.src, m.dest)
	}
	// Run by root, bubblewrap would leave the command root's
	// capabilities, enough to unmount the protections above.
	args = append(args, "--cap-drop", "ALL")
	args = append(args, "--setenv", "TMPDIR", "/tmp", "--unsetenv", "SSH_AUTH_SOCK", "--unsetenv", "DBUS_SESSION_BUS_ADDRESS")
	return bwrapPlan{Args: args, Created: created}
}

func parentExists(p string) bool {
	_, ok := exists(filepath.Dir(p))
	return ok
}

func emptyDirectory(p string) bool {
	ents, err := os.ReadDir(p)
	return err == nil && len(ents) == 0
}
