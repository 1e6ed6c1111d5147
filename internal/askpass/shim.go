package askpass

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// programs are the real privilege programs on the commands' PATH ("" for
// those missing).
type programs struct {
	sudo, sudoedit, su, doas string
}

func findPrograms(path string) programs {
	return programs{sudo: lookPath("sudo", path), sudoedit: lookPath("sudoedit", path), su: lookPath("su", path), doas: lookPath("doas", path)}
}

// lookPath finds an executable name in the directories of path.
func lookPath(name, path string) string {
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue // a relative entry names a different file in every directory
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// The shims' file names.
const askpassShim = "nb-askpass"

func shimPath(dir, name string) string { return filepath.Join(dir, name) }

// quote makes s one word for a POSIX shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// The messages of the su and doas shims: neither can be given a password
// by nb, and without a terminal they fail with a bare "Authentication
// failure" or "a tty is required".
const (
	suNote   = "nb: su reads its password from a terminal, and commands nb runs have none: it fails unless it needs no password. Use sudo, whose password nb asks the user for, or run su in a terminal yourself."
	doasNote = "nb: doas cannot ask for a password here (commands nb runs have no terminal): it runs only what needs no password. Use sudo, whose password nb asks the user for, or run doas in a terminal yourself."
)

// shimScripts are the scripts of the private directory, by name; addr is
// the bridge's address.
func shimScripts(self, addr string, p programs) map[string]string {
	s := map[string]string{}
	if p.sudo != "" {
		// -A: sudo asks SUDO_ASKPASS, that is nb, for the password.
		s["sudo"] = "#!/bin/sh\nexec " + quote(p.sudo) + " -A \"$@\"\n"
		s[askpassShim] = "#!/bin/sh\nexec " + quote(self) + " " + HelperArg + " " + quote(addr) + " \"$@\"\n"
		if p.sudoedit != "" {
			s["sudoedit"] = "#!/bin/sh\nexec " + quote(p.sudoedit) + " -A \"$@\"\n"
		}
	}
	if p.su != "" {
		s["su"] = "#!/bin/sh\nif [ \"$(id -u)\" != 0 ]; then echo " + quote(suNote) + " >&2; fi\nexec " + quote(p.su) + " \"$@\"\n"
	}
	if p.doas != "" {
		s["doas"] = "#!/bin/sh\nif [ \"$(id -u)\" != 0 ]; then echo " + quote(doasNote) + " >&2; fi\nexec " + quote(p.doas) + " -n \"$@\"\n"
	}
	return s
}

// writeShims writes the scripts into dir.
func writeShims(dir, self, addr string, p programs) error {
	for name, text := range shimScripts(self, addr, p) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o700); err != nil {
			return err
		}
	}
	return nil
}

// dirPrefix starts the name of a private directory; nb's process id
// follows, so that the directories of an nb that was killed are found.
const dirPrefix = "nb-sudo-"

// privateDir makes a directory only this user can enter below the first
// of parents whose file system runs programs (not mounted noexec), and
// removes there those of nb processes that are gone.
func privateDir(parents []string) (string, error) {
	var errs []error
	for _, p := range parents {
		if p == "" {
			continue
		}
		if noExec(p) {
			errs = append(errs, fmt.Errorf("%s is mounted noexec", p))
			continue
		}
		if err := os.MkdirAll(p, 0o700); err != nil {
			errs = append(errs, err)
			continue
		}
		sweep(p)
		d, err := os.MkdirTemp(p, fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		return d, nil
	}
	return "", fmt.Errorf("no directory for the sudo helper: %w", errors.Join(errs...))
}
