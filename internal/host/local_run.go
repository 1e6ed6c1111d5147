package host

import "context"

// Run implements Host.
func (l *Local) Run(ctx context.Context, c *Command) (*Exit, error) {
	return nil, errNotImplemented
}
