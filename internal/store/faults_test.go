//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
)

// TestHistoryLockFollowsRealPath: an nb entering the project through a
// symlink, or with another HOME (state directory), meets the first one's
// lock instead of running beside it.
func TestHistoryLockFollowsRealPath(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	link := filepath.Join(t.TempDir(), "via-link")
	if err := os.Symlink(launch, link); err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() (*History, error){
		"symlinked directory": func() (*History, error) { return OpenHistory(link, state, fixedNow) },
		"another HOME":        func() (*History, error) { return OpenHistory(launch, t.TempDir(), fixedNow) },
		"both":                func() (*History, error) { return OpenHistory(link, t.TempDir(), fixedNow) },
	} {
		h2, err := open()
		if !errors.Is(err, ErrLocked) {
			if h2 != nil {
				h2.Close()
			}
			t.Errorf("%s: open = %v, want ErrLocked", name, err)
		}
	}
	// The holder's pid is named when the state directory is the same.
	if _, err := OpenHistory(launch, state, fixedNow); err == nil || !strings.Contains(err.Error(), "(pid ") {
		t.Errorf("error %v does not name the holder", err)
	}
	h.Close()
	h3, err := OpenHistory(link, t.TempDir(), fixedNow)
	if err != nil {
		t.Fatalf("after close: %v", err)
	}
	h3.Close()
}

// TestSymlinkedHistoryStaysSymlink: saving through a symlinked history
// file replaces the file it points to and keeps the link.
func TestSymlinkedHistoryStaysSymlink(t *testing.T) {
	launch, state, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "conv.json")
	if err := os.Symlink(target, filepath.Join(launch, HistoryFile)); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Save([]llm.Message{{Role: llm.RoleUser, Text: "kept"}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(filepath.Join(launch, HistoryFile))
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("history is no longer a symlink: %v %v", fi, err)
	}
	data, err := os.ReadFile(target)
	if err != nil || !strings.Contains(string(data), "kept") {
		t.Fatalf("target %q, %v", data, err)
	}
	if entries, _ := os.ReadDir(launch); len(entries) != 1 {
		t.Errorf("launch dir has %d entries", len(entries))
	}
}

// TestCorruptHistoriesKeepEveryBackup: two corrupt histories moved aside
// within one second both survive.
func TestCorruptHistoriesKeepEveryBackup(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	path := filepath.Join(launch, HistoryFile)
	for _, content := range []string{"first {", "second {"} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		h, err := OpenHistory(launch, state, fixedNow)
		if err != nil {
			t.Fatal(err)
		}
		if _, warn, err := h.Load(); err != nil || warn == "" {
			t.Fatalf("load: %q %v", warn, err)
		}
		h.Close()
	}
	matches, _ := filepath.Glob(path + ".bad-*")
	var got []string
	for _, m := range matches {
		data, _ := os.ReadFile(m)
		got = append(got, string(data))
	}
	if len(got) != 2 || !strings.Contains(strings.Join(got, "|"), "first {") || !strings.Contains(strings.Join(got, "|"), "second {") {
		t.Fatalf("backups %v hold %q", matches, got)
	}
}

// TestHistoryWrongFieldType: a well-formed file with a wrong field type is
// reported as such, not as invalid JSON.
func TestHistoryWrongFieldType(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	doc := `{"format": "nb-conversation", "version": 1, "messages": [{"role": "user", "text": 42}]}`
	if err := os.WriteFile(filepath.Join(launch, HistoryFile), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	_, warn, err := h.Load()
	if err != nil || !strings.Contains(warn, "has a number where a string belongs (at messages.text)") {
		t.Fatalf("warning %q, %v", warn, err)
	}
}

// TestStaleTempsRemoved: temporary files of a save killed part-way are
// removed when the history is next opened; other files are not.
func TestStaleTempsRemoved(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	stale := filepath.Join(launch, "."+HistoryFile+".tmp123456")
	other := filepath.Join(launch, "notes.tmp")
	for _, p := range []string{stale, other} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temp file kept: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("unrelated file removed: %v", err)
	}
}

// TestFailedSaveSaysSo: a save that cannot be written (here: to a place
// not even root can create) is an error that says the conversation was not
// saved.
func TestFailedSaveSaysSo(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := os.Symlink("/proc/self/nonexistent/history.json", filepath.Join(launch, HistoryFile)); err != nil {
		t.Fatal(err)
	}
	err = h.Save([]llm.Message{{Role: llm.RoleUser, Text: "x"}})
	if err == nil || !strings.HasPrefix(err.Error(), "the conversation was not saved: ") {
		t.Fatalf("save = %v", err)
	}
}

// TestSaveRefusedSaysWhatToDo: a launch directory that refuses the save
// (here one nb may not write, or, run by root, the kernel's sysfs) gets an
// error saying where the conversation can go instead.
func TestSaveRefusedSaysWhatToDo(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if os.Geteuid() == 0 {
		if err := os.Symlink("/sys/nb-no-such-dir/history.json", filepath.Join(launch, HistoryFile)); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := os.Chmod(launch, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(launch, 0o755)
	}
	err = h.Save([]llm.Message{{Role: llm.RoleUser, Text: "x"}})
	if err == nil {
		t.Fatal("the save was not refused")
	}
	if !errors.Is(err, os.ErrPermission) {
		t.Skipf("this system refuses it otherwise: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "the conversation was not saved: ") || !strings.Contains(err.Error(), "start nb in a directory you can write") || !strings.Contains(err.Error(), "--history FILE") || !strings.Contains(err.Error(), "--no-history") {
		t.Errorf("save = %v", err)
	}
}

// TestNotSavedSaysWhatToDo: the advice comes with a refusal or a read-only
// file system, not with other failures, and not for a conversation kept in
// the state directory, which the launch directory does not hold.
func TestNotSavedSaysWhatToDo(t *testing.T) {
	for _, c := range []struct {
		err    error
		apart  bool
		advice bool
	}{
		{&os.PathError{Op: "open", Path: "/etc/x", Err: syscall.EACCES}, false, true},
		{&os.PathError{Op: "open", Path: "/mnt/x", Err: syscall.EROFS}, false, true},
		{&os.PathError{Op: "open", Path: "/etc/x", Err: syscall.EACCES}, true, false},
		{&os.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}, false, false},
	} {
		got := notSaved(c.err, c.apart).Error()
		if strings.Contains(got, "--history FILE") != c.advice || !strings.HasPrefix(got, "the conversation was not saved: ") {
			t.Errorf("notSaved(%v, apart %v) = %q; advice wanted: %v", c.err, c.apart, got, c.advice)
		}
	}
}
