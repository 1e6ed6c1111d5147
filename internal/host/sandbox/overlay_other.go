//go:build !linux

package sandbox

import "errors"

func enterOverlays([]overlayMount, []string) error {
	return errors.New("overlays are Linux only")
}
