//go:build !unix

package sandbox

// keepInheritedFiles has nothing to do where the sandbox does not run.
func keepInheritedFiles() {}
