package enter

import "golang.org/x/sys/unix"

// legacyMetadataCalls are amd64's older calls that change a file's mode,
// owner or times.
var legacyMetadataCalls = []uintptr{unix.SYS_CHMOD, unix.SYS_CHOWN, unix.SYS_LCHOWN, unix.SYS_UTIME, unix.SYS_UTIMES, unix.SYS_FUTIMESAT}
