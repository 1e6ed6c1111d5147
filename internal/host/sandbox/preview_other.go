//go:build !linux

package sandbox

import (
	"context"
	"fmt"
	"runtime"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/host"
)

// Preview is Linux only.
func (h *Host) Preview(context.Context, *host.Command, changes.Places) (*changes.Overlay, *host.Exit, error) {
	h.probeOnce.Do(func() { h.probeErr = fmt.Errorf("%w on %s", changes.ErrNoPreview, runtime.GOOS) })
	return nil, nil, h.probeErr
}
