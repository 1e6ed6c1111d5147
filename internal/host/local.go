package host

import (
	"context"
	"errors"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// Local runs commands on this machine with no isolation.
type Local struct {
	// Shell is the shell binary; "" means auto (bash when present, else /bin/sh).
	Shell string
	// Wrap, when set, rewrites the argv of every process before it starts
	// (the sandbox host prefixes bubblewrap this way).
	Wrap func(argv []string) ([]string, error)
	// Env is the base environment (os.Environ() when nil).
	Env []string
}

// Name implements Host.
func (l *Local) Name() string { return "local" }

// Isolation implements Host.
func (l *Local) Isolation() Isolation { return IsolationNone }

// Close implements Host.
func (l *Local) Close() error { return nil }

var errNotImplemented = errors.New("not implemented")

// Probe implements Host.
func (l *Local) Probe(ctx context.Context, detect []string) (*sysinfo.Info, error) {
	return nil, errNotImplemented
}
