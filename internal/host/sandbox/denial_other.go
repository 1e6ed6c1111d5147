//go:build !unix

package sandbox

func writableOutside(string) bool { return false }
