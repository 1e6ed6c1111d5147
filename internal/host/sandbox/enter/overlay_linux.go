package enter

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// enterOverlays makes the mounts of this (new) mount namespace private,
// mounts each overlay (userxattr: an unprivileged overlay keeps its
// whiteouts and opaque marks in user.* attributes) and executes argv:
// bubblewrap, which needs the namespace's capabilities to build its own
// nested sandbox and drops every one before the command runs (they count
// only inside these namespaces anyway).
func enterOverlays(ms []OverlayMount, argv []string) error {
	lockThread()
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := mountOverlays(ms); err != nil {
		return err
	}
	return execve(argv)
}

// mountOverlays mounts each overlay in this mount namespace.
func mountOverlays(ms []OverlayMount) error {
	for _, m := range ms {
		opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s,userxattr", m.Lower, m.Upper, m.Work)
		if err := unix.Mount("overlay", m.Target, "overlay", 0, opts); err != nil {
			return fmt.Errorf("mount an overlay on %s: %w", m.Target, err)
		}
	}
	return nil
}
