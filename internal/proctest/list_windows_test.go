package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// A child and its own child are found; once killed, neither is.
func TestWinLeftoversFindsDescendants(t *testing.T) {
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(sys, "cmd.exe"), "/c", "ping -n 30 127.0.0.1 >nul")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var left []Proc
	t.Cleanup(func() {
		for _, p := range left {
			if proc, err := os.FindProcess(p.Pid); err == nil {
				proc.Kill()
			}
		}
	})
	found := func() bool {
		names := map[string]bool{}
		for _, p := range left {
			names[strings.ToLower(p.Cmdline)] = true
		}
		return names["cmd.exe"] && names["ping.exe"]
	}
	// a process's name shows in the snapshot a moment after it starts
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if left = Leftovers(); found() {
			break
		}
	}
	if !found() {
		t.Fatalf("want cmd.exe and ping.exe, got %v", left)
	}
	for _, p := range left {
		if p.Cmdline != "cmd.exe" {
			if proc, err := os.FindProcess(p.Pid); err == nil {
				proc.Kill()
			}
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); len(Leftovers()) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still listed after kill: %v", Leftovers())
		}
	}
}
