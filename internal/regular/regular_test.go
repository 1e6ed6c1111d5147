//go:build unix

package regular

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	link := filepath.Join(dir, "link")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{
		fifo: "a FIFO (named pipe)", sock: "a socket", "/dev/zero": "a character device",
		link: "a character device", dir: "a directory",
	} {
		// A FIFO without a writer would block a plain open forever; the
		// test's deadline catches that.
		_, err := ReadFile(path, 1<<20)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), kind) {
			t.Errorf("%s: %v, want ErrNotRegular naming %q", path, err, kind)
		}
	}
}

func TestReadFileBounds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(p, 10); err != nil || string(data) != "0123456789" {
		t.Fatalf("%q %v", data, err)
	}
	if _, err := ReadFile(p, 9); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	// /proc files report size 0; the limit still holds.
	if _, err := ReadFile("/proc/self/maps", 16); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("/proc file over the limit: %v", err)
	}
	if data, err := ReadFile("/proc/self/status", 1<<20); err != nil || !strings.Contains(string(data), "Pid:") {
		t.Fatalf("/proc/self/status: %v", err)
	}
}
