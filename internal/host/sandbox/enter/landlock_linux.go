//go:build linux

package enter

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

const (
	rightsFile = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile |
		ll.AccessFSTruncate | ll.AccessFSIoctlDev
	rightsRead  = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	rightsWrite = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile |
		ll.AccessFSReadDir | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg |
		ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeBlock |
		ll.AccessFSMakeSym | ll.AccessFSRefer | ll.AccessFSTruncate
	rightsDev = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSReadDir | ll.AccessFSTruncate
)

// LandlockABI returns the kernel's Landlock ABI version (0 when absent).
func LandlockABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// LandlockCheck reports why Landlock cannot enforce the spec, or nil.
func LandlockCheck(network bool) error {
	abi := LandlockABI()
	switch {
	case abi < 1:
		return errors.New("landlock is not enabled in this kernel")
	case !network && abi < 4:
		return fmt.Errorf("landlock ABI %d cannot turn the network off (needs 4); set allowNetwork or install bubblewrap", abi)
	}
	return nil
}

// configFor picks the Landlock configuration of the running kernel's ABI,
// never a silent downgrade to no restriction.
func configFor(abi int, network bool) landlock.Config {
	cfgs := []landlock.Config{landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7}
	if abi > len(cfgs) {
		abi = len(cfgs)
	}
	c := cfgs[abi-1]
	if network {
		c.HandledAccessNet = 0
	} else {
		c.HandledAccessNet &= ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	return c
}

// rule is one path-beneath grant.
type rule struct {
	path   string
	rights uint64
}

// grant adds rules giving rights on root except on the excluded paths,
// which receive nothing from this grant. A directory that contains an
// excluded path gets only partial (its listing when partial allows it) and
// its entries are granted one by one. Symlinks are never followed: access
// through them is governed by their targets' own rules.
func grant(root string, rights, partial uint64, excl []string, out []rule) []rule {
	fi, err := os.Lstat(root)
	if err != nil {
		return out
	}
	below := false
	for _, e := range excl {
		if e == root {
			return out
		}
		if within(e, root) {
			below = true
		}
	}
	if !fi.IsDir() {
		if fi.Mode()&os.ModeSymlink != 0 {
			return out
		}
		if r := rights & rightsFile; r != 0 {
			out = append(out, rule{root, r})
		}
		return out
	}
	if !below {
		return append(out, rule{root, rights})
	}
	if partial != 0 {
		out = append(out, rule{root, partial})
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		out = grant(filepath.Join(root, e.Name()), rights, partial, excl, out)
	}
	return out
}

// devFiles are the devices of /dev a command may read and write: the
// rest of /dev (disks, loop devices, the console, the kernel's log,
// another program's shared memory in /dev/shm) gets no right.
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// landlockRules computes the grants for a layout: all of / readable except
// the hidden paths, /dev (but for the names in it and devFiles) and, but
// in the helper's own namespaces, /run, where the system keeps its
// sockets and credentials and which the helper replaces with an empty
// directory there; the writable trees writable except the protected
// paths; the scratch directories, and tmp and /dev/shm where private,
// writable.
func landlockRules(s Spec) []rule {
	var out []rule
	excl := append([]string{"/dev"}, s.Hidden...)
	if !s.Mounts {
		excl = append(excl, "/run")
	}
	out = grant("/", rightsRead, ll.AccessFSReadDir|ll.AccessFSExecute, excl, out)
	out = append(out, rule{"/dev", ll.AccessFSReadDir})
	for _, p := range devFiles {
		if _, err := os.Stat(p); err == nil {
			out = append(out, rule{p, rightsDev &^ ll.AccessFSReadDir})
		}
	}
	if s.Mounts {
		out = append(out, rule{"/dev/shm", rightsWrite})
	}
	for _, v := range s.Visible {
		out = grant(v, rightsRead, ll.AccessFSReadDir|ll.AccessFSExecute, s.Hidden, out)
	}
	writeExcl := append([]string{}, s.Hidden...)
	if !s.Mounts {
		// Without read-only mounts Landlock alone protects them: the
		// directories holding them take no new entries.
		writeExcl = append(writeExcl, s.ReadOnly...)
	}
	for _, w := range s.Writable {
		out = grant(w, rightsWrite, 0, writeExcl, out)
	}
	for _, w := range s.Scratch {
		out = append(out, rule{w, rightsWrite})
	}
	if s.PrivateTmp && len(s.Keep) == 0 {
		// The private /tmp holds nothing of the host's: writable. (A
		// right on /tmp would reach what is bound below it.)
		out = append(out, rule{"/tmp", rightsWrite})
	}
	if s.Terminal {
		for _, p := range []string{"/dev/tty", "/dev/pts", "/dev/ptmx"} {
			if fi, err := os.Stat(p); err == nil {
				r := uint64(rightsDev | ll.AccessFSIoctlDev)
				if !fi.IsDir() {
					r &= rightsFile
				}
				out = append(out, rule{p, r})
			}
		}
	}
	return out
}

// applyLandlock restricts this process (and what it executes) to s.
func applyLandlock(s Spec) error {
	if err := LandlockCheck(s.Network); err != nil {
		return err
	}
	abi := LandlockABI()
	cfg := configFor(abi, s.Network)
	handled := uint64(cfg.HandledAccessFS)
	var rules []landlock.Rule
	for _, r := range landlockRules(s) {
		a := r.rights & handled
		if a == 0 {
			continue
		}
		// An entry gone since it was listed (a busy /tmp) gets no grant,
		// which denies it: nothing to fail for.
		rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(a), r.path).IgnoreIfMissing())
	}
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// detachTTY drops nb's controlling terminal, so a sandboxed command cannot
// inject keystrokes into it.
func detachTTY() {
	fd, err := unix.Open("/dev/tty", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	_ = unix.IoctlSetInt(fd, unix.TIOCNOTTY, 0)
	_ = unix.Close(fd)
}

// execve replaces the process with argv.
func execve(argv []string) error {
	path := argv[0]
	if filepath.Base(path) == path {
		p, err := exec.LookPath(path)
		if err != nil {
			return err
		}
		path = p
	}
	return unix.Exec(path, argv, os.Environ())
}
