//go:build linux

package fsfacts_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
)

// Resolve agrees with the kernel: for paths through relative, absolute,
// chained, dangling and looping links, "..", "." and files used as
// directories, the file Resolve says a path leads to is the one the
// kernel opens (read back from /proc/self/fd), and a path the kernel
// cannot open is never resolved to an existing file.
func TestResolveAgreesWithTheKernel(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"a/c", "b/d"} {
		must(os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	must(os.WriteFile(filepath.Join(root, "f"), nil, 0o644))
	must(os.WriteFile(filepath.Join(root, "b/d/secret"), nil, 0o644))
	for link, target := range map[string]string{
		"a/la": "../b", "a/abs": filepath.Join(root, "b"), "b/lb": "../a/la", "loop": "loop", "lf": "f",
		"dangling": "nope", "a/c/up": "../..", "b/d/ls": "secret", "b/self": ".",
	} {
		must(os.Symlink(target, filepath.Join(root, link)))
	}
	names := []string{"a", "b", "c", "d", "f", "la", "abs", "lb", "loop", "lf", "dangling", "up", "ls", "self", "secret", "..", ".", "nope"}
	rng := rand.New(rand.NewPCG(3, 4))
	facts := fsfacts.Disk{}
	checked := 0
	for range 20000 {
		parts := []string{root}
		for range 1 + rng.IntN(5) {
			parts = append(parts, names[rng.IntN(len(names))])
		}
		p := strings.Join(parts, "/")
		got, st := facts.Resolve(p)
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			if st == policy.PathExists {
				t.Errorf("%s: the kernel cannot open it (%v), Resolve says it is %s", p, err, got)
			}
			if errors.Is(err, syscall.ELOOP) && st != policy.PathUnknown {
				t.Errorf("%s: a link loop, Resolve says %v %s", p, st, got)
			}
			continue
		}
		real, rerr := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
		syscall.Close(fd)
		if rerr != nil {
			t.Fatal(rerr)
		}
		checked++
		if st != policy.PathExists || got != real {
			t.Errorf("%s: the kernel opens %s, Resolve says %v %q", p, real, st, got)
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d paths could be opened: the fixture tests little", checked)
	}
}
