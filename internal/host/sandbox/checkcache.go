package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/host/sandbox/enter"
)

// checkCache remembers, in a file of nb's state directory, that a
// mechanism worked on this machine, so that an nb process need not start
// it once before its first command (as the read-only sandbox's first
// command in every `nb tool` or single-shot run would). A line holds what
// was checked, a key naming everything the answer depends on (the
// program's path, size and time, the kernel, the user) and the answer.
// A key that changed is checked again; a run that finds the mechanism
// broken forgets it (Host.Run).
type checkCache struct{ path string }

// programKey is the key of a check of program prog.
func programKey(prog string) string {
	fi, err := os.Stat(prog)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s|%d|%d|%s|%d", prog, fi.Size(), fi.ModTime().UnixNano(), enter.KernelRelease(), os.Getuid())
}

// get returns the answer kept for kind and key.
func (c checkCache) get(kind, key string) (string, bool) {
	if c.path == "" || key == "" {
		return "", false
	}
	f, err := os.Open(c.path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, rest, _ := strings.Cut(sc.Text(), "\t")
		gotKey, val, _ := strings.Cut(rest, "\t")
		if k == kind && gotKey == key {
			return val, true
		}
	}
	return "", false
}

// put keeps answer for kind and key (replacing what kind held); an empty
// key forgets kind.
func (c checkCache) put(kind, key, answer string) {
	if c.path == "" {
		return
	}
	var lines []string
	if b, err := os.ReadFile(c.path); err == nil {
		for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			if k, _, _ := strings.Cut(l, "\t"); k != kind && l != "" {
				lines = append(lines, l)
			}
		}
	}
	if key != "" {
		lines = append(lines, kind+"\t"+key+"\t"+strings.ReplaceAll(answer, "\n", " "))
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".sandbox-checks-")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(strings.Join(lines, "\n") + "\n")
	if cerr := tmp.Close(); err == nil && cerr == nil {
		err = os.Rename(tmp.Name(), c.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
