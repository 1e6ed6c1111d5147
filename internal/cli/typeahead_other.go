//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package cli

import "io"

// typeahead reads keys typed during a turn where the terminal allows it
// (Linux, macOS, the BSDs); elsewhere they wait in the terminal until the next prompt.
type typeahead struct{}

func newTypeahead(int, io.Writer, func(string), func()) *typeahead { return &typeahead{} }
func (t *typeahead) start() bool                                   { return false }
func (t *typeahead) pause() func()                                 { return func() {} }
func (t *typeahead) finish() []byte                                { return nil }
