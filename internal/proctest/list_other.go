//go:build !windows

package proctest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// canList reports whether leftovers can be found here (/proc).
func canList() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

func leftovers() []Proc { return procLeftovers() }

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
