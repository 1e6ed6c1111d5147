package host

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/proctest"
)

// TestReapRecordsOfDeadNB: a record left by an nb that is gone (killed with
// its guard) gets that nb's marked processes killed at the next start; a
// live nb's record and processes are left alone.
func TestReapRecordsOfDeadNB(t *testing.T) {
	proctest.Check(t)
	dir := t.TempDir()
	// A pid that no longer runs: a process that has exited.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	orphan := exec.Command("sleep", "300")
	orphan.Env = append(os.Environ(), RunIDEnv+"="+dead+".1.1")
	if err := orphan.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = orphan.Wait(); close(waited) }()
	self, ok := startTime(os.Getpid())
	if !ok {
		t.Fatal("no start time for this process")
	}
	for _, name := range []string{dead + "-12345", strconv.Itoa(os.Getpid()) + "-" + self} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	reapRecords(dir)
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		_ = orphan.Process.Kill()
		t.Fatal("the dead nb's marked process was not killed")
	}
	if _, err := os.Stat(filepath.Join(dir, dead+"-12345")); !os.IsNotExist(err) {
		t.Errorf("the dead nb's record was kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, strconv.Itoa(os.Getpid())+"-"+self)); err != nil {
		t.Errorf("the live nb's record was removed: %v", err)
	}
}

// TestGuardDoesNotHoldTheLaunchDirectory: the guard, which outlives nb a
// little, runs at the root, not in the directory nb was started in.
func TestGuardDoesNotHoldTheLaunchDirectory(t *testing.T) {
	proctest.Check(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := guardCmd([]string{"sleep", "30"}, r)
	cmd.Path = "/bin/sleep"
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); w.Close() }()
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cwd")
	if err != nil {
		t.Fatal(err)
	}
	if cwd != "/" {
		t.Errorf("the guard's working directory is %s, want /", cwd)
	}
}
