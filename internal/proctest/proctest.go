// Package proctest checks that a test leaves no process behind.
//
// Check marks the test binary's environment with EnvMarker (its pid), so
// every process it starts inherits the mark unless given an explicit
// environment, and registers a cleanup that looks through /proc for live
// (non-zombie) processes that either descend from the test process or carry
// the mark — the latter catches daemonized children that were re-parented
// away. Leftovers get a short grace period to finish dying, then fail the
// test and are killed so they do not disturb later tests.
//
// Processes of tests running in parallel in the same binary are seen too, so
// use Check in tests that do not run in parallel with process-starting ones.
// On Windows it lists the processes descending from the test process
// (Toolhelp); on other systems without /proc it checks nothing.
package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvMarker is the environment variable carrying the test process id.
const EnvMarker = "NB_PROCTEST_OWNER"

// Grace is how long leftovers may take to disappear after the test.
var Grace = 3 * time.Second

var markOnce sync.Once

// Mark sets EnvMarker in this process's environment (once).
func Mark() {
	markOnce.Do(func() { os.Setenv(EnvMarker, strconv.Itoa(os.Getpid())) })
}

// Check registers a cleanup failing t when a process started during the test
// is still alive after it.
func Check(t testing.TB) {
	t.Helper()
	Mark()
	if !canList() {
		return
	}
	t.Cleanup(func() {
		deadline := time.Now().Add(Grace)
		var left []Proc
		for {
			left = Leftovers()
			if len(left) == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(left) == 0 {
			return
		}
		var desc []string
		for _, p := range left {
			desc = append(desc, p.String())
			if proc, err := os.FindProcess(p.Pid); err == nil {
				proc.Kill()
			}
		}
		t.Errorf("processes outlived the test:\n%s", strings.Join(desc, "\n"))
	})
}

// Proc is a process found by Leftovers.
type Proc struct {
	Pid, PPid, Pgrp int
	State           string
	Cmdline         string
}

func (p Proc) String() string {
	return fmt.Sprintf("pid %d ppid %d pgrp %d state %s: %s", p.Pid, p.PPid, p.Pgrp, p.State, p.Cmdline)
}

// Leftovers lists live processes descending from this one or marked with
// this process's EnvMarker (on Windows: descending from this one).
func Leftovers() []Proc { return leftovers() }
