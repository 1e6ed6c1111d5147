//go:build unix

package cli

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// onResize calls redraw whenever the terminal changes size, until the
// returned stop is called.
func onResize(redraw func()) (stop func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-c:
				redraw()
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(c)
			close(done)
		})
	}
}
