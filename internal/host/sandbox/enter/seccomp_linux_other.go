//go:build linux && !amd64

package enter

// legacyMetadataCalls: the other architectures have only the *at calls.
var legacyMetadataCalls []uintptr
