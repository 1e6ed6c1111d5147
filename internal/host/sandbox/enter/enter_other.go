//go:build !linux

package enter

import (
	"errors"
	"os"
	"syscall"
)

var errUnsupported = errors.New("sandbox unavailable: sandboxing needs Linux (bubblewrap or Landlock)")

func enterLandlock(s Spec, argv []string) error { return errUnsupported }

func ProcAttr(*syscall.SysProcAttr) {}

func ViewProcAttr(bool) func(*syscall.SysProcAttr) { return ProcAttr }

func UserNamespaces() error { return errUnsupported }

func LandlockCheck(network bool) error { return errUnsupported }

// LandlockABI is 0: Landlock is Linux's.
func LandlockABI() int { return 0 }

// ErrNoFilter says there is no socket filter here.
var ErrNoFilter = errors.New("no socket filter on this system")

func SeccompFile(bool) (*os.File, error) { return nil, ErrNoFilter }
