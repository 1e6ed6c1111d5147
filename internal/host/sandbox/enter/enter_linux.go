//go:build linux

package enter

import (
	"fmt"
	"os"
	"slices"
)

func enterLandlock(s Spec, argv []string) error {
	if s.NS != nil {
		return enterNamespaces(s, argv)
	}
	lockThread()
	if !s.Terminal {
		detachTTY()
	}
	if !s.Inner {
		return supervise(s, argv)
	}
	if s.Mounts && s.PrivateTmp {
		if err := privateTmp(append(slices.Clone(s.Keep), s.Scratch...)); err != nil {
			return fmt.Errorf("private /tmp: %w", err)
		}
	}
	if s.Mounts && s.PIDs {
		if err := mountProc(); err != nil {
			return fmt.Errorf("own /proc: %w", err)
		}
	}
	if s.Mounts {
		if err := isolateSystem(s.Network); err != nil {
			return err
		}
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
	if err := applySocketFilter(s.Network, len(s.Writable) == 0); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	if err := dropCaps(); err != nil {
		return err
	}
	return execve(argv)
}
