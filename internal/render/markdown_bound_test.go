package render

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/render/style"
)

// TestLongLineInSmallChunks: a long line streamed in small pieces renders
// exactly as when it arrives whole (the preview only ever shows its end).
func TestLongLineInSmallChunks(t *testing.T) {
	line := strings.Repeat("lorem ipsum dolor sit amet ", 400) + "the end\n"
	var chunks []string
	for s := line; len(s) > 0; s = s[min(len(s), 7):] {
		chunks = append(chunks, s[:min(len(s), 7)])
	}
	whole, _ := renderChunks(t, []string{line}, 60, true)
	pieces, _ := renderChunks(t, chunks, 60, true)
	if whole != pieces {
		t.Fatalf("rendered in pieces:\n%s\nwhole:\n%s", pieces, whole)
	}
	if !strings.Contains(pieces, "the end") {
		t.Fatalf("lost the end:\n%s", pieces)
	}
}

// BenchmarkMarkdownLongLine streams a 1 MB answer without a line break in
// 16-byte chunks with the live preview on: the cost must stay linear in
// the length (it was quadratic).
func BenchmarkMarkdownLongLine(b *testing.B) {
	const size = 1 << 20
	text := strings.Repeat("word ", size/5)
	b.SetBytes(size)
	for b.Loop() {
		m := newMDStream(io.Discard, style.Palette{}, func() int { return 100 }, true)
		for s := text; len(s) > 0; s = s[min(len(s), 16):] {
			m.write(s[:min(len(s), 16)])
		}
		var buf bytes.Buffer
		m.out = &buf
		m.end()
	}
}
