package ssh

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/shwrap"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// Probe implements host.Host: it describes the remote machine.
func (h *Host) Probe(ctx context.Context, detect []string) (*sysinfo.Info, error) {
	script := "set -- "
	for _, t := range detect {
		script += shwrap.Quote(t) + " "
	}
	script += "\n" + shwrap.ProbeScript
	var out, errb bytes.Buffer
	ex, err := h.Run(ctx, &host.Command{Script: script, Dir: ".", Stdout: &out, Stderr: &errb, Timeout: 20 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("probe: %w", err)
	}
	if ex.Code != 0 {
		return nil, fmt.Errorf("probe: exit %d: %s", ex.Code, strings.TrimSpace(errb.String()))
	}
	return shwrap.ParseProbe(out.String(), detect), nil
}
