package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSkeletonAt: every byte of a skeleton is found again where it came
// from in the text, across checkpoints, escapes and added ranges.
func TestSkeletonAt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "B", "0", "9", " ", "\\x4f", "\\u0041", "0x1f", "0X", "x", "\\", "-", "é", "\n", "Zz", "\x1b[0m", "\x1b]0;t\x07", "\x1b"}
	for range 50 {
		var b strings.Builder
		for b.Len() < 3*checkpointEvery {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		var sk skeleton
		mid := r.IntN(len(text))
		sk.add(text, 0, mid)
		sk.add(text, mid, len(text))
		for k := range sk.b {
			at := sk.at(k)
			if c := text[at]; lowerTable[c] != sk.b[k] {
				t.Fatalf("byte %d (%q) found at %d (%q) in %q, range %d", k, sk.b[k], at, c, text[max(0, at-30):min(len(text), at+30)], mid)
			}
		}
	}
	if got := skeletonString(`Ab-C\x41 0x42 \u0043 %44`); got != "abc41424344" {
		t.Errorf("skeleton %q", got)
	}
}

// TestCores: the characters of an encoding that only the value's bits
// make up, at every alignment.
func TestCores(t *testing.T) {
	var got []string
	for _, f := range formsOf("Hello, World!", 0) {
		if f.kind == formBase64 {
			got = append(got, f.text)
		}
	}
	// base64 prints SGVsbG8sIFdvcmxkIQ== for it, eEhlbGxvLCBXb3JsZCE= with
	// x before it, eHlIZWxsbywgV29ybGQh with xy
	want := []string{"sgvsbg8sifdvcmxki", "hlbgxvlcbxb3jszc", "izwxsbywgv29ybgqh"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("base64 cores %q, want %q", got, want)
	}
}
