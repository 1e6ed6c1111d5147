package visible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestElide(t *testing.T) {
	if e, ok := Elide("short", 4, 4); ok || e.Head != "short" {
		t.Errorf("short text elided: %+v", e)
	}
	s := strings.Repeat("é", 100) + "\n" + strings.Repeat("ü", 100)
	e, ok := Elide(s, 11, 11)
	if !ok || !utf8.ValidString(e.Head) || !utf8.ValidString(e.Tail) {
		t.Fatalf("cut inside a rune: %+v", e)
	}
	if len(e.Head)+e.Hidden+len(e.Tail) != len(s) || e.HiddenLines != 1 {
		t.Errorf("parts do not add up: %d+%d+%d != %d, lines %d", len(e.Head), e.Hidden, len(e.Tail), len(s), e.HiddenLines)
	}
	if m := e.Marker(); m != "… 381 bytes, 1 line more …" {
		t.Errorf("marker %q", m)
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 10485760: "10,485,760"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBound(t *testing.T) {
	if got := Bound("short", 4, 4); got != "short" {
		t.Errorf("Bound(short) = %q", got)
	}
	if got := Bound("abcdefghijklmnop", 3, 2); got != "abc … 11 bytes more … op" {
		t.Errorf("Bound = %q", got)
	}
}
