//go:build !linux

package askpass

import (
	"errors"
	"net"
)

// supported says the bridge works on this system: it needs Linux's peer
// credentials and /proc, so elsewhere sudo is left as it is.
const supported = false

var errUnsupported = errors.New("the sudo bridge needs Linux")

func listen() (net.Listener, error) { return nil, errUnsupported }

func peer(net.Conn) (int, error) { return 0, errUnsupported }

func noExec(string) bool { return false }

func sweep(string) {}

func untraceable() error { return errUnsupported }

func dieWithParent() error { return errUnsupported }
