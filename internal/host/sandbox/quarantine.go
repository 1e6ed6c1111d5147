package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Entries that run outside the sandbox later (RunLater) and do not exist
// yet cannot be covered by a read-only mount everywhere they might appear:
// a sandboxed command could create a new .envrc, .pre-commit-config.yaml,
// .vscode/tasks.json or a repository (sub/.git with core.fsmonitor). So
// the host lists the RunLater entries of the writable trees before each
// command (at any depth, as Layout.Current does) and, once the command and every process it started have ended,
// moves the ones that appeared into a quarantine directory outside the
// sandbox's reach, and says so in the command's result.

// runLaterEntries lists the RunLater entries present now in the writable
// trees of l, with the same depth rules as Layout.Current. Entries are
// found by Lstat: a symlink planted at a protected name is an entry.
func runLaterEntries(l Layout) map[string]bool {
	out := map[string]bool{}
	for _, w := range l.Writable {
		for _, p := range runLaterBelow(w) {
			out[p] = true
		}
	}
	return out
}

// snapshot is the list of RunLater entries before a command.
func (h *Host) snapshot() map[string]bool { return runLaterEntries(h.layout) }

// sweep moves the RunLater entries that are not in before into the
// quarantine and returns one message per entry for the command's result.
// It must run after every process of the command has ended. Mount points
// the host itself created (an empty .git covering a missing repository)
// are not the command's.
func (h *Host) sweep(before map[string]bool) []string {
	after := runLaterEntries(h.layout)
	var fresh []string
	h.mu.Lock()
	for p := range after {
		if before[p] {
			continue
		}
		if h.created[p] && emptyEntry(p) {
			continue
		}
		fresh = append(fresh, p)
	}
	h.mu.Unlock()
	sort.Strings(fresh)
	var notes []string
	for _, p := range fresh {
		if skipNested(p, fresh) {
			continue // moved with the entry holding it
		}
		rel := h.relName(p)
		kept, err := h.quarantine(p, rel)
		if err != nil {
			notes = append(notes, fmt.Sprintf("nb could not remove %s created inside the sandbox (it would run outside it): %v; remove it before using the workspace outside the sandbox", rel, err))
			continue
		}
		notes = append(notes, fmt.Sprintf("nb removed %s created inside the sandbox (it would run outside it); kept at %s", rel, kept))
	}
	return notes
}

// skipNested reports whether p lies below another entry of ps.
func skipNested(p string, ps []string) bool {
	for _, q := range ps {
		if q != p && within(p, q) {
			return true
		}
	}
	return false
}

// relName names p relative to the writable tree holding it.
func (h *Host) relName(p string) string {
	for _, w := range h.layout.Writable {
		if within(p, w) && p != w {
			if r, err := filepath.Rel(w, p); err == nil {
				if len(h.layout.Writable) > 1 {
					return p
				}
				return r
			}
		}
	}
	return p
}

// quarantineDir returns the directory entries are moved to, created on
// first use.
func (h *Host) quarantineDir() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.qdir != "" {
		return h.qdir, nil
	}
	parent := h.qparent
	if parent == "" {
		parent = filepath.Join(os.TempDir(), "nb-quarantine-"+strconv.Itoa(os.Getuid()))
	}
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return "", err
	}
	if fi, err := os.Lstat(parent); err != nil || !fi.IsDir() || !ownedByMe(fi) {
		return "", fmt.Errorf("quarantine %s: not a directory of this user", parent)
	}
	d, err := os.MkdirTemp(parent, time.Now().UTC().Format("20060102-150405-"))
	if err != nil {
		return "", err
	}
	h.qdir = d
	return d, nil
}

// quarantine moves p (never following a symlink at p: rename moves the
// link itself) to the quarantine directory under rel, and returns where it
// went. Across file systems it copies, links as links, then removes.
func (h *Host) quarantine(p, rel string) (string, error) {
	dir, err := h.quarantineDir()
	if err != nil {
		return "", err
	}
	dest := filepath.Join(dir, strings.TrimPrefix(filepath.Clean("/"+rel), "/"))
	for i := 1; ; i++ {
		if _, ok := exists(dest); !ok {
			break
		}
		dest = filepath.Join(dir, strings.TrimPrefix(filepath.Clean("/"+rel), "/")) + "." + strconv.Itoa(i)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
		return "", err
	}
	err = os.Rename(p, dest)
	if err == nil {
		return dest, nil
	}
	if !errors.Is(err, syscall.EXDEV) {
		return "", err
	}
	if err := copyTree(p, dest); err != nil {
		return "", err
	}
	if err := removeTree(p); err != nil {
		return "", err
	}
	return dest, nil
}

// copyTree copies src to dest without following any symlink.
func copyTree(src, dest string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dest, r)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, to)
		case d.IsDir():
			return os.MkdirAll(to, 0o700)
		case d.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil // devices, fifos, sockets: dropped with the entry
	})
}

func copyFile(src, dest string) error {
	in, err := os.Open(src) // a regular file (WalkDir uses Lstat); the command has ended
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// removeTree removes p (RemoveAll does not follow symlinks), making
// directories writable first where the command left them read-only.
func removeTree(p string) error {
	if err := os.RemoveAll(p); err == nil {
		return nil
	}
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(q, 0o700)
		}
		return nil
	})
	return os.RemoveAll(p)
}
