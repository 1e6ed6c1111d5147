package llm

import "time"

// Timeouts bound a provider request. Zero fields take the defaults.
type Timeouts struct {
	// Connect bounds establishing the connection (TCP and TLS).
	Connect time.Duration
	// FirstByte bounds the wait from sending a request to the start of
	// the answer.
	FirstByte time.Duration
	// Idle bounds the wait between two pieces of a streamed answer.
	Idle time.Duration
}

// Default timeouts, generous enough for a local model on a slow machine
// that reads a long conversation before its first word.
const (
	DefaultConnectTimeout   = 30 * time.Second
	DefaultFirstByteTimeout = 5 * time.Minute
	DefaultIdleTimeout      = 2 * time.Minute
)

// WithDefaults returns t with zero fields set to the defaults.
func (t Timeouts) WithDefaults() Timeouts {
	if t.Connect <= 0 {
		t.Connect = DefaultConnectTimeout
	}
	if t.FirstByte <= 0 {
		t.FirstByte = DefaultFirstByteTimeout
	}
	if t.Idle <= 0 {
		t.Idle = DefaultIdleTimeout
	}
	return t
}
