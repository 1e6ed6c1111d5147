package ssh

import (
	"context"
	"time"

	"github.com/nb-cli/nb/internal/host"
)

// sudoProbe exits 10 when sudo here needs a password (sudo -n -v says so
// without asking), else 0: sudo missing, no password needed, or a refusal
// a password would not change (the run then says why).
const sudoProbe = `command -v sudo >/dev/null 2>&1 || exit 0
out=$(LC_ALL=C sudo -n -v 2>&1) && exit 0
case $out in *"password is required"*) exit 10;; esac
exit 0`

// sudoProbeTimeout bounds the probe once connected.
const sudoProbeTimeout = 30 * time.Second

// SudoNeedsPassword reports whether sudo on the host would ask for a
// password now (its time stamp or NOPASSWD rules aside).
func (h *Host) SudoNeedsPassword(ctx context.Context) (bool, error) {
	ex, err := h.Run(ctx, &host.Command{Script: sudoProbe, Timeout: sudoProbeTimeout})
	if err != nil {
		return false, err
	}
	return ex.Code == 10, nil
}
