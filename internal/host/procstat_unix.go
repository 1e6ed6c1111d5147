//go:build unix

package host

import (
	"bytes"
	"os"
	"strconv"
)

// statFields reads /proc/PID/stat and returns its fields after the command
// name, which is in parentheses and may contain anything: state, ppid,
// pgrp, session, … (proc(5) fields 3 onwards, so index 0 is the state).
// ok is false when there is no such process or the file cannot be read.
func statFields(pid string) (fields [][]byte, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil, false
	}
	return bytes.Fields(data[i+1:]), true
}

// zombie reports whether a state field is a zombie's or a dead process's.
func zombie(state []byte) bool {
	return len(state) == 1 && (state[0] == 'Z' || state[0] == 'X')
}

// pids lists the numeric entries of /proc; ok is false when /proc cannot be
// read.
func pids() (out []string, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, e.Name())
		}
	}
	return out, true
}
