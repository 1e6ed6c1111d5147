package sandwich

import (
	"bytes"
	"testing"
)

// BenchmarkCapture measures the capture alone on 256 KiB chunks of text
// without newlines and of short lines.
func BenchmarkCapture(b *testing.B) {
	for _, tc := range []struct {
		name  string
		chunk []byte
	}{
		{"one-line", bytes.Repeat([]byte("a"), 256<<10)},
		{"short-lines", bytes.Repeat([]byte("log line number 12345\n"), (256<<10)/22)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := New(Options{Limits: DefaultLimits()})
			b.SetBytes(int64(len(tc.chunk)))
			for b.Loop() {
				c.Write(tc.chunk)
			}
			c.Close()
		})
	}
}
