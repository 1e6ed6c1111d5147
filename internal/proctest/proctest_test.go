//go:build unix

package proctest

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func TestLeftoversFindsDaemon(t *testing.T) {
	Mark()
	// a daemonized sleep: its parent shell exits at once, so only the
	// environment mark ties it to this test
	cmd := exec.Command("/bin/sh", "-c", "sleep 30 </dev/null >/dev/null 2>&1 &")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	left := Leftovers()
	if len(left) != 1 {
		t.Fatalf("want the sleep, got %v", left)
	}
	syscall.Kill(left[0].Pid, syscall.SIGKILL)
	deadline := time.Now().Add(5 * time.Second)
	for len(Leftovers()) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("sleep survived SIGKILL")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLeftoversFindsChild(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.Env = []string{} // no mark: found by ancestry
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	left := Leftovers()
	cmd.Process.Kill()
	cmd.Wait()
	if len(left) != 1 || left[0].Pid != cmd.Process.Pid {
		t.Fatalf("want the child, got %v", left)
	}
	if len(Leftovers()) != 0 {
		t.Fatal("reaped child still listed")
	}
}

func TestCheckPasses(t *testing.T) {
	Check(t)
	if err := exec.Command("true").Run(); err != nil {
		t.Fatal(err)
	}
}
