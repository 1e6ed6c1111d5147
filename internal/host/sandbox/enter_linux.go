//go:build linux

package sandbox

import "fmt"

func enterLandlock(s helperSpec, argv []string) error {
	if !s.Terminal {
		detachTTY()
	}
	if err := applyLandlock(s); err != nil {
		return err
	}
	if err := applySocketFilter(s.Network); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return execve(argv)
}
