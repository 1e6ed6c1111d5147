//go:build !linux

package enter

import "errors"

func enterOverlays([]OverlayMount, []string) error {
	return errors.New("overlays are Linux only")
}
