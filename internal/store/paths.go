// Package store keeps nb's files: the conversation history in the launch
// directory, and in nb's own state directory the per-project grants, saved
// full outputs and the audit log. Writes are atomic (temporary file and
// rename).
package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrNoStateDir is returned by StateDir when neither XDG_STATE_HOME nor
// HOME (nor, on Windows, LOCALAPPDATA) names an absolute directory.
var ErrNoStateDir = errors.New("no state directory: HOME is not set to an absolute path and XDG_STATE_HOME is not absolute")

// StateDir is $XDG_STATE_HOME/nb, or ~/.local/state/nb; on Windows,
// without XDG_STATE_HOME, %LOCALAPPDATA%\nb\state. A relative
// XDG_STATE_HOME is ignored, as the XDG specification says, and without an
// absolute HOME there is no state directory at all (ErrNoStateDir): state
// never lands inside the project, where a cloned repository could plant
// grants.
func StateDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "nb"), nil
	}
	if d := platformStateDir(getenv); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	if home := getenv("HOME"); home != "" && filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "state", "nb"), nil
	}
	return "", ErrNoStateDir
}

// ProjectDir is the state directory for one launch directory. It lives in
// nb's state, never in the project tree, so a cloned repository cannot plant
// grants.
func ProjectDir(state, launchDir string) string {
	sum := sha256.Sum256([]byte(launchDir))
	return filepath.Join(state, "projects", filepath.Base(launchDir)+"-"+hex.EncodeToString(sum[:6]))
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so readers never see a partial file.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return writeAtomic(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomic is WriteFileAtomic of what write writes.
func writeAtomic(path string, perm os.FileMode, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := write(f); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
