// Package wintest helps tests of Windows builds, which also run under Wine
// (scripts/wine-setup.sh): a temporary directory Wine can remove, and
// telling Wine from Windows for the few things Wine lacks.
package wintest

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TempDir is t.TempDir, removed file by file at the end of the test. Go's
// os.RemoveAll deletes with FileDispositionInformationEx, which Wine 8 does
// not implement, so t.TempDir's own cleanup fails there.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "nbtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := RemoveAll(dir); err != nil {
			t.Errorf("remove temp dir: %v", err)
		}
	})
	return dir
}

// RemoveAll removes path and everything below it with os.Remove, deepest
// first.
func RemoveAll(path string) error {
	var paths []string
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	for _, p := range paths {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return nil
}
