//go:build !windows

package fsfacts

import (
	"errors"
	"syscall"
)

// isNotDir reports ENOTDIR: a name below a file, which no open finds.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
