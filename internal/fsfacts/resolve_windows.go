package fsfacts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nb-cli/nb/internal/policy"
)

// Resolve implements policy.Facts with the system's own resolution.
func (Disk) Resolve(p string) (string, policy.PathState) {
	t, err := filepath.EvalSymlinks(filepath.FromSlash(p))
	switch {
	case err == nil:
		return filepath.ToSlash(t), policy.PathExists
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Lstat(filepath.Dir(filepath.FromSlash(p))); err == nil {
			if d, err := filepath.EvalSymlinks(filepath.Dir(filepath.FromSlash(p))); err == nil {
				return filepath.ToSlash(filepath.Join(d, filepath.Base(p))), policy.PathMissing
			}
		}
		return filepath.ToSlash(p), policy.PathMissing
	}
	return "", policy.PathUnknown
}
