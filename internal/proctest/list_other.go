//go:build !windows

package proctest

import "os"

// canList reports whether leftovers can be found here (/proc).
func canList() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

func leftovers() []Proc { return procLeftovers() }
