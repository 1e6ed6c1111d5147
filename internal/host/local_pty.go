package host

import "context"

// StartPTY implements Host.
func (l *Local) StartPTY(ctx context.Context, c *PTYCommand) (Terminal, error) {
	return nil, errNotImplemented
}
