package host

import (
	"context"
	"errors"
)

// StartPTY implements Host.
func (l *Local) StartPTY(ctx context.Context, c *PTYCommand) (Terminal, error) {
	return nil, errors.New("start pty: terminal sessions are not available on Windows yet")
}
