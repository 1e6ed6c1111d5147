package host

import (
	"sync/atomic"

	"github.com/nb-cli/nb/internal/host/guard"
)

// GuardArg is the hidden first argument that makes nb's binary run as the
// guard (see EnableGuard); package guard runs it before main.
const GuardArg = guard.Arg

var guardEnabled atomic.Bool

// EnableGuard makes the local host start, with its first command or
// terminal, a guard process: a copy of nb's binary that waits for this
// process to end, however it ends (SIGKILL included), and then kills every
// process still carrying this process's run marker (NB_RUN_ID), which
// catches the double-forked, setsid'd and nohup'd descendants that left
// their process group. Where the platform cannot find processes by marker
// the guard is not started. The composition root calls it once.
func EnableGuard() { guardEnabled.Store(true) }
