//go:build !linux

package sandbox

import (
	"errors"
	"syscall"
)

var errUnsupported = errors.New("sandbox unavailable: sandboxing needs Linux (bubblewrap or Landlock)")

func enterLandlock(s helperSpec, argv []string) error { return errUnsupported }

func nsProcAttr(*syscall.SysProcAttr) {}

func landlockCheck(network bool) error { return errUnsupported }

// landlockABI is 0: Landlock is Linux's.
func landlockABI() int { return 0 }
