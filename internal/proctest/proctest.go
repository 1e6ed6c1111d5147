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
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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

// procLeftovers is Leftovers from /proc.
func procLeftovers() []Proc {
	self := os.Getpid()
	mark := []byte(EnvMarker + "=" + strconv.Itoa(self) + "\x00")
	inner := append([]byte{0}, mark...)
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	procs := map[int]Proc{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		if p, ok := readStat(pid); ok {
			procs[pid] = p
		}
	}
	var out []Proc
	for pid, p := range procs {
		if p.State == "Z" || p.State == "X" {
			continue
		}
		owned := false
		for q, hops := p.PPid, 0; q > 1 && hops < 64; hops++ {
			if q == self {
				owned = true
				break
			}
			pp, ok := procs[q]
			if !ok {
				break
			}
			q = pp.PPid
		}
		if !owned {
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			owned = err == nil && (bytes.HasPrefix(env, mark) || bytes.Contains(env, inner))
		}
		if owned {
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			p.Cmdline = strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
			out = append(out, p)
		}
	}
	return out
}

func readStat(pid int) (Proc, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return Proc{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return Proc{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 3 {
		return Proc{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgrp, _ := strconv.Atoi(f[2])
	return Proc{Pid: pid, PPid: ppid, Pgrp: pgrp, State: f[0]}, true
}
