package host

import "sync"

// Active holds the host commands currently run on; the user can switch it at
// runtime (/terminal).
type Active struct {
	mu sync.RWMutex
	h  Host
}

// NewActive starts with h.
func NewActive(h Host) *Active { return &Active{h: h} }

// Get returns the active host.
func (a *Active) Get() Host {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.h
}

// Set switches the active host and returns the previous one.
func (a *Active) Set(h Host) Host {
	a.mu.Lock()
	defer a.mu.Unlock()
	old := a.h
	a.h = h
	return old
}
