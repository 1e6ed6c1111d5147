package sandbox

import "sync"

// previewProbe is the outcome of previewable, checked once per host.
type previewProbe struct {
	probeOnce sync.Once
	probeErr  error
}
