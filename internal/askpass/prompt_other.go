//go:build !unix

package askpass

import (
	"context"
	"errors"
)

// terminal is not used where sudo is not bridged.
type terminal struct{}

func openTerminal(int) (*terminal, error) {
	return nil, errors.New("no password prompt on this system")
}

func (*terminal) restore() {}

func (*terminal) read(context.Context, []byte) (int, error) { return 0, ErrNoTerminal }

func (*terminal) more(context.Context) bool { return false }
