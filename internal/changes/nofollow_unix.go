//go:build unix

package changes

import "syscall"

// oNoFollow keeps a read from following a link put in place after the
// path was seen as a regular file.
const oNoFollow = syscall.O_NOFOLLOW
