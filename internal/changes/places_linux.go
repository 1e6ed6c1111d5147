package changes

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Choose picks the directories to overlay for the named paths that lie
// outside the trees already overlaid (overlaid): for each, the directory
// holding it (the nearest one that exists, links resolved); for a
// directory the command names, itself when its parent may not be
// overlaid. A directory may not be when it is the root, is or lies in a
// hidden place, holds an overlaid tree, the user cannot write it,
// overlayfs cannot name it, or Refuse says why. The paths left without a
// directory come back in skipped, as "PATH: WHY". Directories inside
// another chosen one are dropped.
func (p Places) Choose(overlaid, hidden []string) (dirs, skipped []string) {
	for _, named := range p.Named {
		if slices.ContainsFunc(overlaid, func(w string) bool { return inOrAt(named, w) }) {
			continue
		}
		if slices.ContainsFunc(hidden, func(h string) bool { return inOrAt(named, h) }) {
			skipped = append(skipped, named+": it is hidden from sandboxed commands")
			continue
		}
		var cands []string
		if fi, err := os.Stat(named); err == nil && fi.IsDir() {
			cands = append(cands, existingDir(filepath.Dir(named)), real(named))
		} else {
			cands = append(cands, existingDir(filepath.Dir(named)))
		}
		why := ""
		for _, d := range cands {
			if slices.ContainsFunc(overlaid, func(w string) bool { return inOrAt(d, w) }) {
				why = ""
				break // a link into an overlaid tree
			}
			if why = p.refuse(d, overlaid, hidden); why == "" {
				dirs = append(dirs, d)
				break
			}
		}
		if why != "" {
			skipped = append(skipped, named+": "+why)
		}
	}
	slices.Sort(dirs)
	var out []string
	for _, d := range slices.Compact(dirs) {
		if len(out) == 0 || !inOrAt(d, out[len(out)-1]) {
			out = append(out, d)
		}
	}
	return out, skipped
}

// refuse says why the directory d may not be overlaid, "" when it may.
func (p Places) refuse(d string, overlaid, hidden []string) string {
	switch {
	case d == "/" || d == "":
		return "the root directory cannot be overlaid"
	case slices.ContainsFunc(hidden, func(h string) bool { return inOrAt(d, h) }):
		return d + " is hidden from sandboxed commands"
	case slices.ContainsFunc(overlaid, func(w string) bool { return inOrAt(w, d) }):
		return d + " holds the workspace"
	case strings.ContainsAny(d, ",:\\"):
		return "overlayfs cannot name " + d + " (a comma, colon or backslash)"
	case unix.Access(d, unix.W_OK) != nil:
		return "you cannot write " + d
	}
	if p.Refuse != nil {
		return p.Refuse(d)
	}
	return ""
}

// existingDir is the nearest directory on the way to p that exists, its
// links resolved.
func existingDir(p string) string {
	for {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return real(p)
		}
		up := filepath.Dir(p)
		if up == p {
			return p
		}
		p = up
	}
}

// real is p with its links resolved (p when that fails).
func real(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// inOrAt reports whether p is dir or lies below it.
func inOrAt(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
