//go:build linux && !amd64

package sandbox

// legacyMetadataCalls: the other architectures have only the *at calls.
var legacyMetadataCalls []uintptr
