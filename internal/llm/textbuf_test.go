package llm

import (
	"strings"
	"testing"
)

func TestTextBufferKeepsHeadAndTail(t *testing.T) {
	var b TextBuffer
	b.Limit = 100
	b.WriteString("short")
	if b.String() != "short" || b.Cut() != 0 {
		t.Fatalf("%q", b.String())
	}
	var all strings.Builder
	all.WriteString("short")
	for i := range 1000 {
		s := strings.Repeat(string(rune('a'+i%26)), i%7+1)
		b.WriteString(s)
		all.WriteString(s)
	}
	got := b.String()
	want := all.String()
	if b.Len() != int64(len(want)) || b.Cut() != int64(len(want)-100) {
		t.Errorf("len %d cut %d", b.Len(), b.Cut())
	}
	if !strings.HasPrefix(got, want[:75]+"\n[nb: ") || !strings.HasSuffix(got, "streamed]\n"+want[len(want)-25:]) {
		t.Errorf("got %q", got)
	}
	// Fits exactly: nothing is cut, in order.
	var c TextBuffer
	c.Limit = 10
	c.WriteString("0123456")
	c.WriteString("789")
	if c.String() != "0123456789" {
		t.Errorf("%q", c.String())
	}
}

// A 100 MB answer streamed in small chunks keeps a bounded buffer.
func BenchmarkTextBuffer100MB(b *testing.B) {
	chunk := strings.Repeat("x", 40)
	for b.Loop() {
		var t TextBuffer
		for range 100 << 20 / 40 {
			t.WriteString(chunk)
		}
		if len(t.String()) > StreamTextLimit+100 {
			b.Fatal("unbounded")
		}
	}
}
