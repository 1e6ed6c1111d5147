package lineedit

import (
	"time"

	"golang.org/x/sys/windows"
)

// readable reports whether the console input fd has input within d.
func readable(fd int, d time.Duration) bool {
	ev, err := windows.WaitForSingleObject(windows.Handle(fd), uint32(d/time.Millisecond))
	return err == nil && ev == windows.WAIT_OBJECT_0
}
