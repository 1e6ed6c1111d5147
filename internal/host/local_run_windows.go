package host

import "os"

// growPipe is a no-op: Windows pipes are sized at creation.
func growPipe(*os.File) {}

// killMarked is a no-op: no process leaves its Job Object (breakaway is not
// allowed), so there is nothing to find by mark.
func killMarked(string) {}

// killMarkedPrefix is a no-op, as killMarked.
func killMarkedPrefix(string) {}
