//go:build linux

package sandbox

import (
	"fmt"
	"os"
)

func enterLandlock(s helperSpec, argv []string) error {
	lockThread()
	if !s.Terminal {
		detachTTY()
	}
	if !s.Inner {
		return supervise(s, argv)
	}
	if s.Mounts {
		if err := protectMounts(s.ReadOnly); err != nil {
			// Landlock alone still protects them, at the price of the
			// workspace's top level.
			s.Mounts = false
			fmt.Fprintf(os.Stderr, "nb: sandbox: %v: new entries cannot be created at the top of the workspace for this command\n", err)
		}
	}
	if err := applyLandlock(s); err != nil {
		return err
	}
	if err := applySocketFilter(s.Network); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	if err := dropCaps(); err != nil {
		return err
	}
	return execve(argv)
}
