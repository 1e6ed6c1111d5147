//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"syscall"
)

var errUnsupported = errors.New("sandbox unavailable: sandboxing needs Linux (bubblewrap or Landlock)")

func enterLandlock(s helperSpec, argv []string) error { return errUnsupported }

func nsProcAttr(*syscall.SysProcAttr) {}

func nsViewProcAttr(bool) func(*syscall.SysProcAttr) { return nsProcAttr }

func userNamespaces() error { return errUnsupported }

func landlockCheck(network bool) error { return errUnsupported }

// landlockABI is 0: Landlock is Linux's.
func landlockABI() int { return 0 }

// errNoFilter says there is no socket filter here.
var errNoFilter = errors.New("no socket filter on this system")

func seccompFile(bool) (*os.File, error) { return nil, errNoFilter }
