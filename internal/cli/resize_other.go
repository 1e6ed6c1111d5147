//go:build !unix

package cli

// onResize does nothing where there is no SIGWINCH: the next key redraws
// at the new width.
func onResize(func()) (stop func()) { return func() {} }
